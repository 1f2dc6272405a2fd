// Purges expired idempotency records and old rate-limit windows, in bounded batches, and keeps
// usage_events' monthly partitions ahead (with raw-event retention when configured).
// Started hourly by the Temporal schedule `maintenance/purge-expired` (src/temporal/schedules.ts).
import { proxyActivities, log, patched } from '@temporalio/workflow';
import type { MaintenanceActivities } from '../activities/maintenance';
import type { PurgeExpiredInput, PurgeResult } from '../src/contracts/maintenance';

const acts = proxyActivities<MaintenanceActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

const MAX_BATCHES = 1000;
export const USAGE_PARTITIONS_PATCH = 'usage-event-partitions';

export async function purgeExpiredWorkflow(input: PurgeExpiredInput): Promise<PurgeResult> {
  const total: PurgeResult = { idempotencyKeys: 0, rateLimitWindows: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await acts.purgeExpiredIdempotencyKeys(input.idempotencyRetentionHours, input.batchSize);
    total.idempotencyKeys += n;
    if (n < input.batchSize) break;
  }
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await acts.purgeOldRateLimitWindows(input.batchSize);
    total.rateLimitWindows += n;
    if (n < input.batchSize) break;
  }
  // Issue 32: the monthly partitions of usage_events (and raw-event retention when set). Runs
  // started before this change replay without it.
  if (patched(USAGE_PARTITIONS_PATCH)) {
    total.usagePartitions = await acts.maintainUsageEventPartitions(input.usageRawRetentionMonths ?? 0);
  }
  log.info('purged expired records', { idempotencyKeys: total.idempotencyKeys, rateLimitWindows: total.rateLimitWindows, ...total.usagePartitions });
  return total;
}
