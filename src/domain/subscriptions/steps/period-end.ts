// The end of a subscription's current period (or trial), in one transaction with the row locked:
//   trial end            → first paid period opens; its invoice bills licensed items in advance
//                          (trial usage is free), status trialing → active;
//   renewal              → the invoice at the boundary bills metered usage of the closing period
//                          in arrears and licensed items of the opening period in advance;
//   cancel at period end → a final invoice for the closing period's usage (no licensed line),
//                          status canceled, ended_at = the period end, subscription.canceled;
//   paused / unpaid      → the period rolls on without an invoice (billing stops; usage of the
//                          period is not billed).
// Idempotent: the step names the period end it is for, and does nothing when the row has moved
// past it (a retried activity, or a repeated step); the invoice's period_key backs it in the DB.
//
// With `finalizeRenewal` (the workflow's one-activity renewal, activities/subscriptions.ts), a
// renewal's new invoice is finalized in the same transaction: the step the schedule would run
// next anyway (a draft is due at once), without a second transaction, a lock of the invoice it
// just wrote, or a read of the view in between. The finalizing statement also rolls the period and
// returns the view, and stays the transaction's last (it takes the merchant's invoice-number
// counter row, locked until commit). The finalization is its own step still
// (./finalize-invoice.ts finalizeDraftInvoice), with its own events.
import type { Db } from '../../../db/client';
import { scopedDb, type Tenant } from '../../../db/tenancy';
import type { RecordedEvent } from '../../../events';
import { periodContaining, type BillingInterval } from '../../../billing';
import type { PeriodEndInput, SubscriptionView } from '../../../contracts/subscriptions';
import { Prisma, type Subscription } from '../../../generated/prisma/client';
import { buildSubscriptionInvoice, type BuildInvoiceInput } from '../build-invoice';
import { lockedSubscription, STEP_TX } from '../lock-subscription';
import { recordSubscriptionEvent } from '../subscription-events';
import { updateAndLoadView } from '../subscription-view';
import { finalizeDraftInvoice } from './finalize-invoice';

export interface PeriodEndOutcome {
  done: 'trial_end' | 'renewal' | 'canceled' | 'rolled' | 'nothing';
  invoiceId: string | null;
  events: RecordedEvent[];
  /** The subscription's view after a renewal, read in the statement that rolls the period (no read after commit needed). */
  view?: SubscriptionView | null;
  /** With `finalizeRenewal`: the events of the renewal invoice's finalization, when it was finalized here. */
  finalized?: RecordedEvent[];
}

export interface PeriodEndOptions {
  /** Finalize the renewal's new invoice in the period end's transaction (see the header). */
  finalizeRenewal?: boolean;
}

/**
 * The invoice the end of the current period builds, or null when it builds none (canceled,
 * paused, unpaid, or a trialing subscription set to cancel). Used by runPeriodEnd and by the
 * dashboard's next-invoice preview, so both bill the same periods.
 */
export function periodEndInvoiceInput(sub: Subscription): BuildInvoiceInput | null {
  if (sub.status === 'canceled') return null;
  const closing = { start: sub.currentPeriodStart, end: sub.currentPeriodEnd };
  const boundary = sub.currentPeriodEnd;
  const base = { subscription: sub, billingReason: 'subscription_cycle' as const, keyPart: boundary.toISOString(), discountBoundary: boundary, pendingScope: 'customer' as const };
  if (sub.cancelAtPeriodEnd) {
    return sub.status === 'active' || sub.status === 'past_due' ? { ...base, period: closing, openingPeriod: null, closingPeriod: closing } : null;
  }
  if (sub.status === 'paused' || sub.status === 'unpaid') return null;
  const next = periodContaining(sub.billingCycleAnchor, sub.interval as BillingInterval, sub.intervalCount, boundary);
  const opening = { start: next.start, end: next.end };
  // Usage during a trial is free: the first paid invoice has no closing period.
  return { ...base, period: opening, openingPeriod: opening, closingPeriod: sub.status === 'trialing' ? null : closing };
}

