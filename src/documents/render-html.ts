// An invoice or credit note as a self-contained HTML page: one file a customer or an accountant
// can keep (inline stylesheet, no script, no external asset), printable on A4. Pure: the same
// document model and locale always give the same page. Served with a CSP that allows no script
// at all (api/routes/documents/router.ts, the portal).
import esc from 'escape-html';
import type { DocumentLocale, DocumentParty, InvoiceDocument } from './document-model';
import { DOCUMENT_TEXTS, statusLabel, type DocumentTexts } from './document-texts';
import { formatDocumentDate, formatPeriod } from './format';
import { formatMoney } from '../billing/currency';

export const DOCUMENT_CSS = `
*{box-sizing:border-box}
body{margin:0;background:#eef0f3;color:#1d2330;font:14px/1.45 "DejaVu Sans",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.page{max-width:820px;margin:24px auto;background:#fff;padding:48px 56px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
.test{background:#fff3cd;color:#7a5b00;border:1px solid #f0d68a;padding:6px 10px;font-weight:600;margin-bottom:24px;text-align:center}
header{display:flex;justify-content:space-between;gap:24px;align-items:flex-start;border-bottom:2px solid #1d2330;padding-bottom:16px}
h1{font-size:26px;margin:0 0 4px}
.meta{margin:0;display:grid;grid-template-columns:auto auto;gap:2px 16px}
.meta dt{color:#5b6474}.meta dd{margin:0;text-align:right;font-weight:600}
.parties{display:grid;grid-template-columns:1fr 1fr;gap:32px;margin:24px 0}
.party h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:#5b6474;margin:0 0 6px}
.party p{margin:0}
.party .name{font-weight:700}
table{width:100%;border-collapse:collapse;margin-top:8px}
th{font-size:12px;text-align:left;color:#5b6474;border-bottom:1px solid #c9ced8;padding:6px 4px}
td{padding:8px 4px;border-bottom:1px solid #eceef2;vertical-align:top}
.num{text-align:right;white-space:nowrap}
.period{display:block;color:#5b6474;font-size:12px}
.totals{margin-left:auto;margin-top:16px;width:340px}
.totals td{border:0;padding:4px}
.totals .grand td{border-top:2px solid #1d2330;font-weight:700;font-size:16px;padding-top:8px}
.claim{margin-top:24px;padding:12px 14px;border:1px solid #c9ced8;background:#f7f8fa}
.claim strong{font-size:16px;letter-spacing:.04em}
footer{margin-top:32px;color:#5b6474;font-size:12px}
@media print{body{background:#fff}.page{box-shadow:none;margin:0;max-width:none;padding:24px}}
@media screen and (max-width:600px){.page{margin:0;padding:20px 16px;box-shadow:none}header{flex-direction:column;gap:8px}.meta{width:100%}.parties{grid-template-columns:1fr;gap:16px}.totals{width:100%}}
`;

function party(title: string, p: DocumentParty, t: DocumentTexts, id: string): string {
  const lines = [
    `<p class="name">${esc(p.name)}</p>`,
    ...p.address.map((a) => `<p>${esc(a)}</p>`),
    p.kennitala ? `<p>${esc(t.kennitala)}: <span class="kt">${esc(p.kennitala)}</span></p>` : '',
    p.vatNumber ? `<p>${esc(t.vat_number)}: ${esc(p.vatNumber)}</p>` : '',
    p.email ? `<p>${esc(p.email)}</p>` : '',
  ].filter((x) => x);
  return `<section class="party" id="${id}"><h2>${esc(title)}</h2>${lines.join('')}</section>`;
}

export function documentTitle(doc: InvoiceDocument, locale: DocumentLocale): string {
  const t = DOCUMENT_TEXTS[locale];
  return doc.kind === 'invoice' ? `${t.invoice} ${doc.number}` : `${t.credit_note} ${doc.number}`;
}

/** The label and value rows under a document's title (number, dates, period, status), for HTML and PDF alike. */
export function documentMeta(doc: InvoiceDocument, t: DocumentTexts, locale: DocumentLocale): Array<[string, string]> {
  const meta: Array<[string, string]> = [];
  if (doc.kind === 'invoice') meta.push([t.number, doc.number]);
  else {
    meta.push([t.credit_note_number, doc.number]);
    if (doc.creditedInvoice) meta.push([t.credits_invoice, doc.creditedInvoice.number ?? doc.creditedInvoice.id]);
  }
  meta.push([t.issue_date, formatDocumentDate(doc.issueDate, locale)]);
  if (doc.dueDate) meta.push([t.due_date, formatDocumentDate(doc.dueDate, locale)]);
  if (doc.periodStart && doc.periodEnd) meta.push([t.period, formatPeriod(doc.periodStart, doc.periodEnd, locale)]);
  meta.push([t.status, statusLabel(t, doc.status)]);
  return meta;
}

