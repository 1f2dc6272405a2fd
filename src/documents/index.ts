// Invoice and credit note documents (docs/invoice-documents.md): load the model, render it as
// HTML or PDF. Used by the API, the customer portal and the dashboard alike.
export type { DocumentLocale, InvoiceDocument } from './document-model';
export { DOCUMENT_LOCALES } from './document-model';
export { loadCreditNoteDocument, loadInvoiceDocument } from './load-document';
export { documentTitle, renderDocumentHtml } from './render-html';
export { renderDocumentPdf } from './render-pdf';

/** Headers for a served document: no script may run in it, nothing may frame it, never cached. */
export const DOCUMENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A file name for a download: the document's number, safe characters only. */
export function documentFileName(doc: { kind: 'invoice' | 'credit_note'; number: string }, ext: 'pdf' | 'html'): string {
  const base = `${doc.kind === 'invoice' ? 'invoice' : 'credit-note'}-${doc.number}`.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${base}.${ext}`;
}
