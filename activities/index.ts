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

export interface ActivityDeps {
  db: Db;
  config: Config;
  /** The outside systems of each mode, built once by the worker's composition root. */
  gateways: ModeGateways;
  log: (line: string) => void;
  /** Test-only webhook relaxations (loopback receiver with its own CA, short timeouts); test-mode endpoints only, never set in production. */
  webhookTesting?: WebhookTestingOptions;
}

export function createActivities(deps: ActivityDeps) {
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
