// Benchmark: usage-event ingestion and meter quantities at scale (issue 4).
//
// In one run, on a database of its own (dropped at the end), with the real API as a child
// process on loopback (bench/servers/api.ts):
//  1. raw baseline: BENCH_EVENTS rows inserted straight into usage_events with `pg` multi-row
//     INSERTs (1,000 rows per statement, named prepared statement, 4 concurrent connections);
//  2. the API: the same number of events through POST /v1/events/batch (1,000 per request,
//     4 concurrent keep-alive clients), each event with an idempotency key, a live sum meter
//     checking every event;
//  then prints events/s for both and the ratio (target: API ≥ 0.5 × raw);
//     A live `sum` meter (filtered) and a live `unique` meter (on `endpoint`, 50 values) take
//     every event, so the API phase maintains both meters' rollups (issue 32: ≥ 0.6 × raw);
//  3. GET /v1/meters/{id}/quantities for the API customer (BENCH_EVENTS events in a period
//     whose edges fall inside hours) for the sum and the unique meter, against the bare SQL
//     aggregate over the raw rows (buildMeterAggregateQuery through `pg`, what the API ran
//     before the rollups); p50 and p99 of BENCH_QUANTITY_RUNS bare runs and 5× as many API runs,
//     interleaved (target: API ≤ 0.05 × bare SQL), and bytes per event in raw rows and rollups;
//  2b. optional (BENCH_UNMETERED_EVENTS): the API path for an event name no meter reads, to
//     isolate the rollups' share of the ingestion cost;
//  4. optional (BENCH_TABLE_EVENTS, e.g. 10000000): the table grown to that many events over
//     1,000 customers, set-based: raw rows with generate_series, then their rollups with one
//     aggregate INSERT … SELECT … GROUP BY per chunk of customers (rollupBuildSql, the build a new
//     meter runs), progress per chunk; then the API quantities again (target: within 2× of
//     phase 3), and one of the generated customers' quantities checked against the raw scan.
// Bounded: fixed event counts, a global deadline (BENCH_DEADLINE_MS, default 30 min), loopback
// only. Run: `node dist/bench/ingest.js` (after a build), or through bench/run.ts.
import http from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { createDb } from '../src/db/client';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { newId } from '../src/ids';
import { meterQuantitiesQuery, meterQuantityQuery } from '../src/domain/meters/meter-quantity';
import { quantityFromAggregateRow, rollupBuildSql, type MeterAggregateRow, type SqlQuery } from '../src/metering';
import type { Meter } from '../src/generated/prisma/client';
import { meterDefinition } from '../src/domain/meters/manage-meters';
import { benchDatabase, commandCpuDelta, commandCpuMs, fmt, procCpuMs, startServer } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const BATCH = 1000;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const QUANTITY_RUNS = Number(process.env.BENCH_QUANTITY_RUNS ?? 7);
const TABLE_EVENTS = Number(process.env.BENCH_TABLE_EVENTS ?? 0);
const TABLE_CUSTOMERS = 1000;
const UNMETERED_EVENTS = Number(process.env.BENCH_UNMETERED_EVENTS ?? 0);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 30 * 60_000);
const PERIOD_START = Date.UTC(2026, 0, 1);
const PERIOD_MS = 31 * 86_400_000 - 1;
const EVENT_NAME = 'api.request';

if (!Number.isInteger(EVENTS) || EVENTS < BATCH || EVENTS % BATCH !== 0) throw new Error(`BENCH_EVENTS must be a multiple of ${BATCH}`);

interface Deadline {
  check(): void;
}

function deadline(ms: number): Deadline {
  const end = Date.now() + ms;
  return {
    check() {
      if (Date.now() > end) throw new Error(`benchmark exceeded its deadline of ${ms / 60_000} minutes`);
    },
  };
}

/** Event i of a run: timestamps spread over January 2026, small metadata as real traffic has. */
function eventAt(i: number): { timestamp: string; metadata: { units: number; region: string; endpoint: string } } {
  return {
    timestamp: new Date(PERIOD_START + Math.floor((i / EVENTS) * PERIOD_MS)).toISOString(),
    metadata: { units: (i % 10) + 1, region: 'eu', endpoint: `/v1/items/${i % 50}` },
  };
}

