// Finalizing and collecting subscription invoices (the workflow's invoice steps). Outside
// systems are called OUTSIDE our transactions and always with a key derived from the invoice,
// so a step that runs twice asks the same question twice and gets the same answer:
//   charge attempt n → acquirer key `${invoiceId}:attempt:${n}`;
//   bank claim       → key `${invoiceId}:claim`.
// Then one transaction records the outcome, and does nothing if the attempt was already
// recorded. Dunning and claim schedules: ./dunning.ts (docs/subscriptions.md).
//
// Refusals are outcomes, never failures: an outside system's "no" that retrying will not change
// (the bank refuses the claim, the payer's account is closed, the acquirer rejects the request,
// live mode has no adapter) is recorded on the invoice (`last_payment_error`, automatic
// collection stopped), moves the subscription to past_due and sends invoice.payment_failed;
// the workflow carries on with its next step. Only transient trouble (GatewayUnavailable) and
// our own bugs are thrown, and the activity retries them (docs/subscriptions.md "Refusals").
import type { Db } from '../../db/client';
import { scopedDb, type Tenant, type TenantDb } from '../../db/tenancy';
import { Prisma, type Invoice, type InvoiceLine, type Payment } from '../../generated/prisma/client';
import { datingEventsAt, eventsInsertCte, prepareEvent, recordEvent, recordedEvents, writtenEventsJson, type PreparedEvent, type RecordedEvent } from '../../events';
import { newId } from '../../ids';
import { camelRow, jsonRow, jsonRows } from '../../db/raw-rows';
import { gatewayRefusal, GatewayUnavailableError, type ChargeResult, type GatewayRefusal, type ModeGateways } from '../../gateways';
import type { ChargeStepInput, InvoiceStepInput, SubscriptionRef, SubscriptionView } from '../../contracts/subscriptions';
import { presentInvoice } from '../../objects/invoices';
import { presentPayment } from '../../objects/payments';
import { invoiceNumberSql } from '../invoices/invoice-number';
import { claimDueDate, claimExpiresAt, DEFAULT_DAYS_UNTIL_DUE, nextChargeAttemptAt, nextClaimCheckAt } from './dunning';
import { applyCollectionSituation, collectionSituationSql, refreshCollectionStatus, type CollectionSituationRow } from './collection-status';
import { STEP_TX } from './lock-subscription';
import { VIEW_INVOICE_COLUMNS, viewFromJson, viewJsonSql } from './subscription-view';
import { invoiceFinalizedPosting, invoicePaidPostings, invoiceWrittenOffPostings, postInvoicePaid, postInvoiceWrittenOff } from '../ledger/invoice-postings';
import { postingsCtes, type PostingInput } from '../ledger/post-ledger';
import { formatCalendarDay } from '../../billing/calendar-day';

export interface StepOutcome {
  events: RecordedEvent[];
  /**
   * The subscription's view after the step, read in the step's own last statement when it could
   * be (a charge attempt that left the subscription's status alone; a finalization with a write of
   * its subscription alongside); otherwise undefined, and the caller reads it after commit.
   */
  view?: SubscriptionView | null;
}

/** What the steps that call an outside system need: the root client (never a transaction) and the gateways. */
export interface BillingStepDeps {
  db: Db;
  gateways: ModeGateways;
}

function tenantOf(input: InvoiceStepInput): Tenant {
  return { merchantId: input.merchantId, mode: input.mode };
}

/** Locks the invoice and reads it, in one statement (src/db/raw-rows.ts). */
async function lockInvoice(tx: TenantDb, tenant: Tenant, id: string): Promise<Invoice | null> {
  const rows = await tx.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM invoices
    WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
  return rows[0] ? camelRow<Invoice>(rows[0]) : null;
}

/**
 * Locks the invoice and reads it with its lines and its payment (if any), in one statement: what
 * a finalization or a charge outcome needs before it writes (src/db/raw-rows.ts jsonRows).
 */
