// `npm start`: brings up what is missing (database, migrations, Temporal dev server with its
// Web UI) and runs the API and a worker in one process. SIGTERM/SIGINT drain HTTP, let running
// activities finish, then stop what this process started.
import { sealSecretsAtStart } from './runtime/secrets';
import { loadConfig } from '../src/config';
import { closeProbe, createDb, servicePoolOptions, poolUse } from '../src/db/client';
import { prepareDatabase } from './runtime/database';
import { prepareTemporal } from './runtime/temporal';
import { seedDefaultMerchant } from './runtime/seed';
import { listen } from './runtime/http';
import { createTemporalProvider } from '../src/temporal/client';
import { ensureSchedules } from '../src/temporal/schedules';
import { createBillingWorker } from './runtime/worker';
import { startTableStatisticsGuard } from '../src/db/table-statistics';
import { createApp } from '../api/app';
import { createWorkflowClients } from '../src/temporal/workflow-clients';
import { createModeGateways, gatewayConfigFromEnv } from '../src/gateways';
import { fail } from './common';
import { createObservability, installTemporalRuntime } from './runtime/observability';
import { resolveAccountingKey, startSandboxes } from './runtime/accounting';

let startedDevServer: { stop(): Promise<void> } | undefined;
const obs = createObservability('billing');
const log = obs.log;

