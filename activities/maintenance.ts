// Maintenance activities: bounded deletes, safe to run twice (deleting what is gone is a no-op).
import type { Db } from '../src/db/client';
import type { UsagePartitionMaintenance } from '../src/contracts/maintenance';
import { applyUsageEventRetention, ensureUsageEventPartitions } from '../src/domain/usage-events/partitions';

export function createMaintenanceActivities(deps: { db: Db; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    async purgeExpiredIdempotencyKeys(retentionHours: number, batchSize: number): Promise<number> {
      const cutoff = new Date(now().getTime() - retentionHours * 3_600_000);
      return deps.db.$executeRaw`
        DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
          SELECT ctid FROM idempotency_keys WHERE created_at < ${cutoff} LIMIT ${batchSize}))`;
    },
    /** Monthly partitions of usage_events 3 months ahead, then raw-event retention when set (months > 0). */
    async maintainUsageEventPartitions(retentionMonths: number): Promise<UsagePartitionMaintenance> {
      const at = now();
      const ahead = await ensureUsageEventPartitions(deps.db, at, 3);
      const out: UsagePartitionMaintenance = { created: ahead.created.length, moved: ahead.moved, dropped: 0, deletedRows: 0 };
      if (retentionMonths > 0) {
        const r = await applyUsageEventRetention(deps.db, at, retentionMonths);
        out.dropped = r.dropped.length;
        out.deletedRows = r.deletedRows;
      }
      return out;
    },
    async purgeOldRateLimitWindows(batchSize: number): Promise<number> {
      // Windows are at most an hour long; anything older than a day is dead.
      const cutoff = new Date(now().getTime() - 86_400_000);
      return deps.db.$executeRaw`
        DELETE FROM rate_limit_windows WHERE ctid = ANY (ARRAY(
          SELECT ctid FROM rate_limit_windows WHERE window_start < ${cutoff} LIMIT ${batchSize}))`;
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;