/** Runs `count` batch jobs on `workers` concurrent loops; prints progress every ~10 %. */
async function runBatches(label: string, workers: number, count: number, job: (batch: number, worker: number) => Promise<void>, dl: Deadline): Promise<number> {
  let next = 0;
  let done = 0;
  const step = Math.max(1, Math.floor(count / 10));
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (;;) {
        dl.check();
        const b = next++;
        if (b >= count) return;
        await job(b, w);
        done++;
        if (done % step === 0 || done === count) {
          const s = Number(process.hrtime.bigint() - started) / 1e9;
          console.log(`  ${label}: ${fmt(done * BATCH).padStart(9)} events  ${fmt((done * BATCH) / s).padStart(8)} events/s`);
        }
      }
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export function rawInsertText(rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const o = r * 8;
    tuples.push(`($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, $${o + 8})`);
  }
  return `INSERT INTO usage_events (id, merchant_id, mode, customer_id, event_name, idempotency_key, "timestamp", metadata) VALUES ${tuples.join(', ')}`;
}

function post(agent: http.Agent, port: number, pathName: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathName, method: 'POST', agent, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

function get(agent: http.Agent, port: number, pathName: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathName, method: 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Nearest-rank percentile. */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export interface QuantityFigures {
  aggregate: string;
  apiP50: number;
  apiP99: number;
  /** p50 of a trivial API request (GET /v1/meters/{id}) timed in the same loop: the load baseline. */
  trivialP50: number;
  /** Shared buffers (hit + read) of EXPLAIN ANALYZE of the API's quantity statement: load-independent work. */
  buffers: number;
  sqlP50: number;
  sqlP99: number;
  ratio: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Subplans Removed'?: number;
  Plans?: PlanNode[];
}

/**
 * EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of a statement: prints the shared buffers it touched
 * (hit + read, the root's totals include its children) and every plan node with its actual rows
 * (rows × loops) and buffers. A count of pages, not a time: it does not depend on the machine's load.
 */
async function explainBuffers(c: Client, q: SqlQuery, label: string): Promise<number> {
  const values = q.values.map((v) => (v instanceof Date ? v.toISOString() : v));
  const r = await c.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.text}`, values);
  const root = r.rows[0]!['QUERY PLAN'][0]!;
  const hit = root.Plan['Shared Hit Blocks'];
  const read = root.Plan['Shared Read Blocks'];
  console.log(
    `  ${label}: EXPLAIN ANALYZE of the API's statement: shared buffers ${fmt(hit + read)} (hit ${fmt(hit)}, read ${fmt(read)}), ${root['Execution Time'].toFixed(1)} ms`,
  );
  const walk = (n: PlanNode, depth: number) => {
    const on = n['Relation Name'] ? ` on ${n['Relation Name']}` : '';
    const using = n['Index Name'] ? ` using ${n['Index Name']}` : '';
    const removed = n['Subplans Removed'] ? `, ${n['Subplans Removed']} subplans pruned` : '';
    const rows = n['Actual Rows'] * n['Actual Loops'];
    console.log(
      `    ${'  '.repeat(depth)}${n['Node Type']}${on}${using}: rows ${fmt(rows)} (${n['Actual Loops']} loops), buffers ${fmt(n['Shared Hit Blocks'] + n['Shared Read Blocks'])}${removed}`,
    );
    for (const child of n.Plans ?? []) walk(child, depth + 1);
  };
  walk(root.Plan, 0);
  return hit + read;
}

export interface IngestBenchResult {
  rawEventsPerSecond: number;
  apiEventsPerSecond: number;
  ingestRatio: number;
  quantities: QuantityFigures[];
  largeTable: QuantityFigures[] | null;
}