export async function runPeriodEnd(db: Db, input: PeriodEndInput, opts: PeriodEndOptions = {}): Promise<PeriodEndOutcome> {
  const tenant: Tenant = { merchantId: input.merchantId, mode: input.mode };
  const scoped = scopedDb(db, tenant);
  return scoped.$transaction(async (tx) => {
    const sub = await lockedSubscription(tx, tenant, input.subscriptionId);
    const nothing: PeriodEndOutcome = { done: 'nothing', invoiceId: null, events: [] };
    if (!sub || sub.status === 'canceled' || sub.currentPeriodEnd.toISOString() !== input.periodEnd) return nothing;
    const boundary = sub.currentPeriodEnd;
    const next = periodContaining(sub.billingCycleAnchor, sub.interval as BillingInterval, sub.intervalCount, boundary);
    const opening = { start: next.start, end: next.end };
    const events: RecordedEvent[] = [];

    if (sub.cancelAtPeriodEnd) {
      let invoiceId: string | null = null;
      const plan = periodEndInvoiceInput(sub);
      if (plan) {
        const built = await buildSubscriptionInvoice(tx, tenant, { ...plan, issuedAt: new Date(input.now) });
        invoiceId = built?.invoice.id ?? null;
      }
      const updated = await tx.subscription.update({
        where: { id: sub.id },
        data: { status: 'canceled', endedAt: boundary, canceledAt: sub.canceledAt ?? boundary, pausedAt: null, statusBeforePause: null },
      });
      events.push(await recordSubscriptionEvent(tx, tenant, 'subscription.canceled', updated));
      return { done: 'canceled', invoiceId, events };
    }

    if (sub.status === 'paused' || sub.status === 'unpaid') {
      const trialOver = sub.statusBeforePause === 'trialing' && sub.trialEnd !== null && sub.trialEnd <= boundary;
      await tx.subscription.update({
        where: { id: sub.id },
        data: { currentPeriodStart: opening.start, currentPeriodEnd: opening.end, ...(trialOver ? { statusBeforePause: 'active' } : {}) },
      });
      return { done: 'rolled', invoiceId: null, events };
    }

    const trialEnd = sub.status === 'trialing';
    const built = await buildSubscriptionInvoice(tx, tenant, { ...periodEndInvoiceInput(sub)!, issuedAt: new Date(input.now) });
    if (!trialEnd) {
      // A renewal: the period rolls (raw SQL, filtered by merchant and mode; updated_at moves as
      // the model's @updatedAt would) and the view is read back in the same statement.
      const roll = Prisma.sql`UPDATE subscriptions SET current_period_start = ${opening.start}::timestamptz, current_period_end = ${opening.end}::timestamptz, updated_at = ${new Date()}::timestamptz
            WHERE id = ${sub.id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" RETURNING *`;
      const invoiceId = built?.invoice.id ?? null;
      if (opts.finalizeRenewal && built?.created && built.lines && built.invoice.status === 'draft') {
        // The invoice's finalization rolls the period too, in its statement (the transaction's last).
        const ref = { subscriptionId: sub.id, merchantId: tenant.merchantId, mode: tenant.mode };
        const fin = await finalizeDraftInvoice(tx, tenant, built.invoice, built.lines, new Date(input.now), { ref, update: roll });
        return { done: 'renewal', invoiceId, events, view: fin.view ?? null, finalized: fin.events };
      }
      return { done: 'renewal', invoiceId, events, view: await updateAndLoadView(tx, roll) };
    }
    const updated = await tx.subscription.update({
      where: { id: sub.id },
      data: { currentPeriodStart: opening.start, currentPeriodEnd: opening.end, ...(trialEnd ? { status: 'active' } : {}) },
    });
    if (trialEnd) events.push(await recordSubscriptionEvent(tx, tenant, 'subscription.updated', updated));
    return { done: trialEnd ? 'trial_end' : 'renewal', invoiceId: built?.invoice.id ?? null, events };
  }, STEP_TX);
}
