// One delivery attempt, as the delivery workflow's activity runs it: check the endpoint, POST the
// signed event (src/webhooks/sender.ts: URL guard, DNS resolution with every address checked,
// pinned connection, timeout, no redirects), and record the attempt.
//
// Safe to run twice (Temporal runs activities at least once): (delivery_id, attempt_number) is
// the attempt's key. A second execution that finds the attempt recorded answers from the record
// without sending; two executions racing are serialised by a row lock on the delivery. The only
// duplicate left is the unavoidable one of at-least-once delivery: a POST that reached the
// receiver from an execution that died before recording it. Receivers deduplicate on the event id.
import type { Db } from '../../db/client';
import type { WebhookDeliveryAttempt } from '../../generated/prisma/client';
import { deliverOnce, type DeliveryAttemptResult, type DeliverOnceInput } from '../../webhooks/sender';
import { nextRetryDelayMs } from '../../webhooks/retry-schedule';
import type { AttemptDeliveryInput, AttemptDeliveryResult } from '../../contracts/webhooks';
import { webhookTestingFor, type WebhookTestingOptions } from './testing';
import { liveEndpointSecrets, type SecretKeyConfig } from './endpoint-secrets';

export interface AttemptDeps {
  db: Db;
  /** The service's encryption key, which opens the endpoints' sealed secrets. */
  config: SecretKeyConfig;
  testing?: WebhookTestingOptions;
  now?: () => Date;
  /** The HTTP sender; replaceable in tests. */
  send?: (input: DeliverOnceInput) => Promise<DeliveryAttemptResult>;
}

export const ENDPOINT_DISABLED_ERROR = 'endpoint_disabled: the endpoint was disabled; pending retries stopped';
export const ENDPOINT_DELETED_ERROR = 'endpoint_deleted: the endpoint was deleted; pending retries stopped';

/** The attempt number the next run of a delivery starts with. */
export async function nextAttemptNumber(db: Db, deliveryId: string): Promise<number> {
  const agg = await db.webhookDeliveryAttempt.aggregate({ where: { deliveryId }, _max: { attemptNumber: true } });
  return (agg._max.attemptNumber ?? 0) + 1;
}

/** Delay after the failed automatic attempt at `step` of the schedule; null when none follows. */
export function retryDelayAfter(step: number, deliveryId: string, testing: WebhookTestingOptions): number | null {
  if (testing.retryDelaysMs !== undefined) return step <= testing.retryDelaysMs.length ? testing.retryDelaysMs[step - 1]! : null;
  // Jitter seeded by the delivery id: deliveries that failed together spread out, deterministically.
  return nextRetryDelayMs(step, deliveryId);
}

function fromRecord(a: WebhookDeliveryAttempt, now: Date): AttemptDeliveryResult {
  const delivered = a.statusCode !== null && a.statusCode >= 200 && a.statusCode <= 299;
  return {
    outcome: delivered ? 'delivered' : 'failed',
    statusCode: a.statusCode,
    retryDelayMs: a.nextRetryAt ? Math.max(0, a.nextRetryAt.getTime() - now.getTime()) : null,
  };
}

/** PostgreSQL text cannot hold NUL; a receiver's response body may. */
function storable(text: string | null, max = 4096): string | null {
  return text === null ? null : text.replace(/\u0000/g, '\uFFFD').slice(0, max);
}

