// The worker's side of a clock advance (activities of workflows/test-clock.ts): which
// subscriptions follow the clock, and the move back to `ready` once all of them have caught up.
import type { Db } from '../../db/client';
import type { Mode } from '../../generated/prisma/client';

export interface ClockProgress {
  status: 'ready' | 'advancing' | 'deleted';
  frozenTime: string;
  /** Subscriptions still behind the clock (0 when ready). */
  pending: number;
}

/**
 * Subscriptions whose workflow still runs, has something due by `frozenTime` (its wake time is at
 * or before it, or unknown) and has not acknowledged `frozenTime`. One with nothing due by then
 * was not woken by the advance (notifyClockSubscriptions) and has nothing to catch up.
 */
async function countBehind(db: Db, merchantId: string, testClockId: string, frozenTime: Date): Promise<number> {
  return db.subscription.count({
    where: {
      merchantId,
      mode: 'test',
      testClockId,
      workflowEndedAt: null,
      AND: [{ OR: [{ clockSyncedTo: null }, { clockSyncedTo: { lt: frozenTime } }] }, { OR: [{ clockWakeAt: null }, { clockWakeAt: { lte: frozenTime } }] }],
    },
  });
}

/**
 * Marks an advancing clock `ready` when no subscription is behind it. The clock row is locked
 * for the check, so an advance committed meanwhile (a new frozen_time) is never marked ready early.
 */
export async function completeAdvanceIfCaughtUp(db: Db, input: { testClockId: string; merchantId: string }): Promise<ClockProgress> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM test_clocks WHERE id = ${input.testClockId} AND merchant_id = ${input.merchantId} FOR UPDATE`;
    const clock = await tx.testClock.findFirst({ where: { id: input.testClockId, merchantId: input.merchantId, mode: 'test' } });
    if (!clock) return { status: 'deleted', frozenTime: new Date(0).toISOString(), pending: 0 };
    const frozenTime = clock.frozenTime.toISOString();
    if (clock.deletedAt) return { status: 'deleted', frozenTime, pending: 0 };
    if (clock.status === 'ready') return { status: 'ready', frozenTime, pending: 0 };
    const pending = await countBehind(tx as unknown as Db, input.merchantId, clock.id, clock.frozenTime);
    if (pending > 0) return { status: 'advancing', frozenTime, pending };
    await tx.testClock.update({ where: { id: clock.id }, data: { status: 'ready' } });
    return { status: 'ready', frozenTime, pending: 0 };
  });
}

export interface ClockSubscriptionRef {
  subscriptionId: string;
  merchantId: string;
  mode: Mode;
  customerId: string;
  status: string;
}

/**
 * One page (by id) of the subscriptions that follow the clock and still run; with `dueBy`, only
 * those with something due by then (wake time at or before it, or unknown).
 */
export async function clockSubscriptionsPage(
  db: Db,
  input: { testClockId: string; merchantId: string; afterId: string | null; take: number; dueBy?: Date },
): Promise<ClockSubscriptionRef[]> {
  const rows = await db.subscription.findMany({
    where: {
      merchantId: input.merchantId,
      mode: 'test',
      testClockId: input.testClockId,
      workflowEndedAt: null,
      ...(input.afterId ? { id: { gt: input.afterId } } : {}),
      ...(input.dueBy ? { OR: [{ clockWakeAt: null }, { clockWakeAt: { lte: input.dueBy } }] } : {}),
    },
    orderBy: { id: 'asc' },
    take: input.take,
    select: { id: true, merchantId: true, mode: true, customerId: true, status: true },
  });
  return rows.map((r) => ({ subscriptionId: r.id, merchantId: r.merchantId, mode: r.mode, customerId: r.customerId, status: r.status }));
}

/** The clock's current frozen time, or null when it is gone. */
export async function clockFrozenTime(db: Db, input: { testClockId: string; merchantId: string }): Promise<Date | null> {
  const clock = await db.testClock.findFirst({ where: { id: input.testClockId, merchantId: input.merchantId, mode: 'test', deletedAt: null }, select: { frozenTime: true } });
  return clock?.frozenTime ?? null;
}
