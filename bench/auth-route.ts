// Benchmark: authenticated GET /v1/merchants/current (key lookup + rate-limit count in
// PostgreSQL, tenancy, envelope) against a bare Koa hello-world, same machine, same run, same
// load generator (this process; the servers are child processes). Target: ratio ≥ 0.5.
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../src/db/client';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { runLoad, type LoadResult } from './load';
import { benchDatabase, fmt, procCpuMs, startServer } from './support';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);

/** Runs a load and measures the server's own CPU time per request (robust to a busy machine, unlike req/s). */
async function measured(pid: number | undefined, run: () => Promise<LoadResult>): Promise<LoadResult & { cpuUsPerRequest: number | null }> {
  const before = procCpuMs(pid);
  const r = await run();
  const after = procCpuMs(pid);
  return { ...r, cpuUsPerRequest: before === null || after === null || r.requests === 0 ? null : ((after - before) * 1000) / r.requests };
}

function line(name: string, r: LoadResult): string {
  return `  ${name.padEnd(34)} ${fmt(r.rps).padStart(8)} req/s   p50 ${fmt(r.p50Ms, 2)} ms   p99 ${fmt(r.p99Ms, 2)} ms   (${r.requests} requests, ${r.errors} errors)`;
}

export async function main(): Promise<{ ratio: number; cpuRatio?: number }> {
  console.log(`auth-route benchmark: ${CONCURRENCY} concurrent keep-alive clients, ${DURATION_MS / 1000} s per server, after a 2 s warm-up`);
  const database = await benchDatabase();
  const db = createDb(database.url, { poolSize: 2 });
  const { merchant, secretKey } = await createMerchant(db, { name: 'Bench merchant' });
  await db.$disconnect();
  const hello = await startServer(path.join(__dirname, 'servers', 'hello.js'));
  const api = await startServer(path.join(__dirname, 'servers', 'api.js'), { BENCH_DATABASE_URL: database.url });
  try {
    const helloUrl = `http://127.0.0.1:${hello.port}/`;
    const apiUrl = `http://127.0.0.1:${api.port}/v1/merchants/current`;
    const headers = { Authorization: `Bearer ${secretKey}` };
    const check = await fetch(apiUrl, { headers });
    const body = (await check.json()) as { id?: string };
    if (check.status !== 200 || body.id !== merchant.id) throw new Error(`API answered ${check.status} ${JSON.stringify(body)}`);
    console.log('  warming up…');
    await runLoad({ url: helloUrl, concurrency: CONCURRENCY, durationMs: 2000 });
    await runLoad({ url: apiUrl, headers, concurrency: CONCURRENCY, durationMs: 2000 });
    console.log('  measuring bare Koa…');
    const base = await measured(hello.child.pid, () => runLoad({ url: helloUrl, concurrency: CONCURRENCY, durationMs: DURATION_MS }));
    console.log('  measuring the API…');
    const auth = await measured(api.child.pid, () => runLoad({ url: apiUrl, headers, concurrency: CONCURRENCY, durationMs: DURATION_MS }));
    if (auth.errors > 0 || base.errors > 0) throw new Error(`errors during the run: api ${auth.errors}, baseline ${base.errors}`);
    const ratio = auth.rps / base.rps;
    console.log(line('bare Koa hello-world (baseline)', base));
    console.log(line('GET /v1/merchants/current (auth)', auth));
    console.log(`  ratio (auth / baseline): ${ratio.toFixed(2)}   target ≥ 0.50   ${ratio >= 0.5 ? 'MET' : 'NOT MET'}`);
    // Server CPU per request: what each response costs the server process itself. On a machine
    // shared with other work, req/s follows whatever CPU share the processes get; this does not.
    if (base.cpuUsPerRequest !== null && auth.cpuUsPerRequest !== null) {
      const cpuRatio = base.cpuUsPerRequest / auth.cpuUsPerRequest;
      console.log(
        `  server CPU per request: baseline ${fmt(base.cpuUsPerRequest)} µs, auth ${fmt(auth.cpuUsPerRequest)} µs; ratio (baseline / auth) ${cpuRatio.toFixed(2)}   (load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')})`,
      );
      return { ratio, cpuRatio };
    }
    return { ratio };
  } finally {
    await hello.stop();
    await api.stop();
    await database.drop();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
