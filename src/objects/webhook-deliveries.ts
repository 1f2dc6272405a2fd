import type { WebhookDelivery, WebhookDeliveryAttempt } from '../generated/prisma/client';
import { iso } from './iso';

export type DeliveryWithAttempts = WebhookDelivery & { attempts: WebhookDeliveryAttempt[] };

/**
 * A delivery record: the newest attempt's status code, latency and error at the top level, the
 * attempts (newest first) below. `status`: pending (an attempt is due), succeeded, failed (no
 * more automatic attempts: schedule exhausted, or the endpoint was disabled or deleted).
 */
export function presentWebhookDelivery(d: DeliveryWithAttempts) {
  return {
    id: d.id,
    object: 'webhook_delivery',
    endpoint: d.endpointId,
    event: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempt_count: d.attemptCount,
    status_code: d.lastStatusCode,
    latency_ms: d.lastLatencyMs,
    error: d.lastError,
    last_attempt_at: iso(d.lastAttemptAt),
    next_retry_at: iso(d.nextRetryAt),
    created_at: iso(d.createdAt),
    attempts: d.attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      trigger: a.trigger,
      status_code: a.statusCode,
      latency_ms: a.latencyMs,
      error: a.error,
      response_body: a.responseBody,
      attempted_at: iso(a.attemptedAt),
      next_retry_at: iso(a.nextRetryAt),
    })),
  };
}
