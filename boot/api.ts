// `npm run api`: the API alone (scale it separately from workers). Needs a reachable database
// (DATABASE_URL or the local default) and Temporal (TEMPORAL_ADDRESS or 127.0.0.1:7233).
import { loadConfig } from '../src/config';
import { closeProbe, createDb, servicePoolOptions } from '../src/db/client';
import { prepareDatabase } from './runtime/database';
import { listen } from './runtime/http';
import { createTemporalProvider } from '../src/temporal/client';
import { createApp } from '../api/app';
import { createWorkflowClients } from '../src/temporal/workflow-clients';
import { createModeGateways, gatewayConfigFromEnv } from '../src/gateways';
import { fail } from './common';
import { createObservability } from './runtime/observability';
import { resolveAccountingKey } from './runtime/accounting';
import { sealSecretsAtStart } from './runtime/secrets';

const obs = createObservability('api');
const log = obs.log;

async function main(): Promise<void> {
  const loaded = loadConfig();
  const config = { ...loaded, accountingEncryptionKey: resolveAccountingKey(loaded, log) };
  const databaseUrl = await prepareDatabase(config.databaseUrl, log);
  const db = createDb(databaseUrl, servicePoolOptions(config, 'api'));
  await sealSecretsAtStart(db, config, log);
  const temporal = createTemporalProvider({
    address: config.temporalAddress ?? '127.0.0.1:7233',
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    callTimeoutMs: config.temporalCallTimeoutMs,
  });
  const gateways = createModeGateways({ db, config: gatewayConfigFromEnv() });
  const app = createApp({ db, config: { ...config, databaseUrl }, temporal, workflows: createWorkflowClients(temporal), gateways, log, logger: obs.logger, metrics: obs.metrics });
  const http = await listen(app, config.port);
  log(`API listening on http://localhost:${http.port} (liveness /livez, readiness /readyz, metrics /metrics)`);
  // SIGTERM: /readyz answers 503 for SHUTDOWN_DRAIN_SECONDS while requests are still served (the
  // load balancer takes the process out), then the listener closes and requests in flight finish
  // (up to SHUTDOWN_GRACE_SECONDS). A second signal ends the drain period at once.
  let stopping = false;
  let endDrain: (() => void) | undefined;
  const stop = async (signal: string) => {
    if (stopping) return endDrain?.();
    stopping = true;
    app.drain();
    log(`${signal}: draining for ${config.shutdownDrainSeconds} s (GET /readyz answers 503), then closing the listener`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, config.shutdownDrainSeconds * 1000);
      endDrain = () => (clearTimeout(timer), resolve());
    });
    log('closing the listener; finishing requests in flight');
    await http.close(config.shutdownGraceSeconds * 1000);
    await app.shutdown();
    await temporal.close();
    await closeProbe(db);
    await db.$disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch(fail);
