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
import { ACCOUNTS, clearingAccount, postLedger, vatPayableAccount, type LedgerMovement, type PaymentMethodKind, type PostingInput } from './post-ledger';

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
export function invoiceFinalizedPosting(invoice: InvoiceHead, occurredAt: Date, lines: readonly LineFields[]): PostingInput {
  return { kind: 'invoice_finalized', sourceId: invoice.id, ...base(invoice), amount: invoice.total, occurredAt, movements: finalizedMovements(invoice, lines) };
}

export async function postInvoiceFinalized(db: TenantDb, tenant: Tenant, invoice: InvoiceHead, occurredAt: Date, lines?: readonly LineFields[]): Promise<void> {
  const ls = lines ?? (await db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } }));
  await postLedger(db, tenant, invoiceFinalizedPosting(invoice, occurredAt, ls));
}

/** The unpaid amount of an invoice moved between receivables and bad debt: written off, or put back. */
function badDebtPosting(kind: 'invoice_written_off' | 'write_off_reversed', before: InvoiceHead, occurredAt: Date): PostingInput {
  const open = before.amountDue - before.amountPaid;
  const [debit, credit] = kind === 'invoice_written_off' ? [ACCOUNTS.badDebt, ACCOUNTS.receivable] : [ACCOUNTS.receivable, ACCOUNTS.badDebt];
  return {
    kind,
    sourceId: before.id,
    ...base(before),
    amount: open,
    occurredAt,
    movements: [
      { account: debit, amount: open },
      { account: credit, amount: -open },
    ],
  };
}

function writeOffReversal(before: InvoiceHead, occurredAt: Date): PostingInput[] {
  if (before.status !== 'uncollectible') return [];
  return [badDebtPosting('write_off_reversed', before, occurredAt)];
}

async function reverseWriteOff(db: TenantDb, tenant: Tenant, before: InvoiceHead, occurredAt: Date): Promise<void> {
  for (const p of writeOffReversal(before, occurredAt)) await postLedger(db, tenant, p);
}

export interface InvoicePaidInput {
  method: PaymentMethodKind;
  amount: bigint;
  paymentId?: string | null;
  occurredAt: Date;
}

/** Invoice paid, in order: the write-off put back (when it was written off), then the payment. */
export function invoicePaidPostings(before: InvoiceHead, paid: InvoicePaidInput): PostingInput[] {
  return [
    ...writeOffReversal(before, paid.occurredAt),
    {
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
    },
  ];
}

/** Invoice paid: `before` is the invoice before the change; `amount` what was collected now. */
export async function postInvoicePaid(db: TenantDb, tenant: Tenant, before: InvoiceHead, paid: InvoicePaidInput): Promise<void> {
  for (const p of invoicePaidPostings(before, paid)) await postLedger(db, tenant, p);
}

/** Invoice marked uncollectible: its unpaid amount leaves receivables as bad debt. */
export function invoiceWrittenOffPostings(before: InvoiceHead, occurredAt: Date): PostingInput[] {
  if (before.status === 'uncollectible') return [];
  return [badDebtPosting('invoice_written_off', before, occurredAt)];
}

export async function postInvoiceWrittenOff(db: TenantDb, tenant: Tenant, before: InvoiceHead, occurredAt: Date): Promise<void> {
  for (const p of invoiceWrittenOffPostings(before, occurredAt)) await postLedger(db, tenant, p);
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
