// createActivities(deps): every activity the worker registers, built from explicit dependencies.
import type { Db } from '../src/db/client';
import type { Config } from '../src/config';
import { createMaintenanceActivities } from './maintenance';
import { createWebhookActivities } from './webhooks';
import { createPaymentActivities } from './payments';
import { createPaymentSessionActivities } from './payment-sessions';
import { createSubscriptionActivities } from './subscriptions';
import { createAccountingActivities } from './accounting';
import type { WebhookTestingOptions } from '../src/domain/webhooks/testing';
import type { ModeGateways } from '../src/gateways';
import { createMetrics, type Metrics } from '../src/observability/metrics';

export interface ActivityDeps {
  db: Db;
  config: Config;
  /** The outside systems of each mode, built once by the worker's composition root. */
  gateways: ModeGateways;
  log: (line: string) => void;
  /** Outcome counters (src/observability/metrics.ts); default: a registry of their own. */
  metrics?: Metrics;
  /** Test-only webhook relaxations (loopback receiver with its own CA, short timeouts); test-mode endpoints only, never set in production. */
  webhookTesting?: WebhookTestingOptions;
}

export function createActivities(given: ActivityDeps) {
  const deps = { ...given, metrics: given.metrics ?? createMetrics() };
  return {
    ...createMaintenanceActivities(deps),
    ...createWebhookActivities(deps),
    ...createPaymentActivities(deps),
    ...createPaymentSessionActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createAccountingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
