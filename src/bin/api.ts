// `npm run api`: the API alone (scale it separately from workers). Needs a reachable database
// (DATABASE_URL or the local default) and Temporal (TEMPORAL_ADDRESS or 127.0.0.1:7233).
import { loadConfig } from '../config';
import { createDb } from '../db/client';
import { prepareDatabase } from '../runtime/database';
import { listen } from '../runtime/http';
import { createTemporalProvider } from '../temporal/client';
import { createApp } from '../../api/app';
import { createModeGateways, gatewayConfigFromEnv } from '../gateways';
import { fail } from './common';
import { createObservability } from '../runtime/observability';
import { resolveAccountingKey } from '../runtime/accounting';
import { sealSecretsAtStart } from '../runtime/secrets';

const obs = createObservability('api');
const log = obs.log;

async function main(): Promise<void> {
  const loaded = loadConfig();
  const config = { ...loaded, accountingEncryptionKey: resolveAccountingKey(loaded, log) };
  const databaseUrl = await prepareDatabase(config.databaseUrl, log);
  const db = createDb(databaseUrl, { preparedStatements: config.dbPreparedStatements });
  await sealSecretsAtStart(db, config, log);
  const temporal = createTemporalProvider({
    address: config.temporalAddress ?? '127.0.0.1:7233',
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
  });
  const gateways = createModeGateways({ db, config: gatewayConfigFromEnv() });
  const app = createApp({ db, config: { ...config, databaseUrl }, temporal, gateways, log, logger: obs.logger, metrics: obs.metrics });
  const http = await listen(app, config.port);
  log(`API listening on http://localhost:${http.port} (liveness /livez, readiness /readyz, metrics /metrics)`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: draining HTTP`);
    await http.close();
    await app.shutdown();
    await temporal.close();
    await db.$disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch(fail);
