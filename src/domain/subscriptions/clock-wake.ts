// Test clocks (issue 28): an advance wakes only the clock's subscriptions that have something due
// by the new time (notifyClockSubscriptions reads `clock_wake_at`), so its work grows with the
// subscriptions that bill, not with all of the clock's. Every activity that hands the workflow a
// view of a clock subscription records that view's next step here; a command clears it before it
// is sent (the subscription is then woken until its workflow records it again). docs/test-clocks.md.
//
// Off the hot path: the view carries the stored value (`clockWakeAt`), so recording compares in
// memory and writes only when the time changed; a renewal that ends by acknowledging the clock
// writes it in that acknowledgement's UPDATE (markClockSynced), so a renewal on a clock costs no
// statement for it. The clock time a command applies at (commandTimeOnClock) is read only for a
// subscription on a clock: the workflow passes its view's `testClockId` with the command, and a
// subscription without a clock applies at the workflow's time with no query. The clock's time is
// read when the command is applied, not passed from the API: between the request and the
// activity an advance may have moved the clock, and the activity's read is the one that holds.
import type { Db } from '../../db/client';
import type { SubscriptionRef, SubscriptionView } from '../../contracts/subscriptions';
import { nextStep } from '../../contracts/subscription-schedule';

/** clock_wake_at of a subscription with nothing scheduled (only a command can give it a step, and a command clears it first). */
const NEVER = new Date('9999-12-31T00:00:00.000Z');

/**
 * The clock time from which a clock subscription has something due, as the view says (the
 * schedule with trial notices: the earliest it can be). A view whose next step is due at once
 * (a draft invoice) gives null: woken by every advance.
 */
export function clockWakeOf(v: SubscriptionView): Date | null {
  const step = nextStep(v, { trialNotices: true });
  return step === null ? NEVER : Number.isFinite(step.at) ? new Date(step.at) : null;
}

/** True when the view's stored clock_wake_at (read with it) already is `wake`: nothing to write. */
function storedWakeIs(v: SubscriptionView, wake: Date | null): boolean {
  if (v.clockWakeAt === undefined) return false;
  return (v.clockWakeAt === null ? null : Date.parse(v.clockWakeAt)) === (wake === null ? null : wake.getTime());
}

/**
 * Records the view's wake time (clockWakeOf) for a clock subscription, and returns the view with
 * it. Writes only when it differs from the value read with the view; a value the view does not
 * carry is written under an IS DISTINCT FROM guard.
 */
export async function recordClockWake(db: Db, ref: SubscriptionRef, v: SubscriptionView | null): Promise<SubscriptionView | null> {
  if (v === null || v.testClockId === null) return v;
  const wake = clockWakeOf(v);
  if (storedWakeIs(v, wake)) return v;
  await db.$executeRaw`UPDATE subscriptions SET clock_wake_at = ${wake}::timestamptz
    WHERE id = ${ref.subscriptionId} AND merchant_id = ${ref.merchantId} AND mode = ${ref.mode}::"Mode" AND clock_wake_at IS DISTINCT FROM ${wake}::timestamptz`;
  return { ...v, clockWakeAt: wake === null ? null : wake.toISOString() };
}

/**
 * The time a command (or a manual pay) applies at. Without a test clock (`testClockId` null, as
 * the workflow's view says): `now`, with no query. On a test clock that is ready: the clock's
 * time, when later than the workflow's (a subscription with nothing due is not told of an
 * advance). While the clock advances (a command that raced an advance): the workflow's.
 * `testClockId` undefined (an input from a workflow run before it was passed): read as on a clock.
 */
export async function commandTimeOnClock(db: Db, ref: SubscriptionRef & { testClockId?: string | null }, now: string): Promise<string> {
  if (ref.testClockId === null) return now;
  const rows = await db.$queryRaw<Array<{ t: Date }>>`
    SELECT c.frozen_time AS t FROM subscriptions s JOIN test_clocks c ON c.id = s.test_clock_id AND c.merchant_id = s.merchant_id
    WHERE s.id = ${ref.subscriptionId} AND s.merchant_id = ${ref.merchantId} AND s.mode = ${ref.mode}::"Mode" AND c.status = 'ready' AND c.deleted_at IS NULL`;
  const t = rows[0]?.t;
  return t && t.getTime() > Date.parse(now) ? t.toISOString() : now;
}
