// The integration environment, started lazily by the first suite that needs it and torn down
// by the root afterAll hook: a fresh PostgreSQL database (dropped at the end), the real Temporal
// dev server (TEST_TEMPORAL_ADDRESS, or the CLI started on free ports, in memory), a worker on
// a task queue of its own, and the API on a free loopback port.
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { loadConfig, type Config } from '../../src/config';
import { createDb, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase, migrate } from '../../src/db/migrate';
import { createTemporalProvider, type TemporalProvider } from '../../src/temporal/client';
import { ensureTemporalCli, startDevServer, type DevServer } from '../../src/temporal/dev-server';
import { ensureSearchAttributes } from '../../src/temporal/provision';
import { createBillingWorker, type WorkerHandle } from '../../boot/runtime/worker';
import { listen, type HttpHandle } from '../../boot/runtime/http';
import { createApp } from '../../api/app';
import { createWorkflowClients } from '../../src/temporal/workflow-clients';
import { createModeGateways, gatewayConfigFromEnv, type ModeGateways } from '../../src/gateways';
import { SUBSCRIPTION_WORKFLOW } from '../../src/contracts/subscriptions';
import { newEncryptionKey } from '../../src/crypto/secret-box';
import { startAccountingSandbox, type AccountingSandbox } from '../../src/gateways/accounting/sandbox/server';
import { createLogger, lineLogger } from '../../src/observability/logger';
import { createMetrics, type Metrics } from '../../src/observability/metrics';
import { recordRequestSecrets } from './secrets';
import type Koa from 'koa';

export interface TestEnv {
  config: Config;
  databaseUrl: string;
  db: Db;
  temporalAddress: string;
  temporal: TemporalProvider;
  /** The gateways the env's app and worker share (built once here, as a composition root does). */
  gateways: ModeGateways;
  client: Client;
  worker: WorkerHandle;
  http: HttpHandle;
  baseUrl: string;
  /** The two accounting sandbox providers (generous rate limits, no random failures; tests inject faults). */
  sandboxes: { oauth: AccountingSandbox; form: AccountingSandbox };
  /** Starts another API instance on the same database with config overrides (closed at teardown). */
  startApp(overrides: Partial<Config>, temporal?: TemporalProvider): Promise<string>;
  /** The metrics registry the API and the worker share (GET /metrics of baseUrl). */
  metrics: Metrics;
}

// Service logs go to LOG_FILE (set by test/support/hooks.ts; checked for leaked secrets at the end).
const testLogger = createLogger({ service: 'test', level: process.env.LOG_FILE ? 'info' : 'silent' });
const toFile = lineLogger(testLogger);
const testLog = process.env.TEST_LOG === '1' ? (l: string) => (console.log(l), toFile(l)) : toFile;

/** Records the secrets every request and response carries (test/support/secrets.ts), first in the app. */
function recordingSecrets<T extends Koa<any>>(app: T): T {
  app.middleware.unshift(recordRequestSecrets as Koa.Middleware);
  return app;
}

let envPromise: Promise<TestEnv> | undefined;
const cleanups: Array<() => Promise<void>> = [];

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    port: 0,
    taskQueue: `billing-test-${randomBytes(4).toString('hex')}`,
    rateLimitRequests: 1_000_000,
    // Every test calls from 127.0.0.1 and many check 401s: test/api/auth-failures.test.ts sets its own.
    authFailureLimit: 1_000_000,
    // Bursts in tests exceed the default bound; test/api/back-pressure.test.ts sets its own.
    apiMaxInFlight: 100_000,
    // The suite runs on a saturated 2-core machine: a workflow update can wait longer than the
    // production deadline (10 s) there. test/temporal/outage.test.ts and the production-layout
    // scenario exercise the default.
    temporalCallTimeoutMs: 30_000,
    rateLimitWindowSeconds: 1,
    logRequests: true,
    ...overrides,
  };
}