export async function main(): Promise<IngestBenchResult> {
  const dl = deadline(DEADLINE_MS);
  console.log(
    `ingest benchmark: ${fmt(EVENTS)} events via pg and via POST /v1/events/batch (${BATCH} per request, ${CLIENTS} concurrent clients); quantities median of ${QUANTITY_RUNS}`,
  );
  const database = await benchDatabase();
  const db = createDb(database.url, { poolSize: 2 });
  const pgClients: Client[] = [];
  let api: Awaited<ReturnType<typeof startServer>> | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const { merchant, secretKey } = await createMerchant(db, { name: 'Ingest bench merchant' });
    const tenant = { merchantId: merchant.id, mode: 'test' as const };
    const mkCustomer = (label: string) =>
      db.customer.create({ data: { id: newId('customer'), merchantId: merchant.id, mode: 'test', email: `${label}@bench.example`, metadata: {} } });
    const rawCustomer = await mkCustomer('raw');
    const apiCustomer = await mkCustomer('api');
    // Live meters on the event name: ingestion checks every event's `units` against the sum
    // meter and maintains both meters' rollups. (Created directly: the table is empty.)
    const uniqueMeter = await db.meter.create({
      data: {
        id: newId('meter'),
        merchantId: merchant.id,
        mode: 'test',
        name: 'Endpoints used',
        eventName: EVENT_NAME,
        aggregateType: 'unique',
        aggregateProperty: 'endpoint',
        filter: {},
        unitMultiplier: 1,
      },
    });
    const meter = await db.meter.create({
      data: {
        id: newId('meter'),
        merchantId: merchant.id,
        mode: 'test',
        name: 'Requests (units)',
        eventName: EVENT_NAME,
        aggregateType: 'sum',
        aggregateProperty: 'units',
        filter: { region: 'eu' },
        unitMultiplier: 1,
      },
    });

    api = await startServer(path.join(__dirname, 'servers', 'api.js'), { BENCH_DATABASE_URL: database.url });
    const headers = { Authorization: `Bearer ${secretKey}`, 'X-Merchant-Id': merchant.id };
    const batches = EVENTS / BATCH;

    // 1. raw pg baseline (first, so the API phase runs on the larger table: conservative for the API)
    for (let i = 0; i < CLIENTS; i++) {
      const c = new Client({ connectionString: database.url });
      await c.connect();
      pgClients.push(c);
    }
    const insertText = rawInsertText(BATCH);
    // CPU per phase, per 1,000 events: PostgreSQL (all its processes), the API's process and this
    // load generator, so a ratio short of its target shows which side the extra work is on.
    const cpuNow = () => ({ postgres: commandCpuMs('postgres'), api: procCpuMs(api!.child.pid), client: procCpuMs(process.pid) });
    const cpuPer1000 = (from: ReturnType<typeof cpuNow>, to: ReturnType<typeof cpuNow>, events: number) =>
      [
        ['postgres', commandCpuDelta(from.postgres, to.postgres)],
        ['api', from.api === null || to.api === null ? null : to.api - from.api],
        ['client', from.client === null || to.client === null ? null : to.client - from.client],
      ]
        .map(([k, ms]) => `${k} ${ms === null ? 'n/a' : ((ms as number) / (events / 1000)).toFixed(1)} ms`)
        .join(', ');
    console.log('phase 1: raw pg multi-row INSERTs');
    const rawCpuFrom = cpuNow();
    const rawSeconds = await runBatches(
      'raw pg',
      CLIENTS,
      batches,
      async (b, w) => {
        const values: unknown[] = [];
        for (let j = 0; j < BATCH; j++) {
          const i = b * BATCH + j;
          const e = eventAt(i);
          values.push(newId('usageEvent'), merchant.id, 'test', rawCustomer.id, EVENT_NAME, `raw-${i}`, e.timestamp, JSON.stringify(e.metadata));
        }
        await pgClients[w]!.query({ name: 'raw_insert', text: insertText, values });
      },
      dl,
    );

    const rawCpu = cpuPer1000(rawCpuFrom, cpuNow(), EVENTS);
    // 2. the API
    console.log('phase 2: POST /v1/events/batch');
    const probe = await post(agent, api.port, '/v1/events/batch', headers, JSON.stringify({ events: [{ event_name: 'probe', customer: apiCustomer.id }] }));
    if (probe.status !== 200) throw new Error(`API answered ${probe.status}: ${probe.text.slice(0, 300)}`);
    const apiCpuFrom = cpuNow();
    const apiSeconds = await runBatches(
      'API',
      CLIENTS,
      batches,
      async (b) => {
        const events = new Array(BATCH);
        for (let j = 0; j < BATCH; j++) {
          const i = b * BATCH + j;
          const e = eventAt(i);
          events[j] = { event_name: EVENT_NAME, customer: apiCustomer.id, idempotency_key: `api-${i}`, timestamp: e.timestamp, metadata: e.metadata };
        }
        const res = await post(agent, api!.port, '/v1/events/batch', headers, JSON.stringify({ events }));
        if (res.status !== 200) throw new Error(`batch ${b}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
        const body = JSON.parse(res.text) as { ingested: number; errors: unknown[] };
        if (body.ingested !== BATCH || body.errors.length > 0) throw new Error(`batch ${b}: ${res.text.slice(0, 300)}`);
      },
      dl,
    );
    const apiCpu = cpuPer1000(apiCpuFrom, cpuNow(), EVENTS);
    // 2b. optional: the same API path for an event name without meters (no check, no rollups),
    // to isolate what the rollups cost on this machine at this moment.
    let unmeteredRate: number | null = null;
    if (UNMETERED_EVENTS > 0) {
      console.log(`phase 2b: POST /v1/events/batch, ${fmt(UNMETERED_EVENTS)} events of a name no meter reads`);
      const other = await mkCustomer('unmetered');
      const seconds = await runBatches(
        'API, no meters',
        CLIENTS,
        UNMETERED_EVENTS / BATCH,
        async (b) => {
          const events = new Array(BATCH);
          for (let j = 0; j < BATCH; j++) {
            const i = b * BATCH + j;
            const e = eventAt(i);
            events[j] = { event_name: 'api.unmetered', customer: other.id, idempotency_key: `un-${i}`, timestamp: e.timestamp, metadata: e.metadata };
          }
          const res = await post(agent, api!.port, '/v1/events/batch', headers, JSON.stringify({ events }));
          if (res.status !== 200) throw new Error(`batch ${b}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
        },
        dl,
      );
      unmeteredRate = UNMETERED_EVENTS / seconds;
    }
    const counts = await pgClients[0]!.query<{ customer_id: string; n: string }>(
      `SELECT customer_id, count(*) AS n FROM usage_events WHERE merchant_id = $1 AND event_name = $2 GROUP BY customer_id`,
      [merchant.id, EVENT_NAME],
    );
    for (const c of [rawCustomer.id, apiCustomer.id]) {
      const n = Number(counts.rows.find((r) => r.customer_id === c)?.n ?? 0);
      if (n !== EVENTS) throw new Error(`expected ${EVENTS} rows for ${c}, found ${n}`);
    }
    const rawRate = EVENTS / rawSeconds;
    const apiRate = EVENTS / apiSeconds;
    const ingestRatio = apiRate / rawRate;
    console.log(`  raw pg INSERT (baseline)        ${fmt(rawRate).padStart(9)} events/s   (${rawSeconds.toFixed(1)} s)`);
    console.log(`  POST /v1/events/batch (API)     ${fmt(apiRate).padStart(9)} events/s   (${apiSeconds.toFixed(1)} s)`);
    console.log(`  ingest ratio (API with rollups / raw): ${ingestRatio.toFixed(2)}   target ≥ 0.60   ${ingestRatio >= 0.6 ? 'MET' : 'NOT MET'}`);
    console.log(`  CPU per 1,000 events, raw pg phase: ${rawCpu}`);
    console.log(`  CPU per 1,000 events, API phase:    ${apiCpu}`);
    if (unmeteredRate !== null) {
      console.log(`  POST /v1/events/batch, no meters ${fmt(unmeteredRate).padStart(9)} events/s   (${fmt(UNMETERED_EVENTS)} events, after phase 2)`);
      console.log(`  API with the 2 meters' rollups / API without meters: ${(apiRate / unmeteredRate).toFixed(2)}`);
    }

    // 3. quantities for the API customer over a period holding all its events, edges inside hours
    console.log('phase 3: GET /v1/meters/{id}/quantities vs bare SQL over the raw events');
    await pgClients[0]!.query('VACUUM ANALYZE usage_events');
    await pgClients[0]!.query('VACUUM ANALYZE meter_usage_hourly');
    await pgClients[0]!.query('VACUUM ANALYZE meter_usage_values');
    const from = new Date(PERIOD_START - 1_234_567);
    const to = new Date(PERIOD_START + PERIOD_MS + 1_234_567);
    const measure = async (m: Meter, label: string, runsSql: number, customerId = apiCustomer.id): Promise<QuantityFigures> => {
      const q = meterQuantityQuery(tenant, m, customerId, from, to);
      const sqlValues = q.values.map((v) => (v instanceof Date ? v.toISOString() : v));
      const quantityPath = `/v1/meters/${m.id}/quantities?customer=${customerId}&period_start=${encodeURIComponent(from.toISOString())}&period_end=${encodeURIComponent(to.toISOString())}`;
      const trivial = async () => {
        const t = process.hrtime.bigint();
        const r = await get(agent, api!.port, `/v1/meters/${m.id}`, headers);
        if (r.status !== 200) throw new Error(`GET meter: HTTP ${r.status} ${r.text.slice(0, 300)}`);
        return Number(process.hrtime.bigint() - t) / 1e6;
      };
      const bare = async () => {
        const t = process.hrtime.bigint();
        const r = await pgClients[1]!.query<MeterAggregateRow>(q.text, sqlValues);
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        return { ms, quantity: quantityFromAggregateRow(meterDefinition(m), r.rows[0]!) };
      };
      const viaApi = async () => {
        const t = process.hrtime.bigint();
        const r = await get(agent, api!.port, quantityPath, headers);
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (r.status !== 200) throw new Error(`quantities: HTTP ${r.status} ${r.text.slice(0, 300)}`);
        return { ms, quantity: (JSON.parse(r.text) as { quantity: number | null }).quantity };
      };
      const warmBare = runsSql > 0 ? await bare() : null;
      const warmApi = await viaApi();
      if (warmBare && warmApi.quantity !== Number(warmBare.quantity)) throw new Error(`${label}: API quantity ${warmApi.quantity} differs from SQL ${warmBare.quantity}`);
      console.log(`  ${label}: quantity ${warmApi.quantity}${warmBare ? ' (equal through the API and the raw scan)' : ''}`);
      const buffers = await explainBuffers(pgClients[1]!, meterQuantitiesQuery(tenant, m, customerId, [{ from, to }]), label);
      const apiTimes: number[] = [];
      const sqlTimes: number[] = [];
      const trivialTimes: number[] = [];
      for (let r = 0; r < Math.max(runsSql, 1) * 5; r++) {
        dl.check();
        if (r < runsSql) sqlTimes.push((await bare()).ms);
        const a = await viaApi();
        if (warmBare && a.quantity !== Number(warmBare.quantity)) throw new Error(`${label}: API quantity changed`);
        apiTimes.push(a.ms);
        trivialTimes.push(await trivial());
      }
      const f: QuantityFigures = {
        aggregate: label,
        apiP50: percentile(apiTimes, 50),
        apiP99: percentile(apiTimes, 99),
        trivialP50: percentile(trivialTimes, 50),
        buffers,
        sqlP50: sqlTimes.length ? percentile(sqlTimes, 50) : NaN,
        sqlP99: sqlTimes.length ? percentile(sqlTimes, 99) : NaN,
        ratio: sqlTimes.length ? percentile(apiTimes, 50) / percentile(sqlTimes, 50) : NaN,
      };
      console.log(`  ${label}: API p50 ${f.apiP50.toFixed(1)} ms, p99 ${f.apiP99.toFixed(1)} ms (${apiTimes.length} runs)`);
      console.log(
        `  ${label}: trivial request GET /v1/meters/{id} in the same loop p50 ${f.trivialP50.toFixed(1)} ms; quantity p50 / trivial p50 ${(f.apiP50 / f.trivialP50).toFixed(2)}`,
      );
      if (sqlTimes.length) {
        console.log(`  ${label}: bare SQL scan p50 ${f.sqlP50.toFixed(1)} ms, p99 ${f.sqlP99.toFixed(1)} ms (${sqlTimes.length} runs)`);
        console.log(`  ${label}: ratio (API p50 / scan p50): ${f.ratio.toFixed(3)}   target ≤ 0.05   ${f.ratio <= 0.05 ? 'MET' : 'NOT MET'}`);
      }
      return f;
    };
    const quantities = [await measure(meter, 'sum', QUANTITY_RUNS), await measure(uniqueMeter, 'unique', QUANTITY_RUNS)];

    const sizes = await pgClients[0]!.query<{ raw: string; hourly: string; hourly_rows: string; vals: string; vals_rows: string; events: string }>(
      // usage_events is partitioned: its size is the sum of its partitions' (the parent holds no rows)
      `SELECT (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = 'usage_events'::regclass)
                + pg_total_relation_size('usage_event_keys') AS raw, pg_total_relation_size('meter_usage_hourly') AS hourly,
              pg_total_relation_size('meter_usage_values') AS vals, (SELECT count(*) FROM usage_events) AS events,
              (SELECT count(*) FROM meter_usage_hourly) AS hourly_rows, (SELECT count(*) FROM meter_usage_values) AS vals_rows`,
    );
    const z = sizes.rows[0]!;
    const events = Number(z.events);
    // Rollups exist for the API customer's events only (the raw baseline bypasses ingestion).
    console.log(`  bytes per event, raw usage_events (partitions + indexes) + usage_event_keys: ${fmt(Number(z.raw) / events, 1)} (${fmt(events)} events)`);
    console.log(
      `  bytes per event, rollups of the 2 meters: ${fmt((Number(z.hourly) + Number(z.vals)) / EVENTS, 2)} (hourly ${fmt(Number(z.hourly_rows))} rows / ${fmt(Number(z.hourly))} B, values ${fmt(Number(z.vals_rows))} rows / ${fmt(Number(z.vals))} B, for ${fmt(EVENTS)} events)`,
    );

    // 4. optional: a large table over many customers; the one customer's answer must not grow with it
    let largeTable: QuantityFigures[] | null = null;
    if (TABLE_EVENTS > events) {
      const extra = TABLE_EVENTS - events;
      const perCustomer = Math.floor(extra / (TABLE_CUSTOMERS - 2));
      console.log(`phase 4: growing usage_events to ${fmt(TABLE_EVENTS)} events (${fmt(perCustomer)} for each of ${TABLE_CUSTOMERS - 2} more customers) with generate_series`);
      await pgClients[0]!.query(
        `INSERT INTO customers (id, merchant_id, mode, email, metadata, created_at, updated_at)
         SELECT 'cus_bench' || lpad(g::text, 6, '0'), $1, 'test', 'c' || g || '@bench.example', '{}', now(), now() FROM generate_series(1, $2::int) g`,
        [merchant.id, TABLE_CUSTOMERS - 2],
      );
      // Set-based, per chunk of customers: the raw rows straight from generate_series (no
      // RETURNING, no per-row rollup CTE), then their rollups with one aggregate INSERT … SELECT …
      // GROUP BY over those rows (rollupBuildSql: the value expressions the ingest statement
      // uses, the build a new meter runs). The API answers below are checked against the raw scan.
      const g = pgClients[0]!;
      // A bulk load: this session skips the foreign-key triggers (session_replication_role =
      // replica), since it inserted every referenced customer just above; the API path keeps them.
      await g.query("SET work_mem = '256MB'");
      await g.query('SET session_replication_role = replica');
      const chunk = 100;
      const started = Date.now();
      let rawMs = 0;
      let rollupMs = 0;
      const customerIdOf = (c: number) => `cus_bench${String(c).padStart(6, '0')}`;
      const buildSql = rollupBuildSql({
        rawWhere: "merchant_id = $1 AND mode = 'test' AND customer_id >= $2 AND customer_id <= $3 AND event_name = $4",
        meterJoin: "m.merchant_id = $1 AND m.mode = 'test' AND m.archived_at IS NULL",
        merchant: '$1',
        mode: '\'test\'::"Mode"',
      });
      for (let c0 = 1; c0 <= TABLE_CUSTOMERS - 2; c0 += chunk) {
        dl.check();
        const c1 = Math.min(TABLE_CUSTOMERS - 2, c0 + chunk - 1);
        let t = Date.now();
        await g.query(
          `INSERT INTO usage_events (id, merchant_id, mode, customer_id, event_name, idempotency_key, "timestamp", metadata)
           SELECT 'ue_gen' || c || '_' || i, $1, 'test', 'cus_bench' || lpad(c::text, 6, '0'), $2, NULL,
                  to_timestamp(${PERIOD_START / 1000} + (i::float8 / $4::int) * ${PERIOD_MS / 1000}),
                  jsonb_build_object('units', i % 10 + 1, 'region', 'eu', 'endpoint', '/v1/items/' || (i % 50))
             FROM generate_series($3::int, $5::int) c, generate_series(1, $4::int) i`,
          [merchant.id, EVENT_NAME, c0, perCustomer, c1],
        );
        rawMs += Date.now() - t;
        t = Date.now();
        await g.query(buildSql, [merchant.id, customerIdOf(c0), customerIdOf(c1), EVENT_NAME]);
        rollupMs += Date.now() - t;
        const added = (c1 * perCustomer) / ((Date.now() - started) / 1000);
        console.log(
          `  ${fmt(events + c1 * perCustomer)} events (${((Date.now() - started) / 1000).toFixed(0)} s, ${fmt(added)} events/s; raw rows ${fmt(rawMs / 1000, 0)} s, rollups ${fmt(rollupMs / 1000, 0)} s)`,
        );
      }
      await g.query('RESET work_mem');
      await g.query('RESET session_replication_role');
      await pgClients[0]!.query('VACUUM ANALYZE usage_events');
      await pgClients[0]!.query('VACUUM ANALYZE meter_usage_hourly');
      await pgClients[0]!.query('VACUUM ANALYZE meter_usage_values');
      const n = await pgClients[0]!.query<{ n: string }>('SELECT count(*) AS n FROM usage_events');
      console.log(`  usage_events now holds ${fmt(Number(n.rows[0]!.n))} events over ${TABLE_CUSTOMERS} customers`);
      largeTable = [await measure(meter, 'sum (large table)', Math.min(QUANTITY_RUNS, 3)), await measure(uniqueMeter, 'unique (large table)', Math.min(QUANTITY_RUNS, 3))];
      // The generated rollups answer like the raw rows: one generated customer, both meters, against the raw scan.
      const generated = customerIdOf(TABLE_CUSTOMERS - 2);
      await measure(meter, `sum, generated customer ${generated}`, 1, generated);
      await measure(uniqueMeter, `unique, generated customer ${generated}`, 1, generated);
      for (const [i, f] of largeTable.entries()) {
        const before = quantities[i]!;
        const growth = f.apiP50 / before.apiP50;
        console.log(`  ${f.aggregate}: API p50 ${growth.toFixed(2)}× the ${fmt(EVENTS)}-event figure   target ≤ 2   ${growth <= 2 ? 'MET' : 'NOT MET'}`);
        // Load-independent: the statement's pages, and the API time in units of a trivial request timed alongside.
        const relative = f.apiP50 / f.trivialP50 / (before.apiP50 / before.trivialP50);
        console.log(
          `  ${f.aggregate}: shared buffers ${fmt(f.buffers)} against ${fmt(before.buffers)} before growth (${(f.buffers / before.buffers).toFixed(2)}×); quantity/trivial p50 ${(f.apiP50 / f.trivialP50).toFixed(2)} against ${(before.apiP50 / before.trivialP50).toFixed(2)} (${relative.toFixed(2)}×)`,
        );
      }
    } else {
      console.log('phase 4 skipped (set BENCH_TABLE_EVENTS=10000000 to grow the table over 1,000 customers)');
    }
    return { rawEventsPerSecond: rawRate, apiEventsPerSecond: apiRate, ingestRatio, quantities, largeTable };
  } finally {
    agent.destroy();
    for (const c of pgClients) await c.end().catch(() => undefined);
    if (api) await api.stop();
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
