// Repairs the gap between a refund's commit and its workflow's start (the API process died, or
// Temporal was unreachable, right after the commit): pending refunds older than a minute get
// their `refund/<ref_id>` workflow started. A workflow that is running (an acquirer outage) or
// has completed is left alone; one that failed or was terminated is started again, since the
// acquirer call is idempotent on the refund id.
import type { Db } from '../../db/client';
import type { RefundReconcileInput } from '../../contracts/payments';
import type { WorkflowClients } from '../../temporal/workflow-clients';

export async function startPendingRefundWorkflows(
  deps: { db: Db; workflows: Pick<WorkflowClients, 'refund'>; now: Date; heartbeat?: () => void },
  input: RefundReconcileInput,
): Promise<{ looked: number; started: number }> {
  const cutoff = new Date(deps.now.getTime() - input.minAgeSeconds * 1000);
  const pending = await deps.db.refund.findMany({
    where: { status: 'pending', createdAt: { lte: cutoff } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: input.batchSize,
    select: { id: true, merchantId: true, mode: true },
  });
  let started = 0;
  for (const r of pending) {
    if (await deps.workflows.refund.restartUnlessDone({ refundId: r.id, merchantId: r.merchantId, mode: r.mode })) started += 1;
    deps.heartbeat?.();
  }
  return { looked: pending.length, started };
}
