// Loads the document model (document-model.ts) of an invoice or a credit note in the tenant.
// Only finalized invoices have a document (open, paid, void, uncollectible): a draft is still
// being assembled (409 invalid_state). Every credit note has one. An id of another merchant or
// mode is unknown (404 resource_missing), as everywhere.
import { invoiceDueDate } from '../billing/invoice-due';
import type { Tenant, TenantDb } from '../db/tenancy';
import type { Customer, Invoice, InvoiceLine, MerchantBusinessDetails, Prisma } from '../generated/prisma/client';
import { presentVatBreakdown } from '../objects/vat-breakdown';
import { errors } from '../errors';
import { amountRemaining } from '../billing/invoice-amounts';
import type { DocumentLine, DocumentParty, InvoiceDocument, VatBreakdownRow } from './document-model';
import { formatKennitalaForPrint } from './format';

/** The VAT breakdown as stored (docs/vat.md), in the document's terms. */
function vatBreakdownOf(stored: Prisma.JsonValue): VatBreakdownRow[] {
  return presentVatBreakdown(stored).map((r) => ({ rate: r.percent, net: r.amount_excluding_vat, vat: r.vat_amount, gross: r.amount_including_vat }));
}

function address(parts: { line1: string | null; line2: string | null; postalCode: string | null; city: string | null; country: string | null }): string[] {
  const cityLine = [parts.postalCode, parts.city].filter((x) => x).join(' ');
  return [parts.line1, parts.line2, cityLine, parts.country].filter((x): x is string => typeof x === 'string' && x !== '');
}

async function sellerOf(db: TenantDb, tenant: Tenant): Promise<InvoiceDocument['seller']> {
  // Merchant-level rows (no mode column): the tenant's merchant id selects them.
  const merchant = await db.merchant.findUnique({ where: { id: tenant.merchantId }, select: { name: true } });
  const d: MerchantBusinessDetails | null = await db.merchantBusinessDetails.findUnique({ where: { merchantId: tenant.merchantId } });
  return {
    name: d?.legalName ?? merchant?.name ?? '',
    kennitala: formatKennitalaForPrint(d?.kennitala ?? null),
    vatNumber: d?.vatNumber ?? null,
    address: d ? address({ line1: d.addressLine1, line2: d.addressLine2, postalCode: d.postalCode, city: d.city, country: d.country }) : [],
    email: d?.supportEmail ?? null,
    supportEmail: d?.supportEmail ?? null,
  };
}

function buyerOf(c: Customer | null): DocumentParty {
  if (!c) return { name: '', kennitala: null, vatNumber: null, address: [], email: null };
  return {
    name: c.name ?? c.email,
    kennitala: formatKennitalaForPrint(c.kennitala),
    vatNumber: c.vatNumber,
    address: address({ line1: c.billingAddressLine1, line2: c.billingAddressLine2, postalCode: c.billingPostalCode, city: c.billingCity, country: c.billingCountry }),
    email: c.email,
  };
}

function documentLines(lines: InvoiceLine[]): DocumentLine[] {
  return lines
    .filter((l) => l.kind !== 'discount')
    .map((l) => ({
      description: l.description,
      periodStart: l.periodStart,
      periodEnd: l.periodEnd,
      quantity: Number(l.quantity),
      unitAmount: l.unitAmount === null ? null : Number(l.unitAmount),
      amount: Number(l.amount),
      vat: l.vatRate === null ? null : { rate: l.vatBasisPoints / 100, amount: Number(l.vatAmount) },
    }));
}

async function invoiceParts(db: TenantDb, invoice: Invoice) {
  const [lines, customer, claim] = await Promise.all([
    db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } }),
    invoice.customerId ? db.customer.findFirst({ where: { id: invoice.customerId } }) : Promise.resolve(null),
    db.invoiceBankClaim.findFirst({ where: { invoiceId: invoice.id } }),
  ]);
  return { lines, customer, claim };
}

export async function loadInvoiceDocument(db: TenantDb, tenant: Tenant, invoiceId: string): Promise<InvoiceDocument> {
  const invoice = await db.invoice.findFirst({ where: { id: invoiceId } });
  if (!invoice) throw errors.resourceMissing(`No such invoice: '${invoiceId}'`, 'id');
  if (invoice.status === 'draft' || invoice.number === null) {
    throw errors.invalidState('A draft invoice has no document yet: it is still being assembled', 'id');
  }
  const { lines, customer, claim } = await invoiceParts(db, invoice);
  const docLines = documentLines(lines);
  const vatBreakdown = vatBreakdownOf(invoice.vatBreakdown);
  const issueDate = invoice.finalizedAt ?? invoice.createdAt;
  return {
    kind: 'invoice',
    id: invoice.id,
    number: invoice.number,
    status: invoice.status,
    issueDate,
    dueDate: invoiceDueDate(invoice),
    periodStart: invoice.billingReason === 'payment' ? null : invoice.periodStart,
    periodEnd: invoice.billingReason === 'payment' ? null : invoice.periodEnd,
    currency: invoice.currency,
    seller: await sellerOf(db, tenant),
    buyer: buyerOf(customer),
    lines: docLines,
    subtotal: Number(invoice.subtotal),
    discount: Number(invoice.discountAmount),
    vatBreakdown,
    pricesIncludeVat: invoice.pricesIncludeVat,
    vatTotal: Number(invoice.vatAmount),
    total: Number(invoice.total),
    amountPaid: Number(invoice.amountPaid),
    amountDue: amountRemaining(invoice),
    bankClaimReference: claim?.bankReference ?? null,
    creditedInvoice: null,
    reason: null,
    testMode: tenant.mode === 'test',
  };
}

export async function loadCreditNoteDocument(db: TenantDb, tenant: Tenant, creditNoteId: string): Promise<InvoiceDocument> {
  const cn = await db.creditNote.findFirst({ where: { id: creditNoteId } });
  if (!cn) throw errors.resourceMissing(`No such credit note: '${creditNoteId}'`, 'id');
  const invoice = await db.invoice.findFirstOrThrow({ where: { id: cn.invoiceId } });
  const customer = invoice.customerId ? await db.customer.findFirst({ where: { id: invoice.customerId } }) : null;
  const amount = Number(cn.amount);
  const line: DocumentLine = {
    description: invoice.number ? `${invoice.number}` : invoice.id,
    periodStart: null,
    periodEnd: null,
    quantity: 1,
    unitAmount: -amount,
    amount: -amount,
    vat: null,
  };
  return {
    kind: 'credit_note',
    id: cn.id,
    number: cn.id,
    status: cn.status,
    issueDate: cn.createdAt,
    dueDate: null,
    periodStart: null,
    periodEnd: null,
    currency: cn.currency,
    seller: await sellerOf(db, tenant),
    buyer: buyerOf(customer),
    lines: [line],
    subtotal: -amount,
    discount: 0,
    vatBreakdown: vatBreakdownOf(cn.vatBreakdown),
    pricesIncludeVat: invoice.pricesIncludeVat,
    vatTotal: Number(cn.vatAmount),
    total: -amount,
    amountPaid: 0,
    amountDue: 0,
    bankClaimReference: null,
    creditedInvoice: { id: invoice.id, number: invoice.number },
    reason: cn.reason,
    testMode: tenant.mode === 'test',
  };
}
