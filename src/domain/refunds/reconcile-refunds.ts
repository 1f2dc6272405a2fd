// Repairs the gap between a refund's commit and its workflow's start (the API process died, or
// Temporal was unreachable, right after the commit): pending refunds older than a minute get
// their `refund/<ref_id>` workflow started. A workflow that is running (an acquirer outage) or
// has completed is left alone; one that failed or was terminated is started again, since the
// acquirer call is idempotent on the refund id.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { ensureIntervalSchedule } from '../../temporal/interval-schedule';
import type { Db } from '../../db/client';
import { REFUND_RECONCILER_WORKFLOW, REFUND_WORKFLOW, type RefundReconcileInput, type RefundWorkflowInput } from '../../contracts/payments';
import { scheduleIds, workflowIds } from '../../temporal/workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../../temporal/search-attributes';

export const REFUND_RECONCILE_MIN_AGE_SECONDS = 60;
export const REFUND_RECONCILE_BATCH_SIZE = 200;

export async function startPendingRefundWorkflows(
  deps: { db: Db; client: Client; taskQueue: string; now: Date; heartbeat?: () => void },
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
    const args: [RefundWorkflowInput] = [{ refundId: r.id, merchantId: r.merchantId, mode: r.mode }];
    try {
      await deps.client.workflow.start(REFUND_WORKFLOW, {
        taskQueue: deps.taskQueue,
        workflowId: workflowIds.refund(r.id),
        args,
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        workflowIdConflictPolicy: 'FAIL',
        typedSearchAttributes: [
          { key: SA_MERCHANT, value: r.merchantId },
          { key: SA_MODE, value: r.mode },
        ],
      });
      started += 1;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    deps.heartbeat?.();
  }
  return { looked: pending.length, started };
}

/** Creates (or updates) the reconciler's schedule; called by the worker's composition root. */
export async function ensureRefundSchedules(client: Client, opts: { taskQueue: string }): Promise<void> {
  const args: [RefundReconcileInput] = [{ minAgeSeconds: REFUND_RECONCILE_MIN_AGE_SECONDS, batchSize: REFUND_RECONCILE_BATCH_SIZE }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.refundReconciler,
    every: '1 minute',
    workflowType: REFUND_RECONCILER_WORKFLOW,
    taskQueue: opts.taskQueue,
    args,
  });
}
