// Mocha root hooks. Integration suites start the shared environment lazily (test/support/env.ts),
// so a run of unit tests alone starts neither PostgreSQL databases nor Temporal.
import { DefaultLogger, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { teardownTestEnv } from './env';

// SDK and workflow logs only from WARN up (TEST_LOG=1 shows everything).
Runtime.install({
  logger: new DefaultLogger(process.env.TEST_LOG === '1' ? 'INFO' : 'WARN'),
  telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: process.env.TEST_LOG === '1' ? 'INFO' : 'ERROR' }), forward: {} } },
});

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await teardownTestEnv();
  },
};
