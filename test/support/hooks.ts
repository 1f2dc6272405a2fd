// Mocha root hooks. Integration suites start the shared environment lazily (test/support/env.ts),
// so a run of unit tests alone starts neither PostgreSQL databases nor Temporal.
import { DefaultLogger, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { failedSubscriptionWorkflows, teardownTestEnv } from './env';

// SDK and workflow logs only from WARN up (TEST_LOG=1 shows everything).
Runtime.install({
  logger: new DefaultLogger(process.env.TEST_LOG === '1' ? 'INFO' : 'WARN'),
  telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: process.env.TEST_LOG === '1' ? 'INFO' : 'ERROR' }), forward: {} } },
});

export const mochaHooks = {
  async afterAll(): Promise<void> {
    // A subscription workflow never ends FAILED (docs/subscriptions.md "Refusals"): checked
    // through the Temporal visibility API for every subscription this run started.
    let failed: string[] = [];
    try {
      failed = await failedSubscriptionWorkflows();
    } finally {
      await teardownTestEnv();
    }
    if (failed.length > 0) throw new Error(`subscription workflows ended FAILED in this run: ${failed.join(', ')}`);
  },
};