export function renderDocumentHtml(doc: InvoiceDocument, locale: DocumentLocale): string {
  const t = DOCUMENT_TEXTS[locale];
  const money = (n: number) => formatMoney(n, doc.currency);
  const showVat = doc.lines.some((l) => l.vat !== null);
  const meta = documentMeta(doc, t, locale);

  const rows = doc.lines
    .map((l) => {
      const period = formatPeriod(l.periodStart, l.periodEnd, locale);
      return `<tr class="line">
        <td>${esc(l.description)}${period ? `<span class="period">${esc(period)}</span>` : ''}</td>
        <td class="num">${l.quantity}</td>
        <td class="num">${l.unitAmount === null ? '' : esc(money(l.unitAmount))}</td>
        ${showVat ? `<td class="num">${l.vat ? `${l.vat.rate} %` : ''}</td>` : ''}
        <td class="num">${esc(money(l.amount))}</td>
      </tr>`;
    })
    .join('');

  const totals: Array<[string, string, string]> = [];
  if (doc.kind === 'invoice') {
    totals.push(['subtotal', t.subtotal, money(doc.subtotal)]);
    if (doc.discount > 0) totals.push(['discount', t.discount, money(-doc.discount)]);
    for (const v of doc.vatBreakdown) totals.push([`vat-${v.rate}`, t.vat_at.replace('{rate}', String(v.rate)).replace('{base}', money(v.net)), money(v.vat)]);
    if (doc.vatTotal !== null) totals.push(['vat-total', t.vat_total, money(doc.vatTotal)]);
    totals.push(['total', t.total, money(doc.total)]);
    totals.push(['amount-paid', t.amount_paid, money(doc.amountPaid)]);
    totals.push(['amount-due', t.amount_due, money(doc.amountDue)]);
  } else {
    for (const v of doc.vatBreakdown) totals.push([`vat-${v.rate}`, t.vat_at.replace('{rate}', String(v.rate)).replace('{base}', money(-v.net)), money(-v.vat)]);
    totals.push(['total', t.credited, money(doc.total)]);
  }
  const totalRows = totals
    .map(([id, label, value]) => `<tr id="total-${id}"${id === 'total' ? ' class="grand"' : ''}><td>${esc(label)}</td><td class="num">${esc(value)}</td></tr>`)
    .join('');

  const claim = doc.bankClaimReference
    ? `<section class="claim" id="bank-claim"><p>${esc(t.bank_claim)}: <strong>${esc(doc.bankClaimReference)}</strong></p><p>${esc(t.bank_claim_note)}</p></section>`
    : '';
  const reason = doc.reason ? `<p id="reason">${esc(t.reason)}: ${esc(doc.reason)}</p>` : '';
  const support = doc.seller.supportEmail ? `<p>${esc(t.support)}: ${esc(doc.seller.supportEmail)}</p>` : '';

  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(documentTitle(doc, locale))}</title>
<style>${DOCUMENT_CSS}</style>
</head>
<body>
<main class="page" id="document" data-kind="${doc.kind}" data-id="${esc(doc.id)}">
${doc.testMode ? `<p class="test" id="test-mode">${esc(t.test_mode)}</p>` : ''}
<header>
  <div><h1>${esc(doc.kind === 'invoice' ? t.invoice : t.credit_note)}</h1><p class="seller-name">${esc(doc.seller.name)}</p></div>
  <dl class="meta">${meta.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>
</header>
<div class="parties">
  ${party(t.seller, doc.seller, t, 'seller')}
  ${party(t.buyer, doc.buyer, t, 'buyer')}
</div>
<table class="lines" id="lines">
  <thead><tr><th>${esc(t.description)}</th><th class="num">${esc(t.quantity)}</th><th class="num">${esc(t.unit_price)}</th>${showVat ? `<th class="num">${esc(t.vat)}</th>` : ''}<th class="num">${esc(t.amount)}</th></tr></thead>
  <tbody>${rows}</tbody>
</table>
<table class="totals" id="totals"><tbody>${totalRows}</tbody></table>
${reason}
${claim}
<footer>${support}</footer>
</main>
</body>
</html>`;
}
