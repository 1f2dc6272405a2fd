// The subscription workflow's bookkeeping in the database: attached (the reconciler leaves the
// row alone), caught up with its test clock, ended (no longer follows the clock).
import type { Db } from '../../db/client';
import type { ClockSyncInput, SubscriptionRef, SubscriptionView } from '../../contracts/subscriptions';
import { loadSubscriptionView } from './subscription-view';

export async function attachWorkflow(db: Db, ref: SubscriptionRef, now: Date): Promise<SubscriptionView | null> {
  await db.subscription.updateMany({ where: { id: ref.subscriptionId, merchantId: ref.merchantId, mode: ref.mode, workflowAttachedAt: null }, data: { workflowAttachedAt: now } });
  return loadSubscriptionView(db, ref);
}

/** Records that the subscription has done everything due up to clockTime (never moves back). */
export async function recordClockSync(db: Db, input: ClockSyncInput): Promise<SubscriptionView | null> {
  const t = new Date(input.clockTime);
  await db.subscription.updateMany({
    where: { id: input.subscriptionId, merchantId: input.merchantId, mode: input.mode, OR: [{ clockSyncedTo: null }, { clockSyncedTo: { lt: t } }] },
    data: { clockSyncedTo: t },
  });
  return loadSubscriptionView(db, input);
}

export async function recordWorkflowEnded(db: Db, ref: SubscriptionRef, now: Date): Promise<{ testClockId: string | null }> {
  await db.subscription.updateMany({ where: { id: ref.subscriptionId, merchantId: ref.merchantId, mode: ref.mode, workflowEndedAt: null }, data: { workflowEndedAt: now } });
  const row = await db.subscription.findFirst({ where: { id: ref.subscriptionId, merchantId: ref.merchantId, mode: ref.mode }, select: { testClockId: true } });
  return { testClockId: row?.testClockId ?? null };
}
