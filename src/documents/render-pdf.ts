// An invoice or credit note as a PDF (A4), laid out with pdfkit and printed in DejaVu Sans, a
// font embedded in the file that has every Icelandic letter (þ, ð, æ, ö, á, …): PDF's built-in
// fonts do not. Same content as the HTML page (render-html.ts), from the same document model.
import PDFDocument from 'pdfkit';
import type { DocumentLocale, DocumentParty, InvoiceDocument } from './document-model';
import { DOCUMENT_TEXTS } from './document-texts';
import { formatPeriod } from './format';
import { formatMoney } from '../billing/currency';
import { documentMeta, documentTitle } from './render-html';

const FONT_REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const PAGE = { width: 595.28, height: 841.89, margin: 50 };
const INK = '#1d2330';
const MUTED = '#5b6474';

export async function renderDocumentPdf(doc: InvoiceDocument, locale: DocumentLocale): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    info: { Title: documentTitle(doc, locale), Author: doc.seller.name, CreationDate: doc.issueDate },
    lang: locale,
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('regular', FONT_REGULAR);
  pdf.registerFont('bold', FONT_BOLD);

  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const sheet: Sheet = {
    pdf,
    doc,
    locale,
    t: DOCUMENT_TEXTS[locale],
    money: (n: number) => formatMoney(n, doc.currency),
    left,
    right,
    width: right - left,
    bottom: PAGE.height - PAGE.margin - 20,
  };
  let y = drawHeader(sheet);
  y = drawParties(sheet, y);
  y = drawLines(sheet, y);
  y = drawTotals(sheet, y);
  drawNotes(sheet, y);
  drawPageNumbers(sheet);
  pdf.end();
  return finished;
}

/** What every part of the page draws with: the document, its texts, the page's geometry. */
interface Sheet {
  pdf: PDFKit.PDFDocument;
  doc: InvoiceDocument;
  locale: DocumentLocale;
  t: (typeof DOCUMENT_TEXTS)[DocumentLocale];
  money: (n: number) => string;
  left: number;
  right: number;
  width: number;
  bottom: number;
}

/** The test-mode banner, then the title and seller name on the left, the document's facts on the right; returns the y below the rule. */
function drawHeader({ pdf, doc, locale, t, left, right, width }: Sheet): number {
  if (doc.testMode) {
    pdf
      .font('bold')
      .fontSize(9)
      .fillColor('#7a5b00')
      .text(t.test_mode, left, PAGE.margin - 30, { width, align: 'center' });
  }

  pdf
    .font('bold')
    .fontSize(22)
    .fillColor(INK)
    .text(doc.kind === 'invoice' ? t.invoice : t.credit_note, left, PAGE.margin);
  pdf
    .font('regular')
    .fontSize(10)
    .fillColor(MUTED)
    .text(doc.seller.name, left, pdf.y + 2, { width: width / 2 });
  const meta = documentMeta(doc, t, locale);
  let my = PAGE.margin;
  for (const [k, v] of meta) {
    pdf
      .font('regular')
      .fontSize(9)
      .fillColor(MUTED)
      .text(k, left + width * 0.4, my, { width: width * 0.18 });
    pdf.font('bold').fontSize(9);
    const h = pdf.heightOfString(v, { width: width * 0.42 });
    pdf.fillColor(INK).text(v, left + width * 0.58, my, { width: width * 0.42, align: 'right' });
    my += Math.max(14, h + 3);
  }
  let y = Math.max(pdf.y, my) + 12;
  pdf.moveTo(left, y).lineTo(right, y).lineWidth(1.5).strokeColor(INK).stroke();
  y += 16;

  return y;
}

