// The reconciler behind the invariant "a subscription row never exists without its
// workflow" (docs/architecture.md): every minute (schedule `subscriptions/reconciler`) it starts the workflow of every
// subscription row that has none yet (the after-commit start of its request was lost: a crash
// or a Temporal outage between commit and start), and wakes test clocks whose advance signal
// was lost. Starting is idempotent (USE_EXISTING), so racing the request's own start is harmless.
// It also restarts workflows that closed abnormally (./revive-subscription-workflows.ts).
import type { Db } from '../../db/client';
import type { ReconcileSubscriptionsInput, ReconcileSubscriptionsResult } from '../../contracts/subscriptions';
import type { WorkflowClients } from '../../temporal/workflow-clients';
import { reviveSubscriptionWorkflows } from './revive-subscription-workflows';

export const CLOCK_STUCK_SECONDS = 120;

export async function reconcileSubscriptions(
  db: Db,
  workflows: WorkflowClients,
  input: ReconcileSubscriptionsInput,
  heartbeat: () => void = () => undefined,
  log: (line: string) => void = () => undefined,
): Promise<ReconcileSubscriptionsResult> {
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
  // Workflows that closed abnormally while their row still needs them: restarted (or halted).
  const revived = await reviveSubscriptionWorkflows(db, workflows, { batchSize: input.batchSize, log }, heartbeat);
  return { started, clocksNudged: clocks.length, restarted: revived.restarted, halted: revived.halted };
}
