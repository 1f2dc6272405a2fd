// What the subscription workflow knows of its subscription (src/contracts SubscriptionView),
// read from the database after every change: the row, and the invoices that still need
// automatic work (draft, or open with a next attempt / claim check).
import type { Db } from '../../db/client';
import type { SubscriptionRef, SubscriptionView } from '../../contracts/subscriptions';

export async function loadSubscriptionView(db: Db, ref: SubscriptionRef): Promise<SubscriptionView | null> {
  const sub = await db.subscription.findFirst({
    where: { id: ref.subscriptionId, merchantId: ref.merchantId, mode: ref.mode },
    include: { testClock: { select: { frozenTime: true, deletedAt: true } } },
  });
  if (!sub) return null;
  const invoices = await db.invoice.findMany({
    where: { merchantId: ref.merchantId, mode: ref.mode, subscriptionId: sub.id, OR: [{ status: 'draft' }, { status: 'open', nextPaymentAttemptAt: { not: null } }] },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, status: true, collectionMethod: true, attemptCount: true, nextPaymentAttemptAt: true },
  });
  return {
    id: sub.id,
    merchantId: sub.merchantId,
    mode: sub.mode,
    customerId: sub.customerId,
    status: sub.status,
    collectionMethod: sub.collectionMethod,
    interval: sub.interval,
    intervalCount: sub.intervalCount,
    currentPeriodStart: sub.currentPeriodStart.toISOString(),
    currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
    trialEnd: sub.trialEnd?.toISOString() ?? null,
    trialWillEndNotifiedFor: sub.trialWillEndNotifiedFor?.toISOString() ?? null,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    pausedAt: sub.pausedAt?.toISOString() ?? null,
    testClockId: sub.testClockId,
    clockTime: sub.testClock?.frozenTime.toISOString() ?? null,
    clockDeleted: sub.testClock?.deletedAt != null,
    clockSyncedTo: sub.clockSyncedTo?.toISOString() ?? null,
    invoices: invoices.map((i) => ({
      id: i.id,
      status: i.status as 'draft' | 'open',
      collectionMethod: (i.collectionMethod ?? sub.collectionMethod) as 'charge_automatically' | 'send_invoice',
      attemptCount: i.attemptCount,
      nextActionAt: i.nextPaymentAttemptAt?.toISOString() ?? null,
    })),
  };
}