/** Seller and buyer side by side; returns the y below both. */
function drawParties({ pdf, doc, t, left, width }: Sheet, top: number): number {
  let y = top;
  const partyBlock = (title: string, p: DocumentParty, x: number, top: number): number => {
    pdf
      .font('bold')
      .fontSize(8)
      .fillColor(MUTED)
      .text(title.toUpperCase(), x, top, { width: width / 2 - 16, characterSpacing: 0.5 });
    pdf
      .font('bold')
      .fontSize(10)
      .fillColor(INK)
      .text(p.name, x, pdf.y + 3, { width: width / 2 - 16 });
    pdf.font('regular').fontSize(9.5);
    for (const line of p.address) pdf.text(line, x, pdf.y, { width: width / 2 - 16 });
    if (p.kennitala) pdf.text(`${t.kennitala}: ${p.kennitala}`, x, pdf.y, { width: width / 2 - 16 });
    if (p.vatNumber) pdf.text(`${t.vat_number}: ${p.vatNumber}`, x, pdf.y, { width: width / 2 - 16 });
    if (p.email) pdf.text(p.email, x, pdf.y, { width: width / 2 - 16 });
    return pdf.y;
  };
  const sellerEnd = partyBlock(t.seller, doc.seller, left, y);
  const buyerEnd = partyBlock(t.buyer, doc.buyer, left + width / 2, y);
  y = Math.max(sellerEnd, buyerEnd) + 20;

  return y;
}

/** The lines' table (its header repeated on every page); returns the y below it. */
function drawLines({ pdf, doc, locale, t, money, left, right, width, bottom }: Sheet, top: number): number {
  let y = top;
  const showVat = doc.lines.some((l) => l.vat !== null);
  const cols = showVat
    ? {
        desc: [left, width * 0.43],
        qty: [left + width * 0.43, width * 0.08],
        unit: [left + width * 0.51, width * 0.17],
        vat: [left + width * 0.68, width * 0.1],
        amount: [left + width * 0.78, width * 0.22],
      }
    : { desc: [left, width * 0.5], qty: [left + width * 0.5, width * 0.1], unit: [left + width * 0.6, width * 0.18], vat: [0, 0], amount: [left + width * 0.78, width * 0.22] };
  const header = () => {
    pdf.font('bold').fontSize(8.5).fillColor(MUTED);
    pdf.text(t.description, cols.desc[0]!, y, { width: cols.desc[1]! });
    pdf.text(t.quantity, cols.qty[0]!, y, { width: cols.qty[1]!, align: 'right' });
    pdf.text(t.unit_price, cols.unit[0]!, y, { width: cols.unit[1]!, align: 'right' });
    if (showVat) pdf.text(t.vat, cols.vat[0]!, y, { width: cols.vat[1]!, align: 'right' });
    pdf.text(t.amount, cols.amount[0]!, y, { width: cols.amount[1]!, align: 'right' });
    y += 14;
    pdf.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor('#c9ced8').stroke();
    y += 6;
  };
  header();
  for (const l of doc.lines) {
    const period = formatPeriod(l.periodStart, l.periodEnd, locale);
    pdf.font('regular').fontSize(9.5);
    const h = pdf.heightOfString(l.description, { width: cols.desc[1]! - 6 }) + (period ? 12 : 0);
    if (y + h > bottom) {
      pdf.addPage();
      y = PAGE.margin;
      header();
    }
    pdf
      .font('regular')
      .fontSize(9.5)
      .fillColor(INK)
      .text(l.description, cols.desc[0]!, y, { width: cols.desc[1]! - 6 });
    if (period)
      pdf
        .fontSize(8)
        .fillColor(MUTED)
        .text(period, cols.desc[0]!, pdf.y + 1, { width: cols.desc[1]! - 6 });
    pdf.fontSize(9.5).fillColor(INK);
    pdf.text(String(l.quantity), cols.qty[0]!, y, { width: cols.qty[1]!, align: 'right' });
    if (l.unitAmount !== null) pdf.text(money(l.unitAmount), cols.unit[0]!, y, { width: cols.unit[1]!, align: 'right' });
    if (showVat && l.vat) pdf.text(`${l.vat.rate} %`, cols.vat[0]!, y, { width: cols.vat[1]!, align: 'right' });
    pdf.text(money(l.amount), cols.amount[0]!, y, { width: cols.amount[1]!, align: 'right' });
    y += h + 8;
    pdf
      .moveTo(left, y - 4)
      .lineTo(right, y - 4)
      .lineWidth(0.3)
      .strokeColor('#eceef2')
      .stroke();
  }

  return y;
}

