// The real API (createApp) on a given database, for benchmarks. Temporal is not needed by the
// routes measured here; the provider points at the address given (or a closed port).
import { createApp } from '../../api/app';
import { createWorkflowClients } from '../../src/temporal/workflow-clients';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/client';
import { createTemporalProvider } from '../../src/temporal/client';
import { createModeGateways, gatewayConfigFromEnv } from '../../src/gateways';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const config = { ...loadConfig({}), databaseUrl, logRequests: false, rateLimitRequests: 100_000_000, rateLimitWindowSeconds: 1 };
const db = createDb(databaseUrl, { poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10) });
const temporal = createTemporalProvider({ address: process.env.BENCH_TEMPORAL_ADDRESS ?? '127.0.0.1:1', namespace: 'default', taskQueue: 'bench' });
const app = createApp({
  db,
  config,
  temporal,
  workflows: createWorkflowClients(temporal),
  gateways: createModeGateways({ db, config: gatewayConfigFromEnv() }),
  log: () => undefined,
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as { port: number }).port });
});
process.on('SIGTERM', () => server.close(() => void db.$disconnect().then(() => process.exit(0))));
