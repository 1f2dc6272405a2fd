// Mocha root hooks. Integration suites start the shared environment lazily (test/support/env.ts),
// so a run of unit tests alone starts neither PostgreSQL databases nor Temporal.
// Every service log line of the run (API, worker, Temporal SDK) goes to LOG_FILE (default: a file
// in the temp directory); at the end the run fails if a secret it used appears there (secrets.ts).
import os from 'node:os';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { failedSubscriptionWorkflows, teardownTestEnv } from './env';
import { assertNoLeaks } from './secrets';
import { flushExamples } from './example-recorder';
import { createLogger } from '../../src/observability/logger';
import { temporalLogger } from '../../src/observability/temporal-logger';

const ownLogFile = !process.env.LOG_FILE;
process.env.LOG_FILE ||= path.join(os.tmpdir(), `billing-test-${process.pid}.log`);
const logFile = process.env.LOG_FILE;

// SDK, workflow and activity logs into the log file (INFO up; TEST_LOG=1 also core INFO).
Runtime.install({
  logger: temporalLogger(createLogger({ service: 'test-worker', file: logFile, level: 'info' })),
  telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: process.env.TEST_LOG === '1' ? 'INFO' : 'ERROR' }), forward: {} } },
});

export const mochaHooks = {
  async afterAll(): Promise<void> {
    flushExamples();
    // A subscription workflow never ends FAILED (docs/subscriptions.md "Refusals"): checked
    // through the Temporal visibility API for every subscription this run started.
    let failed: string[] = [];
    try {
      failed = await failedSubscriptionWorkflows();
    } finally {
      await teardownTestEnv();
    }
    if (failed.length > 0) throw new Error(`subscription workflows ended FAILED in this run: ${failed.join(', ')}`);
    // No key, token, password or card number the run used in any service log line.
    assertNoLeaks(logFile);
    if (ownLogFile && process.env.KEEP_TEST_LOG !== '1') rmSync(logFile, { force: true });
  },
};
