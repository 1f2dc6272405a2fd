// Temporal schedules for periodic maintenance (business time is never scheduled in-process).
import type { Client } from '@temporalio/client';
import { ensureIntervalSchedule } from './interval-schedule';
import { scheduleIds } from './workflow-ids';
import type { PurgeExpiredInput } from '../contracts/maintenance';
import { PAYMENT_SESSION_SWEEPER_WORKFLOW, type SweepPaymentSessionsInput } from '../contracts/payment-sessions';
import { ensureWebhookSchedules } from '../events/schedule';
import { ensureRefundSchedules } from '../domain/refunds/reconcile-refunds';
import { ensureSubscriptionSchedules } from '../domain/subscriptions/reconcile-subscriptions';

export async function ensureSchedules(client: Client, opts: { taskQueue: string; idempotencyRetentionHours: number }): Promise<void> {
  const args: [PurgeExpiredInput] = [{ idempotencyRetentionHours: opts.idempotencyRetentionHours, batchSize: 5000 }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.purgeExpired,
    every: '1 hour',
    workflowType: 'purgeExpiredWorkflow',
    taskQueue: opts.taskQueue,
    args,
  });
  await ensureWebhookSchedules(client, { taskQueue: opts.taskQueue });
  await ensureRefundSchedules(client, { taskQueue: opts.taskQueue });
  await ensureSubscriptionSchedules(client, { taskQueue: opts.taskQueue });
  const sweep: [SweepPaymentSessionsInput] = [{ graceSeconds: 60, batchSize: 200 }];
  await ensureIntervalSchedule(client, {
    scheduleId: scheduleIds.paymentSessionSweeper,
    every: '1 minute',
    workflowType: PAYMENT_SESSION_SWEEPER_WORKFLOW,
    taskQueue: opts.taskQueue,
    args: sweep,
  });
}
