// Inputs and outputs of the maintenance workflow and its activities.
export interface PurgeExpiredInput {
  idempotencyRetentionHours: number;
  /** Batch size per activity call: deletes stay short and never lock a large table. */
  batchSize: number;
}

export interface PurgeResult {
  idempotencyKeys: number;
  rateLimitWindows: number;
}
