// `npm run worker`: a Temporal worker alone. Add processes to scale; they share the task queue.
import { loadConfig } from '../config';
import { createDb } from '../db/client';
import { prepareDatabase } from '../runtime/database';
import { createTemporalProvider } from '../temporal/client';
import { ensureSearchAttributes } from '../temporal/provision';
import { ensureSchedules } from '../temporal/schedules';
import { createBillingWorker } from '../worker';
import { createModeGateways, gatewayConfigFromEnv } from '../gateways';
import { fail } from './common';
import { createObservability, installTemporalRuntime, serveWorkerMetrics } from '../runtime/observability';
import { readiness } from '../runtime/readiness';
import { resolveAccountingKey } from '../runtime/accounting';
import { sealSecretsAtStart } from '../runtime/secrets';

const obs = createObservability('worker');
const log = obs.log;

async function main(): Promise<void> {
  const loaded = loadConfig();
  const config = { ...loaded, accountingEncryptionKey: resolveAccountingKey(loaded, log) };
  const databaseUrl = await prepareDatabase(config.databaseUrl, log);
  const db = createDb(databaseUrl, { preparedStatements: config.dbPreparedStatements });
  await sealSecretsAtStart(db, config, log);
  const address = config.temporalAddress ?? '127.0.0.1:7233';
  const temporal = createTemporalProvider({ address, namespace: config.temporalNamespace, taskQueue: config.taskQueue });
  const client = await temporal.client();
  await ensureSearchAttributes(client.connection, config.temporalNamespace);
  await ensureSchedules(client, { taskQueue: config.taskQueue, idempotencyRetentionHours: config.idempotencyRetentionHours });
  const gateways = createModeGateways({ db, config: gatewayConfigFromEnv() });
  const sdkMetrics = installTemporalRuntime(obs.logger);
  if (sdkMetrics) log(`Temporal SDK worker metrics on http://${sdkMetrics}/metrics`);
  const metricsPort = process.env.METRICS_PORT ? Number(process.env.METRICS_PORT) : null;
  const metricsServer = metricsPort
    ? await serveWorkerMetrics({ port: metricsPort, metrics: obs.metrics, metricsToken: config.metricsToken, ready: () => readiness({ db, temporal }) })
    : null;
  if (metricsPort) log(`worker metrics on http://localhost:${metricsPort}/metrics (liveness /livez, readiness /readyz)`);
  const worker = await createBillingWorker({ db, config, gateways, log, metrics: obs.metrics, address, namespace: config.temporalNamespace, taskQueue: config.taskQueue });
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
    await worker.shutdown();
    metricsServer?.close();
    await temporal.close();
    await db.$disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await worker.run();
}

main().catch(fail);
