// The billing step `charge_invoice`: charge attempt n of an open charge_automatically invoice.
// The acquirer is called OUTSIDE our transactions with the key `${invoiceId}:attempt:${n}`, so a
// step that runs twice asks the same question twice and gets the same answer; then one
// transaction records the outcome, and does nothing if the attempt was already recorded.
// A refusal (the acquirer declines, no usable card, live mode without an adapter) is an outcome,
// never a failure: only transient trouble (GatewayUnavailable) and our own bugs are thrown, and
// the activity retries them (docs/subscriptions.md "Refusals").
import { scopedDb, type Tenant, type TenantDb } from '../../../db/tenancy';
import { Prisma, type Invoice, type InvoiceLine, type Payment } from '../../../generated/prisma/client';
import { datingEventsAt, eventsInsertCte, prepareEvent, recordedEvents, writtenEventsJson, type PreparedEvent } from '../../../events';
import { newId } from '../../../ids';
import { gatewayRefusal, GatewayUnavailableError, type ChargeResult } from '../../../gateways';
import type { ChargeStepInput } from '../../../contracts/subscriptions';
import { presentInvoice } from '../../../objects/invoices';
import { presentPayment } from '../../../objects/payments';
import { nextChargeAttemptAt } from '../dunning';
import { applyCollectionSituation, collectionSituationSql, type CollectionSituationRow } from '../collection-status';
import { STEP_TX } from '../lock-subscription';
import { VIEW_INVOICE_COLUMNS, viewFromJson, viewJsonSql } from '../subscription-view';
import { invoicePaidPostings, invoiceWrittenOffPostings } from '../../ledger/invoice-postings';
import { postingsCtes, type PostingInput } from '../../ledger/post-ledger';
import { invoiceToCharge, lockInvoiceForStep, paymentError, tenantOf, withClause, type BillingStepDeps, type StepOutcome } from './step-sql';

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

  let result: ChargeOutcome;
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
