// What each invoice event posts (docs/ledger.md). Each function runs inside the transaction that
// changes the invoice, with the invoice as it was BEFORE the change where that matters.
//
//   finalized      Dr accounts_receivable total · Cr revenue[:code] net per line · Dr discounts
//                  (discount lines, net) · Cr vat_payable:<rate> VAT per rate
//   paid           Dr card_clearing | bank_claim_clearing · Cr accounts_receivable
//                  (an invoice written off earlier is first put back: write_off_reversed)
//   written off    Dr bad_debt · Cr accounts_receivable (uncollectible; VAT stays payable)
//   voided         the exact reverse of the finalized posting (after reversing a write-off)
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, InvoiceLine } from '../../generated/prisma/client';
import { ACCOUNTS, clearingAccount, postLedger, vatPayableAccount, type LedgerMovement, type PaymentMethodKind } from './post-ledger';

type InvoiceHead = Pick<Invoice, 'id' | 'customerId' | 'paymentId' | 'currency' | 'total' | 'amountDue' | 'amountPaid' | 'vatAmount' | 'pricesIncludeVat' | 'status'>;
type LineFields = Pick<InvoiceLine, 'kind' | 'amount' | 'vatAmount' | 'vatRate' | 'ledgerAccount'>;

/** A line's amount without VAT (lines are priced with or without VAT, as the invoice says). */
export function lineNet(line: LineFields, pricesIncludeVat: boolean): bigint {
  return pricesIncludeVat ? line.amount - line.vatAmount : line.amount;
}

export function finalizedMovements(invoice: InvoiceHead, lines: readonly LineFields[]): LedgerMovement[] {
  if (invoice.total <= 0n) return []; // a credit invoice moves nothing: its credit is carried to the next invoice
  const movements: LedgerMovement[] = [{ account: ACCOUNTS.receivable, amount: invoice.total }];
  for (const line of lines) {
    const net = lineNet(line, invoice.pricesIncludeVat);
    const rate = line.vatRate ?? null;
    if (line.kind === 'discount') movements.push({ account: ACCOUNTS.discounts, amount: -net, vatRate: rate });
    else movements.push({ account: line.ledgerAccount ?? ACCOUNTS.revenue, amount: -net, vatRate: rate });
    if (line.vatAmount !== 0n && rate !== null) movements.push({ account: vatPayableAccount(rate), amount: -line.vatAmount, vatRate: rate });
  }
  return movements;
}

function base(invoice: InvoiceHead) {
  return { invoiceId: invoice.id, customerId: invoice.customerId, currency: invoice.currency };
}

/** Invoice finalized (open, or paid at once when its total is 0). */
export async function postInvoiceFinalized(db: TenantDb, tenant: Tenant, invoice: InvoiceHead, occurredAt: Date, lines?: readonly LineFields[]): Promise<void> {
  const ls = lines ?? (await db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } }));
  await postLedger(db, tenant, { kind: 'invoice_finalized', sourceId: invoice.id, ...base(invoice), amount: invoice.total, occurredAt, movements: finalizedMovements(invoice, ls) });
}

async function reverseWriteOff(db: TenantDb, tenant: Tenant, before: InvoiceHead, occurredAt: Date): Promise<void> {
  if (before.status !== 'uncollectible') return;
  const open = before.amountDue - before.amountPaid;
  await postLedger(db, tenant, {
    kind: 'write_off_reversed',
    sourceId: before.id,
    ...base(before),
    amount: open,
    occurredAt,
    movements: [
      { account: ACCOUNTS.receivable, amount: open },
      { account: ACCOUNTS.badDebt, amount: -open },
    ],
  });
}

/** Invoice paid: `before` is the invoice before the change; `amount` what was collected now. */
export async function postInvoicePaid(
  db: TenantDb,
  tenant: Tenant,
  before: InvoiceHead,
  paid: { method: PaymentMethodKind; amount: bigint; paymentId?: string | null; occurredAt: Date },
): Promise<void> {
  await reverseWriteOff(db, tenant, before, paid.occurredAt);
  await postLedger(db, tenant, {
    kind: 'invoice_paid',
    sourceId: before.id,
    ...base(before),
    paymentId: paid.paymentId ?? before.paymentId,
    amount: paid.amount,
    method: paid.method,
    occurredAt: paid.occurredAt,
    movements: [
      { account: clearingAccount(paid.method), amount: paid.amount },
      { account: ACCOUNTS.receivable, amount: -paid.amount },
    ],
  });
}

/** Invoice marked uncollectible: its unpaid amount leaves receivables as bad debt. */
export async function postInvoiceWrittenOff(db: TenantDb, tenant: Tenant, before: InvoiceHead, occurredAt: Date): Promise<void> {
  if (before.status === 'uncollectible') return;
  const open = before.amountDue - before.amountPaid;
  await postLedger(db, tenant, {
    kind: 'invoice_written_off',
    sourceId: before.id,
    ...base(before),
    amount: open,
    occurredAt,
    movements: [
      { account: ACCOUNTS.badDebt, amount: open },
      { account: ACCOUNTS.receivable, amount: -open },
    ],
  });
}

/** Invoice voided (from open or uncollectible): the finalized posting is reversed exactly. */
export async function postInvoiceVoided(db: TenantDb, tenant: Tenant, before: InvoiceHead, occurredAt: Date): Promise<void> {
  if (before.status !== 'open' && before.status !== 'uncollectible') return;
  const finalized = await db.ledgerPosting.findFirst({ where: { sourceKey: `invoice_finalized:${before.id}` }, include: { entries: true } });
  if (!finalized) return;
  await reverseWriteOff(db, tenant, before, occurredAt);
  await postLedger(db, tenant, {
    kind: 'invoice_voided',
    sourceId: before.id,
    ...base(before),
    amount: finalized.amount,
    occurredAt,
    movements: finalized.entries.map((e) => ({ account: e.account, amount: e.credit - e.debit, vatRate: e.vatRate })),
  });
}
