// What each CSV export holds (docs/exports.md lists the columns): the rows of one kind whose date
// falls in the period, read in keyset batches ordered by (date, id) so a year of a large merchant
// is never in memory at once. Amounts are integers in minor units, each main amount also
// formatted the way the dashboard and documents show it; instants are ISO 8601 in UTC.
import { invoiceDueDate } from '../../billing/invoice-due';
import type { TenantDb } from '../../db/tenancy';
import type { CreditNote, Customer, Invoice, LedgerEntry, Payment, Refund } from '../../generated/prisma/client';
import { formatMoney } from '../../billing/currency';
import type { ExportPeriod } from './period';

export type Cell = string | number | null;

export interface ExportColumn<Row> {
  name: string;
  value: (row: Row) => Cell;
}

export interface ExportTable<Row extends { id: string }> {
  /** The column the period and the order apply to. */
  dateField: 'createdAt' | 'finalizedAt';
  columns: ExportColumn<Row>[];
  fetch: (db: TenantDb, where: Record<string, unknown>, take: number) => Promise<Row[]>;
}

/** Rows read per database round trip. */
export const EXPORT_BATCH_SIZE = 1000;

export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

export function minor(amount: bigint | number): number {
  return Number(amount);
}

type WithCustomer<T> = T & { customer: Pick<Customer, 'name' | 'email' | 'kennitala'> | null };
const customerSelect = { select: { name: true, email: true, kennitala: true } } as const;

function customerColumns<T extends WithCustomer<{ customerId: string | null }>>(): ExportColumn<T>[] {
  return [
    { name: 'customer_id', value: (r) => r.customerId },
    { name: 'customer_name', value: (r) => r.customer?.name ?? null },
    { name: 'customer_email', value: (r) => r.customer?.email ?? null },
    { name: 'customer_kennitala', value: (r) => r.customer?.kennitala ?? null },
  ];
}

export type InvoiceRow = WithCustomer<Invoice>;

export const INVOICES: ExportTable<InvoiceRow> = {
  // Invoices by issue date: drafts have none and are left out.
  dateField: 'finalizedAt',
  fetch: (db, where, take) =>
    db.invoice.findMany({ where, take, orderBy: [{ finalizedAt: 'asc' }, { id: 'asc' }], include: { customer: customerSelect } }) as Promise<InvoiceRow[]>,
  columns: [
    { name: 'id', value: (r) => r.id },
    { name: 'number', value: (r) => r.number },
    { name: 'status', value: (r) => r.status },
    ...customerColumns<InvoiceRow>(),
    { name: 'subscription_id', value: (r) => r.subscriptionId },
    { name: 'payment_id', value: (r) => r.paymentId },
    { name: 'billing_reason', value: (r) => r.billingReason },
    { name: 'collection_method', value: (r) => r.collectionMethod },
    { name: 'currency', value: (r) => r.currency },
    { name: 'subtotal', value: (r) => minor(r.subtotal) },
    { name: 'discount_amount', value: (r) => minor(r.discountAmount) },
    { name: 'vat_amount', value: (r) => minor(r.vatAmount) },
    { name: 'total', value: (r) => minor(r.total) },
    { name: 'total_formatted', value: (r) => formatMoney(r.total, r.currency) },
    { name: 'amount_due', value: (r) => minor(r.amountDue) },
    { name: 'amount_paid', value: (r) => minor(r.amountPaid) },
    { name: 'period_start', value: (r) => iso(r.periodStart) },
    { name: 'period_end', value: (r) => iso(r.periodEnd) },
    { name: 'issued_at', value: (r) => iso(r.finalizedAt) },
    { name: 'due_date', value: (r) => iso(invoiceDueDate(r)) },
    { name: 'paid_at', value: (r) => iso(r.paidAt) },
    { name: 'voided_at', value: (r) => iso(r.voidedAt) },
    { name: 'uncollectible_at', value: (r) => iso(r.uncollectibleAt) },
    { name: 'created_at', value: (r) => iso(r.createdAt) },
  ],
};

export type PaymentRow = WithCustomer<Payment>;

export const PAYMENTS: ExportTable<PaymentRow> = {
  dateField: 'createdAt',
  fetch: (db, where, take) => db.payment.findMany({ where, take, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { customer: customerSelect } }) as Promise<PaymentRow[]>,
  columns: [
    { name: 'id', value: (r) => r.id },
    { name: 'status', value: (r) => r.status },
    ...customerColumns<PaymentRow>(),
    { name: 'description', value: (r) => r.description },
    { name: 'currency', value: (r) => r.currency },
    { name: 'amount', value: (r) => minor(r.amount) },
    { name: 'amount_formatted', value: (r) => formatMoney(r.amount, r.currency) },
    { name: 'amount_refunded', value: (r) => minor(r.amountRefunded) },
    { name: 'failure_code', value: (r) => r.failureCode },
    { name: 'failure_message', value: (r) => r.failureMessage },
    { name: 'succeeded_at', value: (r) => iso(r.succeededAt) },
    { name: 'created_at', value: (r) => iso(r.createdAt) },
  ],
};

export type RefundRow = Refund & { payment: { customerId: string | null; customer: Pick<Customer, 'name' | 'email' | 'kennitala'> | null } };

