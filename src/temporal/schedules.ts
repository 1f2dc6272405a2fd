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

/** Every minute: dispatch events committed but never dispatched (the process died between commit and dispatch, or Temporal was unreachable then). */
export async function ensureWebhookSchedules(client: Client, opts: ScheduleOptions): Promise<void> {
  // Events younger than a minute are still being dispatched by whoever recorded them.
  const args: [DispatchReconcileInput] = [{ minAgeSeconds: 60, batchSize: 500 }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.webhookDispatchReconciler,
    every: '1 minute',
    workflowType: WEBHOOK_DISPATCH_RECONCILER_WORKFLOW,
    taskQueue: opts.taskQueue,
    args,
  });
}

/** Every minute: start the workflow of refunds left pending without one (src/domain/refunds/reconcile-refunds.ts). */
export async function ensureRefundSchedules(client: Client, opts: ScheduleOptions): Promise<void> {
  const args: [RefundReconcileInput] = [{ minAgeSeconds: 60, batchSize: 200 }];
  await ensureIntervalSchedule(client, { scheduleId: scheduleIds.refundReconciler, every: '1 minute', workflowType: REFUND_RECONCILER_WORKFLOW, taskQueue: opts.taskQueue, args });
}

/** Every minute: start workflows of subscription rows that have none, wake stuck test clocks (src/domain/subscriptions/reconcile-subscriptions.ts). */
export async function ensureSubscriptionSchedules(client: Client, opts: ScheduleOptions): Promise<void> {
  const args: [ReconcileSubscriptionsInput] = [{ minAgeSeconds: 30, batchSize: 500 }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.subscriptionReconciler,
    every: '1 minute',
    workflowType: SUBSCRIPTION_RECONCILER_WORKFLOW,
    taskQueue: opts.taskQueue,
    args,
  });
}

export async function ensureSchedules(client: Client, opts: ScheduleOptions & { idempotencyRetentionHours: number; usageRawRetentionMonths?: number }): Promise<void> {
  const purge: [PurgeExpiredInput] = [{ idempotencyRetentionHours: opts.idempotencyRetentionHours, batchSize: 5000, usageRawRetentionMonths: opts.usageRawRetentionMonths ?? 0 }];
  await ensureIntervalSchedule(client, { scheduleId: scheduleIds.purgeExpired, every: '1 hour', workflowType: 'purgeExpiredWorkflow', taskQueue: opts.taskQueue, args: purge });
  await ensureWebhookSchedules(client, opts);
  await ensureRefundSchedules(client, opts);
  await ensureSubscriptionSchedules(client, opts);
  const sweep: [SweepPaymentSessionsInput] = [{ graceSeconds: 60, batchSize: 200 }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.paymentSessionSweeper,
    every: '1 minute',
    workflowType: PAYMENT_SESSION_SWEEPER_WORKFLOW,
    taskQueue: opts.taskQueue,
    args: sweep,
  });
}