async function start(): Promise<TestEnv> {
  const base = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const url = new URL(base);
  url.pathname = `/billing_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  cleanups.push(() => dropDatabase(databaseUrl));
  await migrate(databaseUrl);
  const db = createDb(databaseUrl);
  cleanups.push(() => db.$disconnect());

  let temporalAddress = process.env.TEST_TEMPORAL_ADDRESS;
  if (!temporalAddress) {
    const cli = await ensureTemporalCli((l) => console.log(l));
    const dev: DevServer = await startDevServer({ cli, port: 0, log: testLog });
    cleanups.push(() => dev.stop());
    temporalAddress = dev.address;
  }
  // The accounting sandboxes: real HTTP providers on loopback (docs/accounting.md).
  const sandboxes = await startTestSandboxes();
  cleanups.push(() => sandboxes.close());
  const config = testConfig({
    databaseUrl,
    temporalAddress,
    accountingEncryptionKey: newEncryptionKey(),
    accountingSandboxOAuthUrl: sandboxes.oauth.url,
    accountingSandboxOAuthClientId: sandboxes.oauth.clientId,
    accountingSandboxOAuthClientSecret: sandboxes.oauth.clientSecret,
    accountingSandboxFormUrl: sandboxes.form.url,
    accountingSyncPollSeconds: 1,
  });
  const temporal = createTemporalProvider({ address: temporalAddress, namespace: config.temporalNamespace, taskQueue: config.taskQueue });
  cleanups.push(() => temporal.close());
  const client = await temporal.client();
  await ensureSearchAttributes(client.connection, config.temporalNamespace);

  // Built once, as a composition root does, and shared by the worker and every app of the env.
  const gateways = createModeGateways({ db, config: gatewayConfigFromEnv() });
  const metrics = createMetrics();
  const worker = await createBillingWorker({
    db,
    config,
    gateways,
    log: testLog,
    metrics,
    address: temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
  });
  const running = worker.run();
  cleanups.push(async () => {
    await worker.shutdown();
    await running.catch(() => undefined);
  });
  const app = recordingSecrets(createApp({ db, config, temporal, workflows: createWorkflowClients(temporal), gateways, log: testLog, logger: testLogger, metrics }));
  const http = await listen(app, 0, '127.0.0.1');
  cleanups.push(async () => {
    await http.close(1000);
    await app.shutdown();
  });

  // Links the service builds (checkout, OAuth callback) point at this app.
  config.publicBaseUrl = `http://127.0.0.1:${http.port}`;
  return {
    config,
    sandboxes,
    databaseUrl,
    db,
    temporalAddress,
    temporal,
    gateways,
    client,
    worker,
    http,
    baseUrl: `http://127.0.0.1:${http.port}`,
    metrics,
    async startApp(overrides, otherTemporal) {
      const cfg = { ...config, ...overrides };
      const other = recordingSecrets(
        createApp({
          db,
          config: cfg,
          temporal: otherTemporal ?? temporal,
          workflows: createWorkflowClients(otherTemporal ?? temporal),
          gateways,
          log: testLog,
          logger: testLogger,
        }),
      );
      const h = await listen(other, 0, '127.0.0.1');
      cleanups.push(async () => {
        await h.close(1000);
        await other.shutdown();
      });
      return `http://127.0.0.1:${h.port}`;
    },
  };
}

async function startTestSandboxes(): Promise<{ oauth: AccountingSandbox; form: AccountingSandbox; close(): Promise<void> }> {
  const oauth = await startAccountingSandbox({ kind: 'oauth', rateLimitPerSecond: 10_000 });
  const form = await startAccountingSandbox({ kind: 'form', rateLimitPerSecond: 10_000 });
  return { oauth, form, close: async () => void (await Promise.all([oauth.close(), form.close()])) };
}

export function testEnv(): Promise<TestEnv> {
  envPromise ??= start();
  return envPromise;
}

/**
 * The shared environment and the merchants a test file starts with, made one after another in
 * this order: `before(async () => ([env, m, other] = await envAndMerchants(liveMerchant, newMerchant)));`
 */
export async function envAndMerchants<M extends unknown[]>(...makers: { [K in keyof M]: (env: TestEnv) => Promise<M[K]> }): Promise<[TestEnv, ...M]> {
  const env = await testEnv();
  const made: unknown[] = [];
  for (const make of makers) made.push(await make(env));
  return [env, ...(made as M)];
}

/**
 * Subscription workflows of this run (its task queue) that ended FAILED, as the Temporal
 * visibility API lists them: a subscription workflow never fails on business data, so the
 * suite checks at its end that there are none (test/support/hooks.ts).
 */
export async function failedSubscriptionWorkflows(): Promise<string[]> {
  return envPromise ? subscriptionWorkflowsWithStatus('Failed') : [];
}

/** Subscription workflow runs of this test run in an execution status ('Failed', 'Running', …). */
export async function subscriptionWorkflowsWithStatus(status: string): Promise<string[]> {
  const env = await testEnv();
  const ids: string[] = [];
  const query = `WorkflowType = '${SUBSCRIPTION_WORKFLOW}' AND ExecutionStatus = '${status}' AND TaskQueue = '${env.config.taskQueue}'`;
  for await (const wf of env.client.workflow.list({ query })) ids.push(`${wf.workflowId} (run ${wf.runId})`);
  return ids;
}

export async function teardownTestEnv(): Promise<void> {
  if (!envPromise) return;
  await envPromise.catch(() => undefined);
  while (cleanups.length) {
    const c = cleanups.pop()!;
    await c().catch((e: unknown) => console.error('teardown:', (e as Error).message));
  }
  envPromise = undefined;
}