async function main(): Promise<void> {
  const loaded = loadConfig();
  const withKey = { ...loaded, accountingEncryptionKey: resolveAccountingKey(loaded, log) };
  const { config, sandboxes } = await startSandboxes(withKey);
  // The database and Temporal (on a first start, building its CLI takes minutes) in parallel.
  const [dbResult, temporalResult] = await Promise.allSettled([
    prepareDatabase(config.databaseUrl, log),
    prepareTemporal({
      address: config.temporalAddress,
      namespace: config.temporalNamespace,
      dataDir: config.dataDir,
      uiPort: config.temporalUiPort,
      log,
    }),
  ]);
  if (temporalResult.status === 'fulfilled') startedDevServer = temporalResult.value.devServer;
  if (dbResult.status === 'rejected') throw dbResult.reason;
  if (temporalResult.status === 'rejected') throw temporalResult.reason;
  const databaseUrl = dbResult.value;
  const temporalEndpoint = temporalResult.value;
  // The API and the worker of this process have a pool each (DB_POOL_SIZE_API, DB_POOL_SIZE_WORKER):
  // a burst of requests cannot take the connections the activities they wait for need, nor the
  // other way round (docs/operations.md "Pools and back-pressure").
  const db = createDb(databaseUrl, servicePoolOptions(config, 'api'));
  const workerDb = createDb(databaseUrl, servicePoolOptions(config, 'worker'));
  await sealSecretsAtStart(db, config, log);
  const temporal = createTemporalProvider({
    address: temporalEndpoint.address,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    callTimeoutMs: config.temporalCallTimeoutMs,
  });
  await ensureSchedules(await temporal.client(), {
    taskQueue: config.taskQueue,
    idempotencyRetentionHours: config.idempotencyRetentionHours,
    usageRawRetentionMonths: config.usageRawRetentionMonths,
  });

  // One set of gateways per pool (a simulator records on the pool it was given).
  const gateways = createModeGateways({ db, config: gatewayConfigFromEnv() });
  const workerGateways = createModeGateways({ db: workerDb, config: gatewayConfigFromEnv() });
  const sdkMetrics = installTemporalRuntime(obs.logger);
  obs.metrics.watchPool('worker', () => poolUse(workerDb));
  const worker = await createBillingWorker({
    db: workerDb,
    config,
    gateways: workerGateways,
    log,
    metrics: obs.metrics,
    address: temporalEndpoint.address,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
  });
  const workerRun = worker.run();
  // Planner statistics and dead rows on a server running without autovacuum (src/db/table-statistics.ts).
  const statistics = startTableStatisticsGuard(workerDb, { intervalSeconds: config.dbStatisticsGuardSeconds, log });
  const app = createApp({
    db,
    config: { ...config, databaseUrl, temporalUiUrl: temporalEndpoint.uiUrl ?? config.temporalUiUrl },
    temporal,
    workflows: createWorkflowClients(temporal),
    gateways,
    log,
    logger: obs.logger,
    metrics: obs.metrics,
  });
  const http = await listen(app, config.port);

  const seeded = await seedDefaultMerchant(db);
  const base = `http://localhost:${http.port}`;
  log(`worker polling task queue "${config.taskQueue}" in namespace "${config.temporalNamespace}" at ${temporalEndpoint.address}`);
  if (sandboxes) {
    log(
      `accounting sandboxes (test mode): OAuth provider ${sandboxes.oauth.url} · form provider ${sandboxes.form.url} (company_id ${sandboxes.form.defaultCompany.id}; its api_token is printed below)`,
    );
  }
  process.stdout.write(
    [
      '',
      'Ready:',
      `  API:                 ${base}/v1  (health ${base}/healthz, liveness ${base}/livez, readiness ${base}/readyz, metrics ${base}/metrics${sdkMetrics ? `; Temporal SDK metrics http://${sdkMetrics.replace(/^0\.0\.0\.0:/, 'localhost:')}/metrics` : ''})`,
      `  API reference:       ${base}/docs/api  (OpenAPI document ${base}/v1/openapi.json)`,
      `  merchant dashboard:  ${base}/dashboard`,
      `  customer portal:     ${base}/portal/open/…  (a link per customer: POST /v1/customer_portals returns its url)`,
      `  Temporal Web UI:     ${temporalEndpoint.uiUrl ?? config.temporalUiUrl}`,
      `  demo data:           BILLING_API_KEY=sk_test_… npx billing demo  (a believable Icelandic catalog, ~50 customers and a year of billing history; idempotent)`,
      ...(sandboxes ? [`  accounting sandbox:  form provider company_id ${sandboxes.form.defaultCompany.id}, api_token ${sandboxes.form.defaultCompany.apiToken}`] : []),
      '',
    ].join('\n') + '\n',
  );
  if ((await db.dashboardUser.count()) === 0) {
    const merchant = seeded?.merchantId ?? (await db.merchant.findFirst({ orderBy: { createdAt: 'asc' } }))?.id ?? 'MERCHANT_ID';
    process.stdout.write(
      [
        '',
        'No dashboard user yet. Create the first (an owner; the password is generated and shown once):',
        `  npx billing users create --merchant ${merchant} --email you@example.is --role owner`,
        `then sign in at http://localhost:${http.port}/dashboard and invite the rest of the team from its Team page.`,
        '',
      ].join('\n') + '\n',
    );
  }
  if (seeded) {
    process.stdout.write(
      [
        '',
        'Created the default test merchant (shown once; keys are stored only as hashes):',
        `  merchant id:          ${seeded.merchantId}`,
        `  secret test key:      ${seeded.secretKey}`,
        `  publishable test key: ${seeded.publishableKey}`,
        '',
        'Try it:',
        `  curl -s http://localhost:${http.port}/v1/merchants/current -H "Authorization: Bearer ${seeded.secretKey}"`,
        'Fill it with demo data (dashboard charts, lists, the portal and the ledger then have something to show):',
        `  BILLING_API_KEY=${seeded.secretKey} npx billing demo --api-url http://localhost:${http.port}`,
        '',
      ].join('\n') + '\n',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: draining HTTP, letting running activities finish`);
    await http.close();
    await app.shutdown();
    await worker.shutdown();
    await workerRun.catch(() => undefined);
    await statistics.stop();
    await temporal.close();
    await closeProbe(db);
    await db.$disconnect();
    await workerDb.$disconnect();
    if (temporalEndpoint.devServer) await temporalEndpoint.devServer.stop();
    await sandboxes?.close();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await workerRun.catch((err: unknown) => {
    if (!stopping) fail(err);
  });
}

main().catch(async (err: unknown) => {
  // Never leave a dev server behind when start-up fails half way.
  await startedDevServer?.stop().catch(() => undefined);
  fail(err);
});