async function lockInvoiceForStep(tx: TenantDb, tenant: Tenant, id: string): Promise<{ invoice: Invoice; lines: InvoiceLine[]; payment: Payment | null } | null> {
  const rows = await tx.$queryRaw<Array<Record<string, unknown>>>`SELECT i.*,
      (SELECT json_agg(to_jsonb(l) ORDER BY l.position) FROM invoice_lines l
        WHERE l.merchant_id = i.merchant_id AND l.mode = i.mode AND l.invoice_id = i.id) AS step_lines,
      (SELECT to_jsonb(p) FROM payments p WHERE p.merchant_id = i.merchant_id AND p.mode = i.mode AND p.id = i.payment_id) AS step_payment
    FROM invoices i
    WHERE i.id = ${id} AND i.merchant_id = ${tenant.merchantId} AND i.mode = ${tenant.mode}::"Mode" FOR UPDATE`;
  const row = rows[0];
  if (!row) return null;
  const { step_lines: lines, step_payment: payment, ...invoice } = row;
  return {
    invoice: camelRow<Invoice>(invoice),
    lines: jsonRows<InvoiceLine>('InvoiceLine', lines as Array<Record<string, unknown>> | null),
    payment: jsonRow<Payment | null>('Payment', (payment ?? null) as Record<string, unknown> | null),
  };
}

/** The statement's WITH clause: the parts that are there, comma-separated. */
function withClause(parts: Array<Prisma.Sql | null>): Prisma.Sql {
  return Prisma.join(
    parts.filter((p): p is Prisma.Sql => p !== null),
    ',',
  );
}

async function invoiceEvent(
  tx: TenantDb,
  tenant: Tenant,
  type: 'invoice.finalized' | 'invoice.paid' | 'invoice.payment_failed' | 'invoice.updated',
  inv: Invoice,
  known?: InvoiceLine[],
): Promise<RecordedEvent> {
  const lines = known ?? (await tx.invoiceLine.findMany({ where: { invoiceId: inv.id }, orderBy: { position: 'asc' } }));
  return recordEvent(tx, tenant, { type, data: presentInvoice(inv, lines) });
}

/** The columns that record a failed collection attempt on the invoice (API `last_payment_error`). */
function paymentError(refusal: GatewayRefusal, now: Date) {
  return { lastPaymentErrorCode: refusal.code, lastPaymentErrorMessage: refusal.message, lastPaymentErrorAt: now };
}

/**
 * A send_invoice invoice that cannot be collected automatically (no claim could be issued, or
 * the bank dropped it): recorded once per attempt, with the invoice locked. The invoice stays
 * open and waits for the merchant (fix the customer and pay by hand, or void).
 */
async function recordClaimRefusal(db: Db, tenant: Tenant, invoiceId: string, attempt: number, refusal: GatewayRefusal, now: Date, dropClaim: boolean): Promise<StepOutcome> {
  return scopedDb(db, tenant).$transaction(async (tx) => {
    const events: RecordedEvent[] = [];
    const locked = await lockInvoice(tx, tenant, invoiceId);
    if (!locked || locked.status !== 'open' || locked.attemptCount >= attempt) return { events };
    if (dropClaim) await tx.invoiceBankClaim.deleteMany({ where: { invoiceId } });
    const updated = await tx.invoice.update({
      where: { id: locked.id },
      data: { attemptCount: attempt, nextPaymentAttemptAt: null, ...paymentError(refusal, now) },
    });
    events.push(await invoiceEvent(tx, tenant, 'invoice.payment_failed', updated));
    await afterInvoiceChange(tx, tenant, updated, now, events);
    return { events };
  }, STEP_TX);
}

/** The bank-claim idempotency key of claim attempt n (the first keeps the original form). */
export function claimKey(invoiceId: string, attempt: number): string {
  return attempt <= 1 ? `${invoiceId}:claim` : `${invoiceId}:claim:${attempt}`;
}