export async function attemptDelivery(deps: AttemptDeps, input: AttemptDeliveryInput): Promise<AttemptDeliveryResult> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const key = { deliveryId: input.deliveryId, attemptNumber: input.attemptNumber };

  const recorded = await db.webhookDeliveryAttempt.findUnique({ where: { deliveryId_attemptNumber: key } });
  if (recorded) return fromRecord(recorded, now());

  // The attempt begins when it reads the endpoint: a change to the endpoint committed after this
  // instant cannot have been seen by this attempt (what attempted_at means to the merchant).
  const attemptedAt = now();
  const delivery = await db.webhookDelivery.findUnique({ where: { id: input.deliveryId }, include: { endpoint: true, event: true } });
  if (!delivery) return { outcome: 'stopped', statusCode: null, retryDelayMs: null };
  const { endpoint, event } = delivery;
  if (endpoint.deletedAt !== null || endpoint.status !== 'enabled') {
    await stopPendingDelivery(db, delivery.id, endpoint.deletedAt !== null ? ENDPOINT_DELETED_ERROR : ENDPOINT_DISABLED_ERROR);
    return { outcome: 'stopped', statusCode: null, retryDelayMs: null };
  }
  // A delivery canceled (or finished) meanwhile is not attempted again automatically; a manual
  // retry is attempted whatever the status.
  if (input.trigger === 'automatic' && delivery.status !== 'pending') return { outcome: 'stopped', statusCode: null, retryDelayMs: null };

  const testing = webhookTestingFor(delivery.mode, deps.testing);
  const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data });
  const result = await (deps.send ?? deliverOnce)({
    url: endpoint.url,
    body,
    secrets: liveEndpointSecrets(deps.config, endpoint, attemptedAt),
    nowSeconds: Math.floor(attemptedAt.getTime() / 1000),
    timeoutMs: testing.attemptTimeoutMs,
    allowLoopback: testing.allowLoopback === true,
    ca: testing.ca,
    lookup: testing.lookup,
  });
  const delivered = result.outcome === 'delivered';
  let retryDelayMs = delivered || !input.automaticRetries ? null : retryDelayAfter(input.scheduleStep, delivery.id, testing);

  return db.$transaction(async (tx) => {
    // Serialises executions of this same attempt, and waits for a retry request in flight.
    const locked = await tx.$queryRaw<Array<{ status: string }>>`
      SELECT d.status::text AS status FROM webhook_deliveries d WHERE d.id = ${delivery.id} FOR UPDATE`;
    if (locked.length === 0) return { outcome: 'stopped' as const, statusCode: null, retryDelayMs: null };
    const again = await tx.webhookDeliveryAttempt.findUnique({ where: { deliveryId_attemptNumber: key } });
    if (again) return fromRecord(again, now());

    // Disabled or deleted while the request was out: no further retries.
    const ep = await tx.webhookEndpoint.findUnique({ where: { id: endpoint.id }, select: { status: true, deletedAt: true } });
    const endpointGone = !ep || ep.deletedAt !== null || ep.status !== 'enabled';
    if (endpointGone) retryDelayMs = null;

    const finishedAt = now();
    const nextRetryAt = retryDelayMs === null ? null : new Date(finishedAt.getTime() + retryDelayMs);
    const error = storable(result.error, 1000);
    await tx.webhookDeliveryAttempt.create({
      data: {
        ...key,
        merchantId: delivery.merchantId,
        mode: delivery.mode,
        trigger: input.trigger,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error,
        responseBody: storable(result.responseBodySnippet),
        nextRetryAt,
        attemptedAt,
      },
    });
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        status: delivered ? 'succeeded' : nextRetryAt ? 'pending' : 'failed',
        attemptCount: { set: Math.max(delivery.attemptCount, input.attemptNumber) },
        lastStatusCode: result.statusCode,
        lastLatencyMs: result.latencyMs,
        lastError: !delivered && endpointGone ? `${error ?? 'failed'}; ${ep?.deletedAt ? ENDPOINT_DELETED_ERROR : ENDPOINT_DISABLED_ERROR}` : error,
        lastAttemptAt: attemptedAt,
        nextRetryAt,
      },
    });
    return { outcome: delivered ? ('delivered' as const) : ('failed' as const), statusCode: result.statusCode, retryDelayMs };
  });
}

/** Marks a still-pending delivery failed with the reason; no-op otherwise. */
export async function stopPendingDelivery(db: Db, deliveryId: string, reason: string): Promise<void> {
  await db.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { status: 'failed', nextRetryAt: null, lastError: reason } });
}
