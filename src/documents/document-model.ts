// The content of an invoice or credit note document, as plain data: what the HTML page and the
// PDF both print (render-html.ts, render-pdf.ts). Loaded from the database by
// load-document.ts; the renderers are pure functions of this model and a locale, so the portal,
// the API and the dashboard render the same document.

export type DocumentLocale = 'is' | 'en';
export const DOCUMENT_LOCALES: readonly DocumentLocale[] = ['is', 'en'];

export interface DocumentParty {
  name: string;
  kennitala: string | null;
  vatNumber: string | null;
  /** Address lines, already joined per line (street, postal code + city, country). */
  address: string[];
  email: string | null;
}

export interface DocumentLine {
  description: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  quantity: number;
  /** Null for tiered prices and lines without a unit price. */
  unitAmount: number | null;
  amount: number;
  /** VAT of the line when the invoice carries it (rate in percent, amount in minor units). */
  vat: { rate: number; amount: number } | null;
}

export interface VatBreakdownRow {
  /** Rate in percent, e.g. 24. */
  rate: number;
  /** Amount without VAT the rate applies to (minor units). */
  net: number;
  vat: number;
  gross: number;
}

export interface InvoiceDocument {
  kind: 'invoice' | 'credit_note';
  /** inv_… or cn_… */
  id: string;
  /** The invoice number (credit notes: their id; the invoice they credit is `creditedInvoice`). */
  number: string;
  status: string;
  issueDate: Date;
  dueDate: Date | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  currency: string;
  seller: DocumentParty & { supportEmail: string | null };
  buyer: DocumentParty;
  lines: DocumentLine[];
  subtotal: number;
  /** Positive: the amount taken off the subtotal. */
  discount: number;
  /** VAT per rate, as stored on the invoice or credit note (docs/vat.md). */
  vatBreakdown: VatBreakdownRow[];
  /** Whether the amounts of the lines include VAT (the merchant's setting when it was built). */
  pricesIncludeVat: boolean;
  vatTotal: number | null;
  total: number;
  amountPaid: number;
  amountDue: number;
  /** Bank invoices (send_invoice): the claim reference the customer pays against. */
  bankClaimReference: string | null;
  creditedInvoice: { id: string; number: string | null } | null;
  reason: string | null;
  testMode: boolean;
}