async function afterInvoiceChange(tx: TenantDb, tenant: Tenant, inv: Invoice, now: Date, events: RecordedEvent[]): Promise<void> {
  if (!inv.subscriptionId) return;
  const sub = await tx.subscription.findFirst({ where: { id: inv.subscriptionId } });
  if (!sub) return;
  const r = await refreshCollectionStatus(tx, tenant, sub, now);
  events.push(...r.events);
}

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

/** A write of one subscription row (an UPDATE filtered by id, merchant and mode, `RETURNING *`) that a step's statement runs too. */
export interface SubscriptionWrite {
  ref: SubscriptionRef;
  update: Prisma.Sql;
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

/**
 * The invoice and its customer's default payment method (attached), in one statement: what a
 * charge attempt reads before it calls the acquirer.
 */
async function invoiceToCharge(
  db: TenantDb,
  tenant: Tenant,
  invoiceId: string,
): Promise<{ invoice: Invoice | null; paymentMethod: { id: string; acquirerToken: string | null } | null }> {
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`
    SELECT i.*, pm.id AS charge_pm_id, pm.acquirer_token AS charge_pm_token
    FROM invoices i
    LEFT JOIN customers c ON c.merchant_id = i.merchant_id AND c.mode = i.mode AND c.id = i.customer_id
    LEFT JOIN payment_methods pm ON pm.merchant_id = i.merchant_id AND pm.mode = i.mode AND pm.id = c.default_payment_method_id AND pm.detached_at IS NULL
    WHERE i.id = ${invoiceId} AND i.merchant_id = ${tenant.merchantId} AND i.mode = ${tenant.mode}::"Mode"`;
  const row = rows[0];
  if (!row) return { invoice: null, paymentMethod: null };
  const { charge_pm_id: pmId, charge_pm_token: pmToken, ...invoice } = row;
  return { invoice: camelRow<Invoice>(invoice), paymentMethod: pmId ? { id: pmId as string, acquirerToken: (pmToken as string | null) ?? null } : null };
}

/**
 * Charge attempt `attempt` of an open charge_automatically invoice with the customer's default
 * payment method. Success: invoice paid, payment.succeeded + invoice.paid. Decline: the invoice
 * stays open with the next attempt scheduled (or becomes uncollectible after the last one),
 * payment.failed + invoice.payment_failed; the subscription becomes past_due / unpaid.
 * A manual attempt (POST /v1/invoices/{id}/pay) counts as an attempt of the schedule.
 */
export async function chargeSubscriptionInvoice(deps: BillingStepDeps, input: ChargeStepInput): Promise<StepOutcome> {
  // Its events are dated at the step's time (the clock's on a test clock), whoever calls it.
  return datingEventsAt(new Date(input.now), () => chargeSubscriptionInvoiceAt(deps, input));
}

async function chargeSubscriptionInvoiceAt({ db, gateways }: BillingStepDeps, input: ChargeStepInput): Promise<StepOutcome> {
  const tenant = tenantOf(input);
  const now = new Date(input.now);
  const scoped = scopedDb(db, tenant);
  const { invoice: inv, paymentMethod: pm } = await invoiceToCharge(scoped, tenant, input.invoiceId);
  if (!inv || (inv.status !== 'open' && inv.status !== 'uncollectible') || inv.attemptCount >= input.attempt) return { events: [] };
  if (!input.manual && inv.status !== 'open') return { events: [] };

  let result: ChargeResult | { status: 'declined'; code: string; message: string; chargeId: null };
  if (!pm?.acquirerToken) {
    result = { status: 'declined', code: 'no_payment_method', message: 'The customer has no default payment method', chargeId: null };
  } else {
    try {
      result = await gateways.cardAcquirer(tenant.mode).charge({
        merchantId: tenant.merchantId,
        token: pm.acquirerToken,
        amount: Number(inv.amountDue - inv.amountPaid),
        currency: inv.currency,
        description: `Invoice ${inv.number ?? inv.id}`,
        idempotencyKey: `${inv.id}:attempt:${input.attempt}`,
      });
    } catch (err) {
      // Transient trouble: retry the activity with the same key. Anything else (an unusable
      // token, live mode without an acquirer) is a failed attempt, not a stuck workflow.
      if (err instanceof GatewayUnavailableError) throw err;
      const refusal = gatewayRefusal(err);
      if (refusal === null) throw err; // our bug or an unknown failure: retried, never recorded as the customer's
      result = { status: 'declined', ...refusal, chargeId: null };
    }
  }

  return scoped.$transaction(async (tx) => {
    const step = await lockInvoiceForStep(tx, tenant, inv.id);
    const locked = step?.invoice;
    if (!step || !locked || locked.attemptCount >= input.attempt || (locked.status !== 'open' && locked.status !== 'uncollectible')) return { events: [] };
    return recordChargeOutcome(tx, tenant, step, input.attempt, pm?.id ?? null, result, now);
  }, STEP_TX);
}

type ChargeOutcome = ChargeResult | { status: 'declined'; code: string; message: string; chargeId: null };

/**
 * The outcome of charge attempt `attempt`, with the invoice locked, in one statement: the payment
 * (made by the first attempt, updated by the next), the invoice, the ledger postings and the
 * events, and the subscription's collection situation read back; a second statement only when
 * the subscription's status changes (past_due, unpaid, active again).
 */
async function recordChargeOutcome(
  tx: TenantDb,
  tenant: Tenant,
  step: { invoice: Invoice; lines: InvoiceLine[]; payment: Payment | null },
  attempt: number,
  paymentMethodId: string | null,
  result: ChargeOutcome,
  now: Date,
): Promise<StepOutcome> {
  const locked = step.invoice;
  const wall = new Date();
  const succeeded = result.status === 'succeeded';
  const failed = succeeded ? null : (result as { code: string; message: string });
  const paymentData = {
    status: succeeded ? ('succeeded' as const) : ('failed' as const),
    attemptCount: attempt,
    paymentMethodId,
    acquirerChargeId: result.chargeId,
    failureCode: failed?.code ?? null,
    failureMessage: failed?.message ?? null,
    succeededAt: succeeded ? now : null,
  };
  if (locked.paymentId && !step.payment) throw new Error(`payment ${locked.paymentId} of invoice ${locked.id} is missing`);
  const payment: Payment = step.payment
    ? { ...step.payment, ...paymentData, updatedAt: wall }
    : {
        id: newId('payment'),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId: locked.customerId,
        amount: locked.amountDue - locked.amountPaid,
        currency: locked.currency,
        description: `Invoice ${locked.number ?? locked.id}`,
        amountRefunded: 0n,
        externalReference: null,
        metadata: {},
        canceledAt: null,
        attemptHeldUntil: null,
        // made by this attempt: dated at its time (the clock's on a test clock)
        createdAt: now,
        updatedAt: wall,
        ...paymentData,
      };
  const next = succeeded ? null : nextChargeAttemptAt(now, attempt);
  const updated: Invoice = succeeded
    ? { ...locked, status: 'paid', amountPaid: locked.amountDue, paidAt: now, attemptCount: attempt, nextPaymentAttemptAt: null, paymentId: payment.id, updatedAt: wall }
    : {
        ...locked,
        attemptCount: attempt,
        paymentId: payment.id,
        nextPaymentAttemptAt: next,
        ...paymentError(failed!, now),
        ...(next === null ? { status: 'uncollectible' as const, uncollectibleAt: locked.uncollectibleAt ?? now } : {}),
        updatedAt: wall,
      };
  const postings: PostingInput[] = succeeded
    ? invoicePaidPostings(locked, { method: 'card', amount: locked.amountDue - locked.amountPaid, paymentId: payment.id, occurredAt: now })
    : next === null
      ? invoiceWrittenOffPostings(locked, now)
      : [];
  const events: PreparedEvent[] = [
    prepareEvent(tenant, { type: succeeded ? 'payment.succeeded' : 'payment.failed', data: presentPayment(payment, locked.id) }),
    prepareEvent(tenant, { type: succeeded ? 'invoice.paid' : 'invoice.payment_failed', data: presentInvoice(updated, step.lines) }),
  ];
  const paymentSql = step.payment
    ? Prisma.sql`pay AS (
        UPDATE payments SET status = ${payment.status}::"PaymentStatus", attempt_count = ${payment.attemptCount}::int, payment_method_id = ${payment.paymentMethodId}::text,
               acquirer_charge_id = ${payment.acquirerChargeId}::text, failure_code = ${payment.failureCode}::text, failure_message = ${payment.failureMessage}::text,
               succeeded_at = ${payment.succeededAt}::timestamptz, updated_at = ${wall}::timestamptz
         WHERE id = ${payment.id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode")`
    : Prisma.sql`pay AS (
        INSERT INTO payments (id, merchant_id, mode, customer_id, amount, currency, description, status, amount_refunded, payment_method_id, external_reference, metadata,
                              attempt_count, acquirer_charge_id, failure_code, failure_message, succeeded_at, canceled_at, created_at, updated_at)
        VALUES (${payment.id}, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${payment.customerId}::text, ${payment.amount}::bigint, ${payment.currency}, ${payment.description}::text,
                ${payment.status}::"PaymentStatus", 0, ${payment.paymentMethodId}::text, NULL, '{}'::jsonb, ${payment.attemptCount}::int, ${payment.acquirerChargeId}::text,
                ${payment.failureCode}::text, ${payment.failureMessage}::text, ${payment.succeededAt}::timestamptz, NULL, ${now}::timestamptz, ${wall}::timestamptz))`;
  const invoiceSql = Prisma.sql`inv AS (
      UPDATE invoices SET status = ${updated.status}::"InvoiceStatus", amount_paid = ${updated.amountPaid}::bigint, paid_at = ${updated.paidAt}::timestamptz,
             attempt_count = ${updated.attemptCount}::int, next_payment_attempt_at = ${updated.nextPaymentAttemptAt}::timestamptz, payment_id = ${updated.paymentId}::text,
             last_payment_error_code = ${updated.lastPaymentErrorCode}::text, last_payment_error_message = ${updated.lastPaymentErrorMessage}::text,
             last_payment_error_at = ${updated.lastPaymentErrorAt}::timestamptz, uncollectible_at = ${updated.uncollectibleAt}::timestamptz, updated_at = ${wall}::timestamptz
       WHERE id = ${locked.id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode"
      RETURNING ${VIEW_INVOICE_COLUMNS})`;
  const situation = locked.subscriptionId
    ? collectionSituationSql(tenant, locked.subscriptionId, now, updated)
    : Prisma.sql`SELECT NULL::text AS status, false AS uncollectible, false AS overdue WHERE false`;
  const sub = locked.subscriptionId ? { subscriptionId: locked.subscriptionId, merchantId: tenant.merchantId, mode: tenant.mode } : null;
  const rows = await tx.$queryRaw<Array<{ written: Array<{ id: string; dispatched: boolean }> | null; view: unknown } & Partial<CollectionSituationRow>>>`
    WITH ${withClause([paymentSql, invoiceSql, postingsCtes(tenant, postings, 'chg'), eventsInsertCte(tenant, events, 'ev')])}
    SELECT ${writtenEventsJson('ev')} AS written, sit.status, sit.uncollectible, sit.overdue,
           ${sub ? viewJsonSql(sub, Prisma.sql`inv`) : Prisma.sql`NULL::json`} AS view
      FROM (SELECT 1) AS one LEFT JOIN (${situation}) AS sit ON true`;
  const row = rows[0]!;
  const recorded = recordedEvents(events, row.written ?? []);
  if (!sub || !row.status) return { events: recorded };
  const changed = await applyCollectionSituation(tx, tenant, sub.subscriptionId, row as CollectionSituationRow);
  recorded.push(...changed);
  // The view came from this statement unless the subscription's status changed after it.
  return { events: recorded, view: changed.length === 0 ? viewFromJson(row.view) : undefined };
}

/**
 * send_invoice: issues the bank claim (first step after finalizing), then reads it on each
 * check: paid → invoice paid; still open → next check (overdue after the due date makes the
 * subscription past_due); expired → uncollectible, subscription unpaid.
 */
export async function checkInvoiceBankClaim(deps: BillingStepDeps, input: InvoiceStepInput): Promise<StepOutcome> {
  // Its events are dated at the step's time (the clock's on a test clock), whoever calls it.
  return datingEventsAt(new Date(input.now), () => checkInvoiceBankClaimAt(deps, input));
}

async function checkInvoiceBankClaimAt({ db, gateways }: BillingStepDeps, input: InvoiceStepInput): Promise<StepOutcome> {
  const tenant = tenantOf(input);
  const now = new Date(input.now);
  const scoped = scopedDb(db, tenant);
  const inv = await scoped.invoice.findFirst({ where: { id: input.invoiceId } });
  if (!inv || inv.status !== 'open' || (inv.nextPaymentAttemptAt === null && input.force !== true)) return { events: [] };
  const bank = gateways.bankClaims(tenant.mode);
  const dueDate = inv.dueDate ?? now;
  const expiresAt = claimExpiresAt(dueDate);
  const row = await scoped.invoiceBankClaim.findFirst({ where: { invoiceId: inv.id } });

  if (!row) {
    const attempt = inv.attemptCount + 1;
    const customer = inv.customerId ? await scoped.customer.findFirst({ where: { id: inv.customerId } }) : null;
    if (!customer?.kennitala) {
      // Nothing to claim against (the kennitala was removed): the merchant must act.
      const refusal = {
        code: 'customer_kennitala_missing',
        message: 'No bank claim could be issued: the customer has no kennitala. Add one to the customer, then pay the invoice by hand.',
      };
      return recordClaimRefusal(db, tenant, inv.id, attempt, refusal, now, false);
    }
    let claim;
    try {
      claim = await bank.createClaim({
        merchantId: tenant.merchantId,
        kennitala: customer.kennitala,
        amount: Number(inv.amountDue),
        currency: inv.currency,
        dueDate,
        expiresAt,
        reference: inv.number ?? inv.id,
        idempotencyKey: claimKey(inv.id, attempt),
        now,
      });
    } catch (err) {
      const refusal = gatewayRefusal(err);
      if (refusal === null) throw err; // transient (retried with the same key) or our bug
      return recordClaimRefusal(db, tenant, inv.id, attempt, refusal, now, false);
    }
    return scoped.$transaction(async (tx) => {
      const exists = await tx.invoiceBankClaim.findFirst({ where: { invoiceId: inv.id } });
      if (!exists) {
        await tx.invoiceBankClaim.create({
          data: { merchantId: tenant.merchantId, mode: tenant.mode, invoiceId: inv.id, claimId: claim.claimId, bankReference: claim.bankReference, dueDate, expiresAt },
        });
      }
      const locked = await lockInvoice(tx, tenant, inv.id);
      if (!locked || locked.status !== 'open') return { events: [] };
      return { events: await moveNextAttempt(tx, tenant, locked, nextClaimCheckAt(now, dueDate, expiresAt)) };
    }, STEP_TX);
  }

  let claim;
  try {
    claim = await bank.getClaim({ merchantId: tenant.merchantId, claimId: row.claimId, now });
  } catch (err) {
    const refusal = gatewayRefusal(err);
    if (refusal === null) throw err;
    // The claim is forgotten; should the bank still hold it, it is cancelled there first, so a
    // new claim (paying by hand) never stands beside an old one that could be paid too.
    try {
      await bank.cancelClaim({ merchantId: tenant.merchantId, claimId: row.claimId, idempotencyKey: `${inv.id}:claim:cancel`, now });
    } catch (cancelErr) {
      if (gatewayRefusal(cancelErr) === null) throw cancelErr; // transient: retry the step
    }
    return recordClaimRefusal(db, tenant, inv.id, inv.attemptCount + 1, refusal, now, true);
  }
  if (claim.status === 'cancelled') {
    // Cancelled by the bank, not by us (our void makes the invoice void first): the claim is gone.
    const refusal = {
      code: 'claim_cancelled',
      message: `The bank cancelled the claim ${row.bankReference}; it can no longer be paid. Pay the invoice by hand to issue a new claim, or void it.`,
    };
    return recordClaimRefusal(db, tenant, inv.id, inv.attemptCount + 1, refusal, now, true);
  }
  return scoped.$transaction(async (tx) => {
    const events: RecordedEvent[] = [];
    const locked = await lockInvoice(tx, tenant, inv.id);
    if (!locked || locked.status !== 'open') return { events };
    let updated: Invoice;
    if (claim.status === 'paid') {
      updated = await tx.invoice.update({
        where: { id: locked.id },
        data: { status: 'paid', amountPaid: locked.amountDue, paidAt: claim.paidAt ?? now, nextPaymentAttemptAt: null },
      });
      await postInvoicePaid(tx, tenant, locked, { method: 'bank_claim', amount: locked.amountDue - locked.amountPaid, occurredAt: claim.paidAt ?? now });
      events.push(await invoiceEvent(tx, tenant, 'invoice.paid', updated));
    } else if (claim.status === 'expired') {
      const refusal = { code: 'claim_expired', message: `The bank claim ${row.bankReference} expired unpaid on ${formatCalendarDay(row.expiresAt, 'en')}.` };
      updated = await tx.invoice.update({
        where: { id: locked.id },
        data: { status: 'uncollectible', uncollectibleAt: now, nextPaymentAttemptAt: null, ...paymentError(refusal, now) },
      });
      await postInvoiceWrittenOff(tx, tenant, locked, now);
      events.push(await invoiceEvent(tx, tenant, 'invoice.payment_failed', updated));
    } else {
      events.push(...(await moveNextAttempt(tx, tenant, locked, nextClaimCheckAt(now, row.dueDate, row.expiresAt))));
      updated = (await tx.invoice.findFirst({ where: { id: locked.id } })) ?? locked;
    }
    await afterInvoiceChange(tx, tenant, updated, now, events);
    return { events };
  }, STEP_TX);
}

/**
 * Moves an open invoice's next collection attempt (a bank claim's next check) and, when it
 * changes, records `invoice.updated` in the same transaction: next_payment_attempt never
 * changes without an event (docs/events.md).
 */
async function moveNextAttempt(tx: TenantDb, tenant: Tenant, locked: Invoice, next: Date | null): Promise<RecordedEvent[]> {
  if ((locked.nextPaymentAttemptAt?.getTime() ?? null) === (next?.getTime() ?? null)) return [];
  const updated = await tx.invoice.update({ where: { id: locked.id }, data: { nextPaymentAttemptAt: next } });
  return [await invoiceEvent(tx, tenant, 'invoice.updated', updated)];
}

/** After a void: cancel the invoice's bank claim (safe to repeat). */
export async function cancelInvoiceBankClaim(deps: Pick<BillingStepDeps, 'gateways'>, input: InvoiceStepInput & { claimId: string }): Promise<void> {
  await deps.gateways
    .bankClaims(input.mode)
    .cancelClaim({ merchantId: input.merchantId, claimId: input.claimId, idempotencyKey: `${input.invoiceId}:claim:cancel`, now: new Date(input.now) });
}
