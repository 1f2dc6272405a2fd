// The reconciler behind DESIGN.md §1's invariant "a subscription row never exists without its
// workflow": every minute (schedule `subscriptions/reconciler`) it starts the workflow of every
// subscription row that has none yet (the after-commit start of its request was lost: a crash
// or a Temporal outage between commit and start), and wakes test clocks whose advance signal
// was lost. Starting is idempotent (USE_EXISTING), so racing the request's own start is harmless.
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/client';
import { ensureIntervalSchedule } from '../../temporal/interval-schedule';
import { scheduleIds } from '../../temporal/workflow-ids';
import { SUBSCRIPTION_RECONCILER_WORKFLOW, type ReconcileSubscriptionsInput, type ReconcileSubscriptionsResult } from '../../contracts/subscriptions';
import type { WorkflowClients } from '../../temporal/workflow-clients';

export const SUBSCRIPTION_RECONCILE_MIN_AGE_SECONDS = 30;
export const SUBSCRIPTION_RECONCILE_BATCH_SIZE = 500;
export const CLOCK_STUCK_SECONDS = 120;

export async function reconcileSubscriptions(db: Db, workflows: WorkflowClients, input: ReconcileSubscriptionsInput, heartbeat: () => void = () => undefined): Promise<ReconcileSubscriptionsResult> {
  const cutoff = new Date(Date.now() - input.minAgeSeconds * 1000);
  const rows = await db.subscription.findMany({
    where: { workflowAttachedAt: null, workflowEndedAt: null, createdAt: { lte: cutoff } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: input.batchSize,
    include: { testClock: { select: { frozenTime: true } } },
  });
  let started = 0;
  for (const s of rows) {
    await workflows.subscription.start({
      subscriptionId: s.id,
      merchantId: s.merchantId,
      mode: s.mode,
      customerId: s.customerId,
      status: s.status,
      clockTime: s.testClock?.frozenTime.toISOString() ?? null,
    });
    started += 1;
    heartbeat();
  }
  // A large advance legitimately takes a while: only clocks advancing for minutes are woken.
  const clockCutoff = new Date(Date.now() - Math.max(input.minAgeSeconds, CLOCK_STUCK_SECONDS) * 1000);
  const clocks = await db.testClock.findMany({
    where: { status: 'advancing', deletedAt: null, updatedAt: { lte: clockCutoff } },
    take: input.batchSize,
    select: { id: true, merchantId: true },
  });
  for (const c of clocks) {
    await workflows.testClock.signalAdvance({ testClockId: c.id, merchantId: c.merchantId });
    heartbeat();
  }
  return { started, clocksNudged: clocks.length };
}

/** Creates (or updates) the reconciler's schedule; called by the worker's composition root. */
export async function ensureSubscriptionSchedules(client: Client, opts: { taskQueue: string }): Promise<void> {
  const args: [ReconcileSubscriptionsInput] = [{ minAgeSeconds: SUBSCRIPTION_RECONCILE_MIN_AGE_SECONDS, batchSize: SUBSCRIPTION_RECONCILE_BATCH_SIZE }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.subscriptionReconciler,
    every: '1 minute',
    workflowType: SUBSCRIPTION_RECONCILER_WORKFLOW,
    taskQueue: opts.taskQueue,
    args,
  });
}
