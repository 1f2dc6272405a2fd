import { iso } from './iso';

export interface BatchError {
  index: number;
  message: string;
}

export interface BatchResult {
  /** Events recorded by this request. */
  ingested: number;
  /** Valid events whose idempotency_key was already recorded (not recorded again). */
  duplicates: number;
  errors: BatchError[];
}

export interface StoredUsageEvent {
  id: string;
  customerId: string;
  eventName: string;
  idempotencyKey: string | null;
  timestamp: Date;
  metadata: unknown;
  receivedAt: Date;
}

export function presentUsageEvent(e: StoredUsageEvent) {
  return {
    id: e.id,
    event_name: e.eventName,
    customer: e.customerId,
    idempotency_key: e.idempotencyKey,
    timestamp: iso(e.timestamp),
    metadata: e.metadata,
    received_at: iso(e.receivedAt),
  };
}

export function presentBatchResult(r: BatchResult) {
  return { ingested: r.ingested, duplicates: r.duplicates, errors: r.errors };
}
