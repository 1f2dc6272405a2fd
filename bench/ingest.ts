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
//  3. GET /v1/meters/{id}/quantities for the API customer (BENCH_EVENTS events in the period)
//     against the bare SQL aggregate over the same rows (the identical statement through `pg`),
//     median of BENCH_QUANTITY_RUNS runs each, interleaved; prints both and the ratio
//     (target: API ≤ 1.5 × bare SQL).
// Bounded: fixed event counts, a global deadline (BENCH_DEADLINE_MS, default 30 min), loopback
// only. Run: `node dist/bench/ingest.js` (after a build), or through bench/run.ts.
import http from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { createDb } from '../src/db/client';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { newId } from '../src/ids';
import { meterQuantityQuery } from '../src/domain/meters/meter-quantity';
import { quantityFromAggregateRow, type MeterAggregateRow } from '../src/metering';
import { meterDefinition } from '../src/domain/meters/manage-meters';
import { benchDatabase, fmt, startServer } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const BATCH = 1000;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const QUANTITY_RUNS = Number(process.env.BENCH_QUANTITY_RUNS ?? 7);
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

function rawInsertText(rows: number): string {
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface IngestBenchResult {
  rawEventsPerSecond: number;
  apiEventsPerSecond: number;
  ingestRatio: number;
  quantityApiMs: number;
  quantitySqlMs: number;
  quantityRatio: number;
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
    // A live meter on the event name: ingestion checks every event's `units` against it.
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
    console.log('phase 1: raw pg multi-row INSERTs');
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

    // 2. the API
    console.log('phase 2: POST /v1/events/batch');
    const probe = await post(agent, api.port, '/v1/events/batch', headers, JSON.stringify({ events: [{ event_name: 'probe', customer: apiCustomer.id }] }));
    if (probe.status !== 200) throw new Error(`API answered ${probe.status}: ${probe.text.slice(0, 300)}`);
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
    console.log(`  ingest ratio (API / raw): ${ingestRatio.toFixed(2)}   target ≥ 0.50   ${ingestRatio >= 0.5 ? 'MET' : 'NOT MET'}`);

    // 3. quantities for the API customer over the period holding all its events
    console.log('phase 3: GET /v1/meters/{id}/quantities vs bare SQL');
    await pgClients[0]!.query('VACUUM ANALYZE usage_events');
    const from = new Date(PERIOD_START);
    const to = new Date(PERIOD_START + PERIOD_MS);
    const q = meterQuantityQuery(tenant, meter, apiCustomer.id, from, to);
    const sqlValues = q.values.map((v) => (v instanceof Date ? v.toISOString() : v));
    const quantityPath = `/v1/meters/${meter.id}/quantities?customer=${apiCustomer.id}&period_start=${encodeURIComponent(from.toISOString())}&period_end=${encodeURIComponent(to.toISOString())}`;
    const bare = async () => {
      const t = process.hrtime.bigint();
      const r = await pgClients[1]!.query<MeterAggregateRow>(q.text, sqlValues);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      return { ms, quantity: quantityFromAggregateRow(meterDefinition(meter), r.rows[0]!) };
    };
    const viaApi = async () => {
      const t = process.hrtime.bigint();
      const r = await get(agent, api!.port, quantityPath, headers);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (r.status !== 200) throw new Error(`quantities: HTTP ${r.status} ${r.text.slice(0, 300)}`);
      return { ms, quantity: (JSON.parse(r.text) as { quantity: number | null }).quantity };
    };
    const plan = await pgClients[1]!.query(`EXPLAIN ${q.text}`, sqlValues);
    console.log(
      `  plan: ${plan.rows
        .map((r: Record<string, string>) => r['QUERY PLAN'])
        .join(' | ')
        .replace(/\s+/g, ' ')
        .slice(0, 400)}`,
    );
    const warmBare = await bare();
    const warmApi = await viaApi();
    if (warmApi.quantity !== Number(warmBare.quantity)) throw new Error(`API quantity ${warmApi.quantity} differs from SQL ${warmBare.quantity}`);
    console.log(`  quantity ${warmBare.quantity} over ${fmt(EVENTS)} events (checked equal through both paths)`);
    const apiTimes: number[] = [];
    const sqlTimes: number[] = [];
    for (let r = 0; r < QUANTITY_RUNS; r++) {
      dl.check();
      const s = await bare();
      const a = await viaApi();
      sqlTimes.push(s.ms);
      apiTimes.push(a.ms);
      console.log(`  run ${r + 1}/${QUANTITY_RUNS}: bare SQL ${s.ms.toFixed(1)} ms, API ${a.ms.toFixed(1)} ms`);
    }
    const sqlMs = median(sqlTimes);
    const apiMs = median(apiTimes);
    const quantityRatio = apiMs / sqlMs;
    console.log(`  bare SQL aggregate (baseline)   median ${sqlMs.toFixed(1)} ms`);
    console.log(`  GET /v1/meters/{id}/quantities  median ${apiMs.toFixed(1)} ms`);
    console.log(`  quantity ratio (API / SQL): ${quantityRatio.toFixed(2)}   target ≤ 1.50   ${quantityRatio <= 1.5 ? 'MET' : 'NOT MET'}`);
    return { rawEventsPerSecond: rawRate, apiEventsPerSecond: apiRate, ingestRatio, quantityApiMs: apiMs, quantitySqlMs: sqlMs, quantityRatio };
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
