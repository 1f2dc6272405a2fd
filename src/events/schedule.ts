// The outbox reconciler's schedule: every minute, dispatch events that were committed but never
// dispatched (the process died between commit and dispatch, or Temporal was unreachable then).
import type { Client } from '@temporalio/client';
import { ensureIntervalSchedule } from '../temporal/interval-schedule';
import { scheduleIds } from '../temporal/workflow-ids';
import { WEBHOOK_DISPATCH_RECONCILER_WORKFLOW, type DispatchReconcileInput } from '../contracts/webhooks';

/** Events younger than this are still being dispatched by whoever recorded them. */
export const RECONCILE_MIN_AGE_SECONDS = 60;
export const RECONCILE_BATCH_SIZE = 500;

export async function ensureWebhookSchedules(client: Client, opts: { taskQueue: string }): Promise<void> {
  const args: [DispatchReconcileInput] = [{ minAgeSeconds: RECONCILE_MIN_AGE_SECONDS, batchSize: RECONCILE_BATCH_SIZE }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.webhookDispatchReconciler,
    every: '1 minute',
    workflowType: WEBHOOK_DISPATCH_RECONCILER_WORKFLOW,
    taskQueue: opts.taskQueue,
    args,
  });
}
