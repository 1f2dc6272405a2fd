// Every Temporal schedule of the service (periodic maintenance and reconcilers; business time is
// never scheduled in-process), registered by the worker's composition root (boot/worker.ts,
// boot/start.ts) through ensureSchedules. Creating one that exists updates it.
import type { Client } from '@temporalio/client';
import { ensureIntervalSchedule } from './interval-schedule';
import { scheduleIds } from './workflow-ids';
import type { PurgeExpiredInput } from '../contracts/maintenance';
import { PAYMENT_SESSION_SWEEPER_WORKFLOW, type SweepPaymentSessionsInput } from '../contracts/payment-sessions';
import { WEBHOOK_DISPATCH_RECONCILER_WORKFLOW, type DispatchReconcileInput } from '../contracts/webhooks';
import { REFUND_RECONCILER_WORKFLOW, type RefundReconcileInput } from '../contracts/payments';
import { SUBSCRIPTION_RECONCILER_WORKFLOW, type ReconcileSubscriptionsInput } from '../contracts/subscriptions';

interface ScheduleOptions {
  taskQueue: string;
}

/** A schedule that starts `workflowType` with `input` every minute (a reconciler or a sweeper). */
function everyMinute<I>(scheduleId: string, workflowType: string, input: I) {
  return (client: Client, opts: ScheduleOptions): Promise<void> =>
    ensureIntervalSchedule(client, { scheduleId, every: '1 minute', workflowType, taskQueue: opts.taskQueue, args: [input] });
}

/**
 * Every minute: dispatch events committed but never dispatched (the process died between commit and dispatch, or Temporal was unreachable then).
 * Events younger than a minute are still being dispatched by whoever recorded them.
 */
export const ensureWebhookSchedules = everyMinute<DispatchReconcileInput>(scheduleIds.webhookDispatchReconciler, WEBHOOK_DISPATCH_RECONCILER_WORKFLOW, {
  minAgeSeconds: 60,
  batchSize: 500,
});

/** Every minute: start the workflow of refunds left pending without one (src/domain/refunds/reconcile-refunds.ts). */
export const ensureRefundSchedules = everyMinute<RefundReconcileInput>(scheduleIds.refundReconciler, REFUND_RECONCILER_WORKFLOW, { minAgeSeconds: 60, batchSize: 200 });

/** Every minute: start workflows of subscription rows that have none, wake stuck test clocks (src/domain/subscriptions/reconcile-subscriptions.ts). */
export const ensureSubscriptionSchedules = everyMinute<ReconcileSubscriptionsInput>(scheduleIds.subscriptionReconciler, SUBSCRIPTION_RECONCILER_WORKFLOW, {
  minAgeSeconds: 30,
  batchSize: 500,
});

/** Every minute: expire sessions still `open` a minute after `expires_at` (their expiry workflow was lost). */
const ensurePaymentSessionSchedules = everyMinute<SweepPaymentSessionsInput>(scheduleIds.paymentSessionSweeper, PAYMENT_SESSION_SWEEPER_WORKFLOW, {
  graceSeconds: 60,
  batchSize: 200,
});

export async function ensureSchedules(client: Client, opts: ScheduleOptions & { idempotencyRetentionHours: number; usageRawRetentionMonths?: number }): Promise<void> {
  const purge: [PurgeExpiredInput] = [{ idempotencyRetentionHours: opts.idempotencyRetentionHours, batchSize: 5000, usageRawRetentionMonths: opts.usageRawRetentionMonths ?? 0 }];
  await ensureIntervalSchedule(client, { scheduleId: scheduleIds.purgeExpired, every: '1 hour', workflowType: 'purgeExpiredWorkflow', taskQueue: opts.taskQueue, args: purge });
  await ensureWebhookSchedules(client, opts);
  await ensureRefundSchedules(client, opts);
  await ensureSubscriptionSchedules(client, opts);
  await ensurePaymentSessionSchedules(client, opts);
}
