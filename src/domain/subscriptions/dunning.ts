// The collection schedule of subscription invoices (docs/subscriptions.md "Dunning"), pure:
// time is always a parameter (the subscription's time: wall time or its test clock's).
//
// charge_automatically: attempt 1 when the invoice is finalized; after a failed attempt the next
// one follows DUNNING_RETRY_DELAYS_DAYS later (3, then 5, then 7 days: attempts on days 0, 3, 8
// and 15). A failed attempt makes the subscription past_due; when the 4th fails the invoice
// becomes uncollectible and the subscription unpaid.
// send_invoice: a bank claim due days_until_due days after finalization, checked on its due date
// and then every CLAIM_RECHECK_DAYS day; overdue (unpaid after the due date) makes the
// subscription past_due; the claim expires CLAIM_EXPIRY_DAYS after the due date, and an expired
// claim makes the invoice uncollectible and the subscription unpaid.
import type { SubscriptionStatus } from '../../contracts/subscriptions';

const DAY_MS = 86_400_000;

export const DUNNING_RETRY_DELAYS_DAYS: readonly number[] = [3, 5, 7];
export const MAX_CHARGE_ATTEMPTS = DUNNING_RETRY_DELAYS_DAYS.length + 1;
export const CLAIM_RECHECK_DAYS = 1;
export const CLAIM_EXPIRY_DAYS = 30;
/** days_until_due when a send_invoice subscription does not say. */
export const DEFAULT_DAYS_UNTIL_DUE = 14;

/** When the next automatic attempt is due after `attemptsMade` failed attempts, the last at `lastAttemptAt`; null: none left. */
export function nextChargeAttemptAt(lastAttemptAt: Date, attemptsMade: number): Date | null {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade must be a positive integer, got ${attemptsMade}`);
  const delay = DUNNING_RETRY_DELAYS_DAYS[attemptsMade - 1];
  return delay === undefined ? null : new Date(lastAttemptAt.getTime() + delay * DAY_MS);
}

export function claimDueDate(finalizedAt: Date, daysUntilDue: number): Date {
  return new Date(finalizedAt.getTime() + daysUntilDue * DAY_MS);
}

export function claimExpiresAt(dueDate: Date): Date {
  return new Date(dueDate.getTime() + CLAIM_EXPIRY_DAYS * DAY_MS);
}

/** The next check of an open claim read at `now`: its due date, then daily, never after expiry; null once expired. */
export function nextClaimCheckAt(now: Date, dueDate: Date, expiresAt: Date): Date | null {
  if (now.getTime() >= expiresAt.getTime()) return null;
  if (now.getTime() < dueDate.getTime()) return dueDate;
  return new Date(Math.min(now.getTime() + CLAIM_RECHECK_DAYS * DAY_MS, expiresAt.getTime()));
}

export interface CollectionSituation {
  /** Some invoice of the subscription is uncollectible (dunning exhausted, claim expired) and unpaid. */
  uncollectible: boolean;
  /** Some open invoice has a failed charge attempt, an overdue claim, or no claim (refused). */
  overdue: boolean;
}

/**
 * The subscription status after its invoices changed (a payment, a failure, a void). Only the
 * billing-driven states move: trialing, paused and canceled are left as they are.
 */
export function statusAfterCollection(current: SubscriptionStatus, s: CollectionSituation): SubscriptionStatus {
  if (current !== 'active' && current !== 'past_due' && current !== 'unpaid') return current;
  if (s.uncollectible) return 'unpaid';
  if (s.overdue) return 'past_due';
  return 'active';
}
