// The subscription workflow's bookkeeping in the database: attached (the reconciler leaves the
// row alone), caught up with its test clock, ended (no longer follows the clock).
// Internal columns only, written with SQL so that `updated_at` (the merchant-visible "this
// subscription changed") does not move for bookkeeping that changes nothing the API shows.
import type { Db } from '../../db/client';
import type { ClockSyncInput, SubscriptionRef, SubscriptionView } from '../../contracts/subscriptions';
import { loadSubscriptionView } from './subscription-view';
import { workflowIds } from '../../temporal/workflow-ids';

/** The id of a subscription's workflow (what the dashboard links to in the Temporal Web UI). */
export function subscriptionWorkflowId(subscriptionId: string): string {
  return workflowIds.subscription(subscriptionId);
}

export async function attachWorkflow(db: Db, ref: SubscriptionRef, now: Date): Promise<SubscriptionView | null> {
  await db.$executeRaw`UPDATE subscriptions SET workflow_attached_at = ${now}
    WHERE id = ${ref.subscriptionId} AND merchant_id = ${ref.merchantId} AND mode = ${ref.mode}::"Mode" AND workflow_attached_at IS NULL`;
  return loadSubscriptionView(db, ref);
}

/** Records that the subscription has done everything due up to clockTime (never moves back). */
export async function recordClockSync(db: Db, input: ClockSyncInput): Promise<SubscriptionView | null> {
  await markClockSynced(db, input);
  return loadSubscriptionView(db, input);
}

/**
 * recordClockSync without reading the view back (the caller has it). With `wake` (the caller's
 * view's clockWakeOf, src/domain/subscriptions/clock-wake.ts) the same UPDATE records the clock
 * time of the next step too, so a renewal that acknowledges its clock writes the row once.
 */
export async function markClockSynced(db: Db, input: ClockSyncInput, wake?: { at: Date | null }): Promise<void> {
  const t = new Date(input.clockTime);
  if (wake === undefined) {
    await db.$executeRaw`UPDATE subscriptions SET clock_synced_to = ${t}
      WHERE id = ${input.subscriptionId} AND merchant_id = ${input.merchantId} AND mode = ${input.mode}::"Mode"
        AND (clock_synced_to IS NULL OR clock_synced_to < ${t})`;
    return;
  }
  // GREATEST ignores a null: clock_synced_to never moves back.
  await db.$executeRaw`UPDATE subscriptions SET clock_synced_to = GREATEST(clock_synced_to, ${t}), clock_wake_at = ${wake.at}::timestamptz
    WHERE id = ${input.subscriptionId} AND merchant_id = ${input.merchantId} AND mode = ${input.mode}::"Mode"
      AND (clock_synced_to IS NULL OR clock_synced_to < ${t} OR clock_wake_at IS DISTINCT FROM ${wake.at}::timestamptz)`;
}

export async function recordWorkflowEnded(db: Db, ref: SubscriptionRef, now: Date): Promise<{ testClockId: string | null }> {
  await db.$executeRaw`UPDATE subscriptions SET workflow_ended_at = ${now}
    WHERE id = ${ref.subscriptionId} AND merchant_id = ${ref.merchantId} AND mode = ${ref.mode}::"Mode" AND workflow_ended_at IS NULL`;
  const row = await db.subscription.findFirst({ where: { id: ref.subscriptionId, merchantId: ref.merchantId, mode: ref.mode }, select: { testClockId: true } });
  return { testClockId: row?.testClockId ?? null };
}
