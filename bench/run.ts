// `npm run bench`: every benchmark in turn; each prints its own ratio against a baseline
// measured in the same run. `npm run bench -- auth` runs only the named ones.
import { DefaultLogger, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { main as authRoute } from './auth-route';
import { main as ingest } from './ingest';
import { main as subscriptions } from './subscriptions';
import { main as accounting } from './accounting';
import { main as soak } from './soak';
import { main as decimal } from './decimal';

// Benchmarks print their own progress; SDK logs only from WARN, core logs only from ERROR
// (BENCH_LOG=1 shows everything).
Runtime.install({
  logger: new DefaultLogger(process.env.BENCH_LOG === '1' ? 'INFO' : 'WARN'),
  telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: process.env.BENCH_LOG === '1' ? 'WARN' : 'ERROR' }), forward: {} } },
});

const BENCHMARKS: Record<string, () => Promise<unknown>> = {
  auth: authRoute,
  ingest,
  subscriptions,
  accounting,
  soak,
  decimal,
};
/** Run only when named (`npm run bench -- soak`): it takes 20 minutes by default. */
const ON_REQUEST = new Set(['soak']);

async function run(): Promise<void> {
  const wanted = process.argv.slice(2);
  const names = wanted.length ? wanted : Object.keys(BENCHMARKS).filter((n) => !ON_REQUEST.has(n));
  for (const name of names) {
    const bench = BENCHMARKS[name];
    if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
    console.log(`\n=== ${name} ===`);
    await bench();
  }
}

run().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
