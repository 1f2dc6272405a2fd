// Profile of the ingest statement (issue 32): EXPLAIN (ANALYZE, BUFFERS) of one 1,000-event
// batch through the statement POST /v1/events/batch runs, for an event name two meters read
// (a filtered `sum` and a `unique`) and for one no meter reads, on a database of its own.
// Run: `node dist/bench/ingest-profile.js` after a build. Prints the median batch time and the
// plans (settings PROFILE_BATCHES and PROFILE_SQL, below).
import { Client } from 'pg';
import { createDb } from '../src/db/client';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { newId } from '../src/ids';
import { INSERT_SQL } from '../src/domain/usage-events/ingest-usage-events';
import { newUsageEventIdParts, EVENT_ID_RANDOM_CHARS } from '../src/domain/usage-events/event-ids';
import { benchDatabase, procCpuMs } from './support';

const PERIOD_START = Date.UTC(2026, 0, 1);

function payload(n: number, offset: number, keyPrefix: string): { base64: string; prefix: string } {
  const { prefix, random } = newUsageEventIdParts(n);
  const parts: string[] = [];
  for (let r = 0; r < n; r++) {
    const i = offset + r;
    const meta = JSON.stringify({ units: (i % 10) + 1, region: 'eu', endpoint: `/v1/items/${i % 50}` });
    parts.push(
      `[1,1,"${keyPrefix}-${String(i).padStart(9, '0')}",${PERIOD_START + i * 2678},"${random.slice(r * EVENT_ID_RANDOM_CHARS, (r + 1) * EVENT_ID_RANDOM_CHARS)}",${meta}]`,
    );
  }
  return { base64: Buffer.from(`[${parts.join(',')}]`).toString('base64'), prefix };
}

export async function main(): Promise<void> {
  const database = await benchDatabase();
  const db = createDb(database.url, { poolSize: 1 });
  const c = new Client({ connectionString: database.url });
  await c.connect();
  try {
    const { merchant } = await createMerchant(db, { name: 'Profile merchant' });
    const customer = await db.customer.create({ data: { id: newId('customer'), merchantId: merchant.id, mode: 'test', email: 'p@bench.example', metadata: {} } });
    const meter = (aggregateType: 'sum' | 'unique', aggregateProperty: string, filter: object) =>
      db.meter.create({
        data: {
          id: newId('meter'),
          merchantId: merchant.id,
          mode: 'test',
          name: aggregateType,
          eventName: 'api.request',
          aggregateType,
          aggregateProperty,
          filter,
          unitMultiplier: 1,
        },
      });
    await meter('sum', 'units', { region: 'eu' });
    await meter('unique', 'endpoint', {});
    // PROFILE_SQL: a statement run on the profile's database first, to compare a variant of the
    // schema (e.g. 'DROP INDEX usage_event_keys_timestamp_idx') against the same batches.
    if (process.env.PROFILE_SQL) await c.query(process.env.PROFILE_SQL);
    // PROFILE_BATCHES (21): batches per event name; the last is explained, the median of the
    // second half of the others is printed.
    const batches = Math.max(2, Number(process.env.PROFILE_BATCHES ?? 21));
    const measuredFrom = Math.ceil((batches - 1) / 2);
    // The backend's own CPU (user + system, /proc) over the measured batches: less noisy than
    // their wall time, which includes waiting for the WAL flush at each commit.
    const backendPid = Number((await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    for (const name of ['api.request', 'api.unmetered']) {
      const times: number[] = [];
      let cpuFrom: number | null = null;
      for (let b = 0; b < batches; b++) {
        if (b === measuredFrom) cpuFrom = procCpuMs(backendPid);
        const p = payload(1000, b * 1000, name);
        const last = b === batches - 1;
        const sql = last ? `EXPLAIN (ANALYZE, BUFFERS, TIMING) ${INSERT_SQL}` : INSERT_SQL;
        const t = process.hrtime.bigint();
        const r = await c.query(sql, [merchant.id, 'test', p.base64, [customer.id], [name], p.prefix]);
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (!last && b >= measuredFrom) times.push(ms);
        if (b === batches - 2) {
          const cpuTo = procCpuMs(backendPid);
          const cpu = cpuFrom === null || cpuTo === null ? 'n/a' : `${((cpuTo - cpuFrom) / times.length).toFixed(1)} ms`;
          const sorted = [...times].sort((x, y) => x - y);
          console.log(`${name}: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms per 1,000-event batch, backend CPU ${cpu} per batch, over ${sorted.length} batches`);
        }
        if (last) {
          console.log(r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n'));
        }
      }
    }
  } finally {
    await c.end();
    await db.$disconnect();
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
