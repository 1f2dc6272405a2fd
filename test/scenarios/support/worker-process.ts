// A billing worker in its own process, for the worker-kill test: the test SIGKILLs it in the
// middle of a billing step, exactly as a crashed machine would stop. Configured by environment:
// DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE (and CARD_SIMULATOR_SLOW_DELAY_MS).
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../../../src/config';
import { createDb } from '../../../src/db/client';
import { createBillingWorker } from '../../../boot/runtime/worker';
import { createModeGateways, gatewayConfigFromEnv } from '../../../src/gateways';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const config = loadConfig();
  const db = createDb(config.databaseUrl!);
  const worker = await createBillingWorker({
    db,
    config,
    gateways: createModeGateways({ db, config: gatewayConfigFromEnv() }),
    log: () => undefined,
    address: config.temporalAddress!,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
  });
  const running = worker.run();
  process.stdout.write('worker ready\n');
  await running;
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
