// Reads a PDF's text back (pdf-parse), so tests check what a document says, not how it is drawn.
import { PDFParse } from 'pdf-parse';

export async function pdfText(buf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(buf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