export const REFUNDS: ExportTable<RefundRow> = {
  dateField: 'createdAt',
  fetch: (db, where, take) =>
    db.refund.findMany({
      where,
      take,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { payment: { select: { customerId: true, customer: customerSelect } } },
    }) as Promise<RefundRow[]>,
  columns: [
    { name: 'id', value: (r) => r.id },
    { name: 'status', value: (r) => r.status },
    { name: 'payment_id', value: (r) => r.paymentId },
    { name: 'customer_id', value: (r) => r.payment.customerId },
    { name: 'customer_name', value: (r) => r.payment.customer?.name ?? null },
    { name: 'customer_email', value: (r) => r.payment.customer?.email ?? null },
    { name: 'customer_kennitala', value: (r) => r.payment.customer?.kennitala ?? null },
    { name: 'reason', value: (r) => r.reason },
    { name: 'currency', value: (r) => r.currency },
    { name: 'amount', value: (r) => minor(r.amount) },
    { name: 'amount_formatted', value: (r) => formatMoney(r.amount, r.currency) },
    { name: 'failure_code', value: (r) => r.failureCode },
    { name: 'succeeded_at', value: (r) => iso(r.succeededAt) },
    { name: 'failed_at', value: (r) => iso(r.failedAt) },
    { name: 'created_at', value: (r) => iso(r.createdAt) },
  ],
};

export type CreditNoteRow = CreditNote & { invoice: Pick<Invoice, 'number' | 'customerId'> & { customer: Pick<Customer, 'name' | 'email' | 'kennitala'> | null } };

export const CREDIT_NOTES: ExportTable<CreditNoteRow> = {
  dateField: 'createdAt',
  fetch: (db, where, take) =>
    db.creditNote.findMany({
      where,
      take,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { invoice: { select: { number: true, customerId: true, customer: customerSelect } } },
    }) as Promise<CreditNoteRow[]>,
  columns: [
    { name: 'id', value: (r) => r.id },
    { name: 'status', value: (r) => r.status },
    { name: 'invoice_id', value: (r) => r.invoiceId },
    { name: 'invoice_number', value: (r) => r.invoice.number },
    { name: 'refund_id', value: (r) => r.refundId },
    { name: 'customer_id', value: (r) => r.invoice.customerId },
    { name: 'customer_name', value: (r) => r.invoice.customer?.name ?? null },
    { name: 'customer_email', value: (r) => r.invoice.customer?.email ?? null },
    { name: 'customer_kennitala', value: (r) => r.invoice.customer?.kennitala ?? null },
    { name: 'reason', value: (r) => r.reason },
    { name: 'currency', value: (r) => r.currency },
    { name: 'amount', value: (r) => minor(r.amount) },
    { name: 'amount_formatted', value: (r) => formatMoney(r.amount, r.currency) },
    { name: 'vat_amount', value: (r) => minor(r.vatAmount) },
    { name: 'created_at', value: (r) => iso(r.createdAt) },
  ],
};

export type LedgerRow = LedgerEntry & { posting: { kind: string } };

export const LEDGER_ENTRIES: ExportTable<LedgerRow> = {
  // By the time an entry was recorded, as the trial balance sums them.
  dateField: 'createdAt',
  fetch: (db, where, take) =>
    db.ledgerEntry.findMany({ where, take, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: { posting: { select: { kind: true } } } }) as Promise<LedgerRow[]>,
  columns: [
    { name: 'id', value: (r) => r.id },
    { name: 'posting_id', value: (r) => r.postingId },
    { name: 'posting_kind', value: (r) => r.posting.kind },
    { name: 'account', value: (r) => r.account },
    { name: 'currency', value: (r) => r.currency },
    { name: 'debit', value: (r) => minor(r.debit) },
    { name: 'credit', value: (r) => minor(r.credit) },
    { name: 'debit_formatted', value: (r) => formatMoney(r.debit, r.currency) },
    { name: 'credit_formatted', value: (r) => formatMoney(r.credit, r.currency) },
    { name: 'invoice_id', value: (r) => r.invoiceId },
    { name: 'customer_id', value: (r) => r.customerId },
    { name: 'vat_rate', value: (r) => r.vatRate },
    { name: 'occurred_at', value: (r) => iso(r.occurredAt) },
    { name: 'created_at', value: (r) => iso(r.createdAt) },
  ],
};

/**
 * The rows of a table in the period, oldest first, one batch at a time: each batch starts
 * strictly after the last row of the one before by (date, id), so rows written meanwhile
 * neither repeat nor shift the cursor.
 */
export async function* exportRows<Row extends { id: string }>(db: TenantDb, table: ExportTable<Row>, period: ExportPeriod, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<Cell[]> {
  const field = table.dateField;
  let after: { at: Date; id: string } | null = null;
  for (;;) {
    const range = { [field]: { gte: period.from, lt: period.to } };
    // `date >= last` first, so the index range starts at the cursor rather than the period.
    const where: Record<string, unknown> = after ? { AND: [range, { [field]: { gte: after.at } }, { OR: [{ [field]: { gt: after.at } }, { id: { gt: after.id } }] }] } : range;
    const rows = await table.fetch(db, where, batchSize);
    for (const r of rows) yield table.columns.map((c) => c.value(r));
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { at: (last as unknown as Record<string, Date>)[field]!, id: last.id };
  }
}
