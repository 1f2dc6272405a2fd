// Purges expired idempotency records and old rate-limit windows, in bounded batches.
// Started hourly by the Temporal schedule `maintenance/purge-expired` (src/temporal/schedules.ts).
import { proxyActivities, log } from '@temporalio/workflow';
import type { MaintenanceActivities } from '../activities/maintenance';
import type { PurgeExpiredInput, PurgeResult } from '../src/contracts/maintenance';

const acts = proxyActivities<MaintenanceActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

const MAX_BATCHES = 1000;

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
  log.info('purged expired records', { ...total });
  return total;
}
