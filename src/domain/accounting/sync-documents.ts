// What a ledger posting becomes in the accounting software (docs/accounting.md "What is sent"):
//   invoice_finalized            → invoice (lines per revenue account and VAT rate)
//   credit_note, invoice_voided  → credit note against the invoice
//   invoice_paid                 → payment (card or bank claim)
//   refund                       → payment with a negative amount
//   invoice_written_off          → payment by write-off; write_off_reversed its negative
// The reference is always the posting id (bp_…), so the provider deduplicates retries.
import type { LedgerEntry, LedgerPosting } from '../../generated/prisma/client';
import type { ProviderCreditNote, ProviderCustomer, ProviderDocumentLine, ProviderInvoice, ProviderPayment } from '../../gateways/accounting/adapter';
import type { Customer } from '../../generated/prisma/client';
import { allocateProportionally } from '../../billing';

export class MappingProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MappingProblem';
  }
}

export interface SyncSettings {
  defaultGlAccount: string;
  vatCodeMapping: Record<string, string>;
}

export type SyncDocument = { type: 'invoice'; doc: ProviderInvoice } | { type: 'credit_note'; doc: ProviderCreditNote } | { type: 'payment'; doc: ProviderPayment };

function glAccount(account: string, s: SyncSettings): string {
  if (account.startsWith('revenue:')) return account.slice('revenue:'.length);
  return s.defaultGlAccount; // revenue, discounts
}

/** Lines per (GL account, VAT rate); `sign` 1 reads credits as positive (invoices), -1 debits (credit notes). */
function documentLines(entries: LedgerEntry[], s: SyncSettings, sign: 1 | -1): ProviderDocumentLine[] {
  const net = (e: LedgerEntry) => Number(sign === 1 ? e.credit - e.debit : e.debit - e.credit);
  const revenue = entries.filter((e) => e.account === 'revenue' || e.account.startsWith('revenue:') || e.account === 'discounts');
  const vatByRate = new Map<string, number>();
  for (const e of entries.filter((x) => x.account.startsWith('vat_payable:'))) {
    const rate = e.account.slice('vat_payable:'.length);
    vatByRate.set(rate, (vatByRate.get(rate) ?? 0) + net(e));
  }
  const groups = new Map<string, { account: string; rate: string; net: number; discount: boolean }>();
  for (const e of revenue) {
    const rate = e.vatRate ?? 'exempt';
    const account = glAccount(e.account, s);
    const discount = e.account === 'discounts';
    const key = `${account}\u0000${rate}\u0000${discount}`;
    const g = groups.get(key) ?? { account, rate, net: 0, discount };
    g.net += net(e);
    groups.set(key, g);
  }
  const lines: ProviderDocumentLine[] = [];
  const rates = new Set([...[...groups.values()].map((g) => g.rate), ...vatByRate.keys()]);
  for (const rate of rates) {
    const code = s.vatCodeMapping[rate];
    if (!code) throw new MappingProblem(`No VAT code is mapped for the rate '${rate}': set vat_code_mapping.${rate} with POST /v1/accounting_link/settings, then re-sync`);
    const ofRate = [...groups.values()].filter((g) => g.rate === rate);
    const vat = vatByRate.get(rate) ?? 0;
    const weights = ofRate.map((g) => (g.net > 0 ? g.net : 0));
    const sign = vat < 0 ? -1 : 1;
    const shares = weights.some((w) => w > 0) ? allocateProportionally(Math.abs(vat), weights).map((x) => sign * x) : ofRate.map((_, i) => (i === 0 ? vat : 0));
    ofRate.forEach((g, i) =>
      lines.push({
        description: g.discount ? `Discounts (${rate} VAT)` : `Sales (${rate} VAT)`,
        account_code: g.account,
        vat_code: code,
        net_amount: g.net,
        vat_amount: shares[i] ?? 0,
      }),
    );
    if (ofRate.length === 0 && vat !== 0) lines.push({ description: `VAT (${rate})`, account_code: s.defaultGlAccount, vat_code: code, net_amount: 0, vat_amount: vat });
  }
  return lines;
}

type CustomerFields = Pick<
  Customer,
  'id' | 'name' | 'email' | 'kennitala' | 'billingAddressLine1' | 'billingAddressLine2' | 'billingPostalCode' | 'billingCity' | 'billingCountry'
>;

/** The customer on every document (invoice, credit note, payment): its name (else its email, as on the document), kennitala and address. */
export function providerCustomer(id: string | null, c: CustomerFields | null): ProviderCustomer {
  if (!c) return { id, name: null, email: null, kennitala: null, address: null };
  const address = {
    line1: c.billingAddressLine1,
    line2: c.billingAddressLine2,
    postal_code: c.billingPostalCode,
    city: c.billingCity,
    country: c.billingCountry,
  };
  return {
    id: c.id,
    name: c.name ?? c.email,
    email: c.email,
    kennitala: c.kennitala,
    address: Object.values(address).some((v) => v !== null && v !== '') ? address : null,
  };
}

export function syncDocument(
  posting: LedgerPosting & { entries: LedgerEntry[] },
  s: SyncSettings,
  context: { invoiceReference: string | null; invoiceNumber: string | null; customer?: CustomerFields | null },
): SyncDocument {
  const date = posting.occurredAt.toISOString().slice(0, 10);
  const amount = Number(posting.amount);
  const base = { reference: posting.id, date, currency: posting.currency };
  const customer = providerCustomer(posting.customerId, context.customer ?? null);
  switch (posting.kind) {
    case 'invoice_finalized': {
      const lines = documentLines(posting.entries, s, 1);
      return { type: 'invoice', doc: { ...base, customer, invoice_number: context.invoiceNumber, lines, total: amount } };
    }
    case 'credit_note':
    case 'invoice_voided': {
      const lines = documentLines(posting.entries, s, -1);
      return {
        type: 'credit_note',
        doc: {
          ...base,
          customer,
          invoice_number: context.invoiceNumber,
          invoice_reference: context.invoiceReference,
          lines,
          total: amount,
        },
      };
    }
    case 'invoice_paid':
      return { type: 'payment', doc: { ...base, customer, invoice_reference: context.invoiceReference, amount, method: posting.method ?? 'card' } };
    case 'refund':
      return { type: 'payment', doc: { ...base, customer, invoice_reference: context.invoiceReference, amount: -amount, method: 'card_refund' } };
    case 'invoice_written_off':
      return { type: 'payment', doc: { ...base, customer, invoice_reference: context.invoiceReference, amount, method: 'write_off' } };
    case 'write_off_reversed':
      return { type: 'payment', doc: { ...base, customer, invoice_reference: context.invoiceReference, amount: -amount, method: 'write_off' } };
    default:
      throw new MappingProblem(`unknown posting kind ${posting.kind}`);
  }
}
