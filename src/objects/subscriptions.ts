// Subscriptions as the API (and subscription.* events) present them: flat, ids for related
// objects, ISO timestamps, items inline.
import type { Subscription, SubscriptionItem } from '../generated/prisma/client';
import { iso } from './iso';
import { presentSubscriptionItem } from './subscription-items';

interface StoredDiscount {
  amount_off?: number | null;
  percent_off?: number | null;
  duration: string;
  duration_in_months?: number | null;
}

export function presentDiscount(s: Subscription) {
  if (s.discount === null || s.discount === undefined) return null;
  const d = s.discount as unknown as StoredDiscount;
  return {
    amount_off: d.amount_off ?? null,
    percent_off: d.percent_off ?? null,
    duration: d.duration,
    duration_in_months: d.duration_in_months ?? null,
    start: iso(s.discountStart),
  };
}

export function presentSubscription(s: Subscription, items: SubscriptionItem[]) {
  return {
    id: s.id,
    object: 'subscription',
    customer: s.customerId,
    status: s.status,
    collection_method: s.collectionMethod,
    days_until_due: s.daysUntilDue,
    currency: s.currency,
    billing_cycle_anchor: iso(s.billingCycleAnchor),
    start_date: iso(s.startDate),
    current_period_start: iso(s.currentPeriodStart),
    current_period_end: iso(s.currentPeriodEnd),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    canceled_at: iso(s.canceledAt),
    ended_at: iso(s.endedAt),
    trial_start: iso(s.trialStart),
    trial_end: iso(s.trialEnd),
    pause_collection: s.pausedAt ? { behavior: 'void', paused_at: iso(s.pausedAt) } : null,
    discount: presentDiscount(s),
    items: items.map(presentSubscriptionItem),
    test_clock: s.testClockId,
    metadata: (s.metadata ?? {}) as Record<string, string>,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}
export type SubscriptionJson = ReturnType<typeof presentSubscription>;
