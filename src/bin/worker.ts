// `npm run worker`: a Temporal worker alone. Add processes to scale; they share the task queue.
import { loadConfig } from '../config';
import { createDb } from '../db/client';
import { prepareDatabase } from '../runtime/database';
import { createTemporalProvider } from '../temporal/client';
import { ensureSearchAttributes } from '../temporal/provision';
import { ensureSchedules } from '../temporal/schedules';
import { createBillingWorker } from '../worker';
import { createModeGateways, gatewayConfigFromEnv } from '../gateways';
import { fail, log } from './common';
import { resolveAccountingKey } from '../runtime/accounting';

async function main(): Promise<void> {
  const loaded = loadConfig();
  const config = { ...loaded, accountingEncryptionKey: resolveAccountingKey(loaded, log) };
  const databaseUrl = await prepareDatabase(config.databaseUrl, log);
  const db = createDb(databaseUrl);
  const address = config.temporalAddress ?? '127.0.0.1:7233';
  const temporal = createTemporalProvider({ address, namespace: config.temporalNamespace, taskQueue: config.taskQueue });
  const client = await temporal.client();
  await ensureSearchAttributes(client.connection, config.temporalNamespace);
  await ensureSchedules(client, { taskQueue: config.taskQueue, idempotencyRetentionHours: config.idempotencyRetentionHours });
  const gateways = createModeGateways({ db, config: gatewayConfigFromEnv() });
  const worker = await createBillingWorker({ db, config, gateways, log, address, namespace: config.temporalNamespace, taskQueue: config.taskQueue });
  log(`worker polling task queue "${config.taskQueue}" at ${address}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: letting running activities finish`);
    await worker.shutdown();
    await temporal.close();
    await db.$disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await worker.run();
}

main().catch(fail);
