// The billing step `finalize_invoice`: draft → open (numbered). Also run inside a renewal's
// period-end transaction (./period-end.ts) on the invoice it just built.
import type { Db } from '../../../db/client';
import { scopedDb, type Tenant, type TenantDb } from '../../../db/tenancy';
import { Prisma, type Invoice, type InvoiceLine } from '../../../generated/prisma/client';
import { datingEventsAt, eventsInsertCte, prepareEvent, recordedEvents, writtenEventsJson } from '../../../events';
import type { InvoiceStepInput } from '../../../contracts/subscriptions';
import { presentInvoice } from '../../../objects/invoices';
import { invoiceNumberSql } from '../../invoices/invoice-number';
import { claimDueDate, DEFAULT_DAYS_UNTIL_DUE } from '../dunning';
import { STEP_TX } from '../lock-subscription';
import { VIEW_INVOICE_COLUMNS, viewFromJson, viewJsonSql } from '../subscription-view';
import { invoiceFinalizedPosting } from '../../ledger/invoice-postings';
import { postingsCtes } from '../../ledger/post-ledger';
import { lockInvoiceForStep, tenantOf, withClause, type StepOutcome, type SubscriptionWrite } from './step-sql';

/**
 * draft → open (numbered): collection starts now (first charge attempt, or the bank claim); a
 * zero invoice is paid at once. Two statements: the invoice locked and read with its lines, then
 * one that posts to the ledger, takes the number, updates the invoice and writes its events.
 */
export async function finalizeSubscriptionInvoice(db: Db, input: InvoiceStepInput): Promise<StepOutcome> {
  const tenant = tenantOf(input);
  const stepTime = new Date(input.now);
  return scopedDb(db, tenant).$transaction(async (tx) => {
    const locked = await lockInvoiceForStep(tx, tenant, input.invoiceId);
    if (!locked || locked.invoice.status !== 'draft') return { events: [] };
    return finalizeDraftInvoice(tx, tenant, locked.invoice, locked.lines, stepTime);
  }, STEP_TX);
}

/**
 * Finalizes a draft invoice the transaction holds: locked by finalizeSubscriptionInvoice, or
 * written by the transaction itself (a renewal's invoice, finalized in its period end's
 * transaction: ./period-end.ts), so no other transaction can have seen or changed it. With
 * `alongside`, the finalizing statement also runs that write of the invoice's subscription and
 * returns the subscription's view after both.
 */
export function finalizeDraftInvoice(tx: TenantDb, tenant: Tenant, inv: Invoice, lines: InvoiceLine[], stepTime: Date, alongside?: SubscriptionWrite): Promise<StepOutcome> {
  // Never dated before the invoice was made: an item change's invoice (always_invoice) is
  // made at the change, which on a test clock can be later than the workflow's last step.
  const now = inv.createdAt.getTime() > stepTime.getTime() ? inv.createdAt : stepTime;
  return datingEventsAt(now, () => finalizeLocked(tx, tenant, inv, lines, now, alongside));
}

async function finalizeLocked(tx: TenantDb, tenant: Tenant, inv: Invoice, lines: InvoiceLine[], now: Date, alongside?: SubscriptionWrite): Promise<StepOutcome> {
  const sendInvoice = inv.collectionMethod === 'send_invoice';
  // Only a bank invoice needs the subscription (its days_until_due).
  const sub = inv.subscriptionId && sendInvoice ? await tx.subscription.findFirst({ where: { id: inv.subscriptionId } }) : null;
  const zero = inv.amountDue === 0n;
  const changes = {
    status: zero ? ('paid' as const) : ('open' as const),
    finalizedAt: now,
    ...(zero ? { paidAt: now, amountPaid: 0n } : {}),
    dueDate: sendInvoice ? claimDueDate(now, sub?.daysUntilDue ?? DEFAULT_DAYS_UNTIL_DUE) : null,
    nextPaymentAttemptAt: zero ? null : now,
  };
  // The number is taken in the statement (the counter row, locked by every finalization of the
  // merchant until commit: this statement is the transaction's last); the events' data is the
  // invoice as presented, with the number set by the statement.
  const open: Invoice = { ...inv, ...changes, number: null, updatedAt: new Date() };
  const events = [prepareEvent(tenant, { type: 'invoice.finalized', data: presentInvoice(open, lines) })];
  if (zero) events.push(prepareEvent(tenant, { type: 'invoice.paid', data: presentInvoice(open, lines) }));
  const posting = postingsCtes(tenant, [invoiceFinalizedPosting(open, now, lines)], 'fin');
  const rows = await tx.$queryRaw<Array<{ written: Array<{ id: string; dispatched: boolean }> | null; view: unknown }>>`
    WITH ${withClause([
      posting,
      Prisma.sql`num AS (
        INSERT INTO invoice_number_sequences (merchant_id, mode, next) VALUES (${tenant.merchantId}, ${tenant.mode}::"Mode", 2)
        ON CONFLICT (merchant_id, mode) DO UPDATE SET next = invoice_number_sequences.next + 1
        RETURNING ${invoiceNumberSql(Prisma.raw('next - 1'))} AS number
      )`,
      Prisma.sql`upd AS (
        UPDATE invoices SET number = num.number, status = ${changes.status}::"InvoiceStatus", finalized_at = ${now}::timestamptz,
               paid_at = ${changes.paidAt ?? inv.paidAt}::timestamptz, amount_paid = ${changes.amountPaid ?? inv.amountPaid}::bigint,
               due_date = ${changes.dueDate}::timestamptz, next_payment_attempt_at = ${changes.nextPaymentAttemptAt}::timestamptz, updated_at = ${open.updatedAt}::timestamptz
          FROM num
         WHERE invoices.id = ${inv.id} AND invoices.merchant_id = ${tenant.merchantId} AND invoices.mode = ${tenant.mode}::"Mode"
        RETURNING invoices.number, ${VIEW_INVOICE_COLUMNS}
      )`,
      eventsInsertCte(tenant, events, 'ev', Prisma.sql`jsonb_build_object('number', (SELECT number FROM upd))`),
      alongside ? Prisma.sql`sub_written AS (${alongside.update})` : null,
    ])}
    SELECT ${writtenEventsJson('ev')} AS written,
           ${alongside ? viewJsonSql(alongside.ref, Prisma.sql`upd`, Prisma.sql`sub_written`) : Prisma.sql`NULL::json`} AS view`;
  const row = rows[0]!;
  const recorded = recordedEvents(events, row.written ?? []);
  return alongside ? { events: recorded, view: viewFromJson(row.view) } : { events: recorded };
}
