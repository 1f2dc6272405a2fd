// Inputs and outputs of the maintenance workflow and its activities.
export interface PurgeExpiredInput {
  idempotencyRetentionHours: number;
  /**
   * Raw usage events older than this many whole months are dropped (their rollups stay);
   * absent or 0 = off (USAGE_RAW_RETENTION_MONTHS, docs/metering.md "Retention").
   */
  usageRawRetentionMonths?: number;
  /** Batch size per activity call: deletes stay short and never lock a large table. */
  batchSize: number;
}

export interface UsagePartitionMaintenance {
  /** Monthly partitions of usage_events created (months ahead). */
  created: number;
  /** Rows moved out of the default partition into them. */
  moved: number;
  /** Partitions dropped whole, and rows deleted, by retention (0 when off). */
  dropped: number;
  deletedRows: number;
}

export interface PurgeResult {
  idempotencyKeys: number;
  rateLimitWindows: number;
  usagePartitions?: UsagePartitionMaintenance;
}
