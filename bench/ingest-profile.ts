// Profile of the ingest statement (issue 32): EXPLAIN (ANALYZE, BUFFERS) of one 1,000-event
// batch through the statement POST /v1/events/batch runs, for an event name two meters read
// (a filtered `sum` and a `unique`) with the rollup rows given by the API (rollupContributions,
// what a batch of new keys does), the same with them computed in SQL (what a batch with a key
// seen before does), for a name no meter reads, and bench/ingest's raw multi-row insert of the
// same events, on a database of its own. The variants take turns batch by batch.
// Run: `node dist/bench/ingest-profile.js` after a build. Prints each variant's median batch time
// and the backend's CPU per batch, then the plans (settings PROFILE_BATCHES and PROFILE_SQL, below).
import { Client } from 'pg';
import { createDb } from '../src/db/client';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { newId } from '../src/ids';
import { INSERT_SQL, rollupRowsJson } from '../src/domain/usage-events/ingest-usage-events';
import { newUsageEventIdParts, EVENT_ID_RANDOM_CHARS } from '../src/domain/usage-events/event-ids';
import { rollupContributions, type RollupMeter } from '../src/metering';
import { meterDefinition } from '../src/domain/meters/manage-meters';
import { benchDatabase, procCpuMs } from './support';
import { rawInsertText } from './ingest';

const PERIOD_START = Date.UTC(2026, 0, 1);

/** The statement's parameters $3 and $6–$9 for n events of one customer (index 1) and name (index 1). */
function payload(n: number, offset: number, keyPrefix: string, customerId: string, meters: RollupMeter[]) {
  const { prefix, random } = newUsageEventIdParts(n);
  const parts: string[] = [];
  const events = [];
  for (let r = 0; r < n; r++) {
    const i = offset + r;
    const metadata = { units: (i % 10) + 1, region: 'eu', endpoint: `/v1/items/${i % 50}` };
    const ts = PERIOD_START + i * 2678;
    parts.push(
      `[1,1,"${keyPrefix}-${String(i).padStart(9, '0')}",${ts},"${random.slice(r * EVENT_ID_RANDOM_CHARS, (r + 1) * EVENT_ID_RANDOM_CHARS)}",${JSON.stringify(metadata)}]`,
    );
    events.push({ customerId, eventName: keyPrefix, timestamp: new Date(ts), metadata });
  }
  const c = rollupContributions(events, new Map([[keyPrefix, meters]]));
  const rollups = rollupRowsJson(c, new Map(meters.map((m, i) => [m.id, i + 1])), new Map([[customerId, 1]]));
  return { rows: `[${parts.join(',')}]`, events, prefix, meterIds: meters.map((m) => m.id), rollups };
}

/** The baseline statement's 8,000 values for the same events (rawInsertText's column order). */
function rawValues(events: Array<{ customerId: string; eventName: string; timestamp: Date; metadata: object }>, merchantId: string): unknown[] {
  const values: unknown[] = [];
  for (const [i, e] of events.entries()) {
    values.push(newId('usageEvent'), merchantId, 'test', e.customerId, e.eventName, `raw-${e.timestamp.getTime()}-${i}`, e.timestamp.toISOString(), JSON.stringify(e.metadata));
  }
  return values;
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
    const meters = [await meter('sum', 'units', { region: 'eu' }), await meter('unique', 'endpoint', {})].map((m) => ({ id: m.id, definition: meterDefinition(m) }));
    // PROFILE_SQL: a statement run on the profile's database first, to compare a variant of the
    // schema (e.g. 'DROP INDEX usage_event_keys_timestamp_idx') against the same batches.
    if (process.env.PROFILE_SQL) await c.query(process.env.PROFILE_SQL);
    // PROFILE_BATCHES (21): batches per variant. The variants take turns batch by batch, so a
    // drift of the machine or the tables' growth weighs on each alike; the first half is a warm-up,
    // the median wall time and the backend's mean CPU of the second half are printed, then
    // EXPLAIN ANALYZE of one more batch of each.
    const batches = Math.max(2, Number(process.env.PROFILE_BATCHES ?? 21));
    const measuredFrom = Math.ceil(batches / 2);
    // The backend's own CPU (user + system, /proc) per batch: less noisy than its wall time, which
    // includes waiting for the WAL flush at each commit.
    const backendPid = Number((await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    // 'computed in SQL': the same batches with $7 = -1 rows expected, so the statement computes
    // the rollups from the rows it inserted, as for a batch with a key seen before.
    // 'raw INSERT': bench/ingest's baseline statement (8,000 parameters, named), for the gap.
    const variants = [
      { label: 'api.request (rollups given)', name: 'api.request', meters, forceSql: false, raw: false, times: [] as number[], cpu: 0 },
      { label: 'api.request (computed in SQL)', name: 'api.request', meters, forceSql: true, raw: false, times: [] as number[], cpu: 0 },
      { label: 'api.unmetered', name: 'api.unmetered', meters: [] as RollupMeter[], forceSql: false, raw: false, times: [] as number[], cpu: 0 },
      { label: 'raw INSERT (the baseline)', name: 'api.raw', meters: [] as RollupMeter[], forceSql: false, raw: true, times: [] as number[], cpu: 0 },
    ];
    const rawText = rawInsertText(1000);
    let offset = 0;
    const run = async (v: (typeof variants)[number], sql: string) => {
      const p = payload(1000, offset, v.name, customer.id, v.meters);
      offset += 1000;
      const statement = v.raw
        ? {
            ...(sql === INSERT_SQL ? { name: 'raw_insert' } : {}),
            text: sql === INSERT_SQL ? rawText : `EXPLAIN (ANALYZE, BUFFERS, TIMING) ${rawText}`,
            values: rawValues(p.events, merchant.id),
          }
        : { text: sql, values: [merchant.id, 'test', p.rows, [customer.id], [v.name], p.prefix, v.forceSql ? -1 : 1000, p.meterIds, p.rollups] };
      const cpuFrom = procCpuMs(backendPid);
      const t = process.hrtime.bigint();
      const r = await c.query(statement);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      const cpuTo = procCpuMs(backendPid);
      return { r, ms, cpu: cpuFrom === null || cpuTo === null ? NaN : cpuTo - cpuFrom };
    };
    for (let b = 0; b < batches; b++) {
      for (const v of variants) {
        const { ms, cpu } = await run(v, INSERT_SQL);
        if (b >= measuredFrom) {
          v.times.push(ms);
          v.cpu += cpu;
        }
      }
    }
    for (const v of variants) {
      const sorted = [...v.times].sort((x, y) => x - y);
      console.log(
        `${v.label}: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms per 1,000-event batch, backend CPU ${(v.cpu / v.times.length).toFixed(1)} ms per batch, over ${v.times.length} batches`,
      );
    }
    for (const v of variants) {
      const { r } = await run(v, `EXPLAIN (ANALYZE, BUFFERS, TIMING) ${INSERT_SQL}`);
      console.log(`${v.label}: EXPLAIN ANALYZE of one more batch`);
      console.log(r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n'));
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