/** The totals block; returns the y below it. */
function drawTotals({ pdf, doc, t, money, left, right, width, bottom }: Sheet, top: number): number {
  let y = top;
  const totals: Array<[string, string, boolean]> = [];
  if (doc.kind === 'invoice') {
    totals.push([t.subtotal, money(doc.subtotal), false]);
    if (doc.discount > 0) totals.push([t.discount, money(-doc.discount), false]);
    for (const v of doc.vatBreakdown) totals.push([t.vat_at.replace('{rate}', String(v.rate)).replace('{base}', money(v.net)), money(v.vat), false]);
    if (doc.vatTotal !== null) totals.push([t.vat_total, money(doc.vatTotal), false]);
    totals.push([t.total, money(doc.total), true]);
    totals.push([t.amount_paid, money(doc.amountPaid), false]);
    totals.push([t.amount_due, money(doc.amountDue), false]);
  } else {
    for (const v of doc.vatBreakdown) totals.push([t.vat_at.replace('{rate}', String(v.rate)).replace('{base}', money(-v.net)), money(-v.vat), false]);
    totals.push([t.credited, money(doc.total), true]);
  }
  if (y + totals.length * 18 + 20 > bottom) {
    pdf.addPage();
    y = PAGE.margin;
  }
  y += 6;
  const tx = left + width * 0.45;
  for (const [label, value, grand] of totals) {
    if (grand) {
      pdf
        .moveTo(tx, y - 3)
        .lineTo(right, y - 3)
        .lineWidth(1.2)
        .strokeColor(INK)
        .stroke();
      y += 3;
    }
    pdf
      .font(grand ? 'bold' : 'regular')
      .fontSize(grand ? 12 : 9.5)
      .fillColor(INK);
    pdf.text(label, tx, y, { width: width * 0.3 });
    pdf.text(value, left + width * 0.75, y, { width: width * 0.25, align: 'right' });
    y += grand ? 20 : 15;
  }

  return y;
}

/** The credit note's reason, the bank claim's box and the support address. */
function drawNotes({ pdf, doc, t, left, width, bottom }: Sheet, top: number): void {
  let y = top;
  if (doc.reason) {
    y += 8;
    pdf.font('regular').fontSize(9.5).fillColor(INK).text(`${t.reason}: ${doc.reason}`, left, y, { width });
    y = pdf.y;
  }
  if (doc.bankClaimReference) {
    y += 16;
    if (y + 50 > bottom) {
      pdf.addPage();
      y = PAGE.margin;
    }
    pdf.rect(left, y, width, 46).fillAndStroke('#f7f8fa', '#c9ced8');
    pdf
      .font('regular')
      .fontSize(9.5)
      .fillColor(INK)
      .text(`${t.bank_claim}: `, left + 10, y + 8, { continued: true })
      .font('bold')
      .text(doc.bankClaimReference);
    pdf
      .font('regular')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(t.bank_claim_note, left + 10, pdf.y + 2, { width: width - 20 });
  }
  if (doc.seller.supportEmail) {
    pdf
      .font('regular')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(`${t.support}: ${doc.seller.supportEmail}`, left, bottom - 10, { width, lineBreak: false });
  }
}

/** Page numbers once every page exists. */
function drawPageNumbers({ pdf, t, left, width }: Sheet): void {
  const range = pdf.bufferedPageRange();
  if (range.count > 1) {
    for (let i = range.start; i < range.start + range.count; i++) {
      pdf.switchToPage(i);
      pdf
        .font('regular')
        .fontSize(8)
        .fillColor(MUTED)
        .text(`${t.page} ${i + 1} / ${range.count}`, left, PAGE.height - PAGE.margin - 12, { width, align: 'right', lineBreak: false });
    }
  }
}
