// Test clocks (issue 28): an advance wakes only the clock's subscriptions that have something due
// by the new time (notifyClockSubscriptions reads `clock_wake_at`), so its work grows with the
// subscriptions that bill, not with all of the clock's. Every activity that hands the workflow a
// view of a clock subscription records that view's next step here; a command clears it before it
// is sent (the subscription is then woken until its workflow records it again). docs/test-clocks.md.
import type { Db } from '../../db/client';
import type { SubscriptionRef, SubscriptionView } from '../../contracts/subscriptions';
import { nextStep } from '../../contracts/subscription-schedule';

/** clock_wake_at of a subscription with nothing scheduled (only a command can give it a step, and a command clears it first). */
const NEVER = new Date('9999-12-31T00:00:00.000Z');

/**
 * Records the clock time from which a clock subscription has something due, as the view the
 * workflow continues with says (the schedule with trial notices: the earliest it can be). A
 * view whose next step is due at once (a draft invoice) records null: woken by every advance.
 */
export async function recordClockWake(db: Db, ref: SubscriptionRef, v: SubscriptionView | null): Promise<SubscriptionView | null> {
  if (v === null || v.testClockId === null) return v;
  const step = nextStep(v, { trialNotices: true });
  const wake = step === null ? NEVER : Number.isFinite(step.at) ? new Date(step.at) : null;
  await db.$executeRaw`UPDATE subscriptions SET clock_wake_at = ${wake}::timestamptz
    WHERE id = ${ref.subscriptionId} AND merchant_id = ${ref.merchantId} AND mode = ${ref.mode}::"Mode" AND clock_wake_at IS DISTINCT FROM ${wake}::timestamptz`;
  return v;
}

/**
 * The time a command (or a manual pay) applies at. On a test clock that is ready: the clock's
 * time, when later than the workflow's (a subscription with nothing due is not told of an
 * advance). While the clock advances (a command that raced an advance): the workflow's.
 */
export async function commandTimeOnClock(db: Db, ref: SubscriptionRef, now: string): Promise<string> {
  const rows = await db.$queryRaw<Array<{ t: Date }>>`
    SELECT c.frozen_time AS t FROM subscriptions s JOIN test_clocks c ON c.id = s.test_clock_id AND c.merchant_id = s.merchant_id
    WHERE s.id = ${ref.subscriptionId} AND s.merchant_id = ${ref.merchantId} AND s.mode = ${ref.mode}::"Mode" AND c.status = 'ready' AND c.deleted_at IS NULL`;
  const t = rows[0]?.t;
  return t && t.getTime() > Date.parse(now) ? t.toISOString() : now;
}
