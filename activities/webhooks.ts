// Webhook activities: thin wrappers over src/domain/webhooks and src/events.
import { Context } from '@temporalio/activity';
import type { Db } from '../src/db/client';
import { attemptDelivery, nextAttemptNumber } from '../src/domain/webhooks/attempt-delivery';
import type { SecretKeyConfig } from '../src/domain/webhooks/endpoint-secrets';
import type { WebhookTestingOptions } from '../src/domain/webhooks/testing';
import { dispatchEvent } from '../src/events/dispatch';
import type { Metrics } from '../src/observability/metrics';
import { observeWebhookAttempt } from './observe';
import type { AttemptDeliveryInput, AttemptDeliveryResult, DispatchReconcileInput } from '../src/contracts/webhooks';

export interface WebhookActivityDeps {
  db: Db;
  /** The service's encryption key (opens the endpoints' sealed signing secrets). */
  config: SecretKeyConfig;
  log: (line: string) => void;
  metrics: Metrics;
  /** Test-only relaxations (src/domain/webhooks/testing.ts); never set in production. */
  webhookTesting?: WebhookTestingOptions;
}

export function createWebhookActivities(deps: WebhookActivityDeps) {
  return {
    async nextWebhookAttemptNumber(deliveryId: string): Promise<number> {
      return nextAttemptNumber(deps.db, deliveryId);
    },

    async attemptWebhookDelivery(input: AttemptDeliveryInput): Promise<AttemptDeliveryResult> {
      const result = await attemptDelivery({ db: deps.db, config: deps.config, testing: deps.webhookTesting }, input);
      await observeWebhookAttempt(deps.db, deps.metrics, input, result);
      return result;
    },

    /** One batch of the outbox reconciler: dispatches events left undispatched; returns how many it looked at. */
    async dispatchUndispatchedEvents(input: DispatchReconcileInput): Promise<number> {
      const ctx = Context.current();
      const cutoff = new Date(Date.now() - input.minAgeSeconds * 1000);
      const rows = await deps.db.event.findMany({
        where: { dispatchedAt: null, recordedAt: { lte: cutoff } },
        orderBy: [{ recordedAt: 'asc' }, { id: 'asc' }],
        take: input.batchSize,
        select: { id: true },
      });
      const target = { db: deps.db, client: ctx.client, taskQueue: ctx.info.taskQueue, log: deps.log };
      for (const row of rows) {
        await dispatchEvent(target, row.id);
        ctx.heartbeat();
      }
      if (rows.length > 0) deps.log(`webhook reconciler dispatched ${rows.length} event(s) left undispatched`);
      return rows.length;
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
