// `npm run worker`: a Temporal worker alone. Add processes to scale; they share the task queue.
import { loadConfig } from '../src/config';
import { closeProbe, createDb, servicePoolOptions, poolUse } from '../src/db/client';
import { prepareDatabase } from './runtime/database';
import { createTemporalProvider, untilTemporalAnswers } from '../src/temporal/client';
import { readyTimeoutMs } from '../src/temporal/dev-server';
import { ensureSearchAttributes } from '../src/temporal/provision';
import { ensureSchedules } from '../src/temporal/schedules';
import { createBillingWorker } from './runtime/worker';
import { startTableStatisticsGuard } from '../src/db/table-statistics';
import { createModeGateways, gatewayConfigFromEnv } from '../src/gateways';
import { fail } from './common';
import { createObservability, installTemporalRuntime, serveWorkerMetrics } from './runtime/observability';
import { readiness } from '../src/observability/readiness';
import { resolveAccountingKey } from './runtime/accounting';
import { sealSecretsAtStart } from './runtime/secrets';

const obs = createObservability('worker');
const log = obs.log;

async function main(): Promise<void> {
  const loaded = loadConfig();
  const config = { ...loaded, accountingEncryptionKey: resolveAccountingKey(loaded, log) };
  const databaseUrl = await prepareDatabase(config.databaseUrl, log);
  const db = createDb(databaseUrl, servicePoolOptions(config, 'worker'));
  obs.metrics.watchPool('worker', () => poolUse(db));
  await sealSecretsAtStart(db, config, log);
  const address = config.temporalAddress ?? '127.0.0.1:7233';
  const temporal = createTemporalProvider({ address, namespace: config.temporalNamespace, taskQueue: config.taskQueue, callTimeoutMs: config.temporalCallTimeoutMs });
  // Temporal may come up after the worker (compose, a restarted cluster) or answer slowly on a busy
  // machine: wait for it rather than exit on the first failed connect.
  await untilTemporalAnswers(temporal, readyTimeoutMs(), log);
  const client = await temporal.client();
  await ensureSearchAttributes(client.connection, config.temporalNamespace);
  await ensureSchedules(client, {
    taskQueue: config.taskQueue,
    idempotencyRetentionHours: config.idempotencyRetentionHours,
    usageRawRetentionMonths: config.usageRawRetentionMonths,
  });
  const gateways = createModeGateways({ db, config: gatewayConfigFromEnv() });
  const sdkMetrics = installTemporalRuntime(obs.logger);
  if (sdkMetrics) log(`Temporal SDK worker metrics on http://${sdkMetrics}/metrics`);
  const metricsPort = process.env.METRICS_PORT ? Number(process.env.METRICS_PORT) : null;
  // Ready means polling: /readyz answers 503 (check `worker`) until every Temporal worker of this
  // process runs its poll loops (after the workflow bundle is built), and again once it stops.
  let worker: Awaited<ReturnType<typeof createBillingWorker>> | undefined;
  const ready = async () => {
    const r = await readiness({ db, temporal });
    const states = worker?.workers.map((w) => w.getState()) ?? ['STARTING'];
    const polling = states.every((s) => s === 'RUNNING');
    return { ready: r.ready && polling, checks: { ...r.checks, worker: { ok: polling, states, task_queue: config.taskQueue } } };
  };
  const metricsServer = metricsPort ? await serveWorkerMetrics({ port: metricsPort, metrics: obs.metrics, metricsToken: config.metricsToken, ready }) : null;
  if (metricsPort) log(`worker metrics on http://localhost:${metricsPort}/metrics (liveness /livez, readiness /readyz)`);
  worker = await createBillingWorker({ db, config, gateways, log, metrics: obs.metrics, address, namespace: config.temporalNamespace, taskQueue: config.taskQueue });
  // Planner statistics and dead rows on a server running without autovacuum (src/db/table-statistics.ts).
  const statistics = startTableStatisticsGuard(db, { intervalSeconds: config.dbStatisticsGuardSeconds, log });
  const { shards, cachedWorkflowsPerShard } = worker.settings;
  log(
    `worker polling task queue "${config.taskQueue}" at ${address}: ${shards} Temporal worker(s) (WORKER_SHARDS), ` +
      `workflow cache ${cachedWorkflowsPerShard ?? "the SDK's default"} each`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: letting running activities finish`);
    await worker?.shutdown();
    await statistics.stop();
    metricsServer?.close();
    await temporal.close();
    await closeProbe(db);
    await db.$disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await worker.run();
}

main().catch(fail);
