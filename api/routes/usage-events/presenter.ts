import type { StoredUsageEvent } from '../../../src/domain/usage-events/ingest-usage-events';
import type { BatchResult } from '../../../src/domain/usage-events/ingest-usage-events';
import { iso } from '../../validate';

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
