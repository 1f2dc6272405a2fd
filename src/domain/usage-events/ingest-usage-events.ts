// Usage event ingestion, the high-volume path. Per request, whatever its size (≤ 1,000 events):
//   1 query resolving every `customer` / `external_customer_id` of the request AND loading the
//     live meters of its event names (non-numeric values of an aggregated property are refused
//     here, see validateEventForMeter),
//   1 multi-row INSERT … SELECT FROM jsonb_array_elements(…) ON CONFLICT DO NOTHING, which in
//     the same statement upserts the meters' hourly rollups of the rows it inserted (the rows
//     rollupContributions computed here, when the statement shows they are those; below).
// Both are raw SQL with the tenant filtered explicitly: Prisma's model queries cost several ms
// of CPU each, which on this path is more than the database work (docs/metering.md).
// Idempotency keys deduplicate per merchant and mode through the primary key of
// usage_event_keys(merchant_id, mode, idempotency_key) (events without a key never conflict), so a key is
// recorded once across batches and concurrent requests. Rows are inserted in idempotency-key
// order, so two concurrent batches with overlapping keys wait on each other in the same order
// and cannot deadlock. One bad event never blocks the rest of a batch.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { prismaSql, type SqlRunner } from '../../db/client';
import { errors } from '../../errors';
import { EVENT_ID_RANDOM_CHARS, newUsageEventIdParts } from './event-ids';
import {
  METER_EVENT_LOCK_CLASS,
  decimalParam,
  meterEventLockKey,
  rollupContributions,
  rollupUpsertCtes,
  validateEventForMeter,
  type AggregateType,
  type RollupContributions,
  type RollupEvent,
  type RollupMeter,
} from '../../metering';
import type { Meter } from '../../generated/prisma/client';
import { meterDefinition } from '../meters/manage-meters';
import { checkEvent, futureLimitProblem, type EventInput } from './event-input';
import type { BatchError, BatchResult, StoredUsageEvent } from '../../objects/usage-events';

export const MAX_BATCH_EVENTS = 1000;

interface Resolved {
  index: number;
  event: EventInput;
  customerId: string;
}

/** A customer (kind c: a = id, b = external_id), a live meter (kind m: a = event_name, b = aggregate_type, id) or the retention horizon (kind h: a = raw_from). */
interface LookupRow {
  kind: 'c' | 'm' | 'h';
  a: string;
  b: string | null;
  p: string | null;
  filter: unknown;
  multiplier: number | null;
  id: string | null;
}

type Problem = { index: number; message: string; param: string; notFound?: boolean };

/** What one lookup found for the request: its customers, their test clocks, live meters and the retention horizon. */
interface Lookup {
  byId: Set<string>;
  byExternal: Map<string, string>;
  /** Customers on a test clock: the clock's time, their "now" (docs/metering.md). */
  clockTimeOf: Map<string, Date>;
  /** Every live meter of the request's event names (count meters too: they have rollups). */
  metersByName: Map<string, RollupMeter[]>;
  /** Raw events before it were dropped by retention (partitions.ts): older events are refused. */
  rawFrom: Date | null;
}

// Customers and live meters in ONE round trip (UNION ALL of two index lookups).
// It first takes a shared advisory lock per event name (creating or archiving a meter takes
// it exclusively), held to commit, so a meter appears or is archived either wholly before
// this request's INSERT or wholly after its commit (docs/metering.md, "Exactness").
const LOOKUP_SQL = `WITH lk AS MATERIALIZED (
       SELECT count(pg_advisory_xact_lock_shared(${METER_EVENT_LOCK_CLASS}, ${meterEventLockKey('$1', '$2::"Mode"::text', 'x')})) AS c
         FROM (SELECT DISTINCT x FROM unnest($5::text[]) AS x ORDER BY x) s)
     SELECT 'c' AS kind, id AS a, external_id AS b,
            (SELECT to_char(tc.frozen_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
               FROM test_clock_customers tcc JOIN test_clocks tc ON tc.merchant_id = tcc.merchant_id AND tc.mode = tcc.mode AND tc.id = tcc.test_clock_id
              WHERE tcc.merchant_id = customers.merchant_id AND tcc.mode = customers.mode AND tcc.customer_id = customers.id) AS p,
            NULL::jsonb AS filter, NULL::int AS multiplier, NULL::text AS id
       FROM customers
      WHERE merchant_id = $1 AND mode = $2::"Mode" AND (id = ANY($3::text[]) OR external_id = ANY($4::text[])) AND (SELECT c FROM lk) >= 0
     UNION ALL
     SELECT 'm', event_name, aggregate_type::text, aggregate_property, filter, unit_multiplier, id
       FROM meters
      WHERE merchant_id = $1 AND mode = $2::"Mode" AND archived_at IS NULL AND event_name = ANY($5::text[]) AND (SELECT c FROM lk) >= 0
     UNION ALL
     SELECT 'h', to_char(raw_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NULL, NULL, NULL, NULL, NULL
       FROM usage_event_retention WHERE id = 1`;

async function lookup(sql: SqlRunner, tenant: Tenant, checked: Array<{ index: number; event: EventInput }>): Promise<Lookup> {
  const ids = new Set<string>();
  const externals = new Set<string>();
  const names = new Set<string>();
  for (const { event } of checked) {
    if (event.customerId !== null) ids.add(event.customerId);
    else if (event.externalCustomerId !== null) externals.add(event.externalCustomerId);
    names.add(event.eventName);
  }
  const found = await sql.query<LookupRow>(LOOKUP_SQL, [tenant.merchantId, tenant.mode, [...ids], [...externals], [...names]]);
  const out: Lookup = { byId: new Set(), byExternal: new Map(), clockTimeOf: new Map(), metersByName: new Map(), rawFrom: null };
  for (const row of found) {
    if (row.kind === 'h') {
      out.rawFrom = new Date(row.a);
      continue;
    }
    if (row.kind === 'c') {
      out.byId.add(row.a);
      if (row.p !== null) out.clockTimeOf.set(row.a, new Date(row.p));
      if (row.b !== null) out.byExternal.set(row.b, row.a);
      continue;
    }
    const filter = (typeof row.filter === 'string' ? JSON.parse(row.filter) : row.filter) as Meter['filter'];
    const definition = meterDefinition({
      eventName: row.a,
      aggregateType: row.b as AggregateType,
      aggregateProperty: row.p,
      filter,
      unitMultiplier: Number(row.multiplier),
    });
    const list = out.metersByName.get(row.a) ?? [];
    list.push({ id: row.id!, definition });
    out.metersByName.set(row.a, list);
  }
  return out;
}

/** One checked event against what the lookup found: the accepted row, or its problem. */
function resolveEvent(found: Lookup, index: number, checkedEvent: EventInput, now: Date): Resolved | Problem {
  let event = checkedEvent;
  let customerId: string | undefined;
  if (event.customerId !== null) {
    if (!found.byId.has(event.customerId)) return { index, param: 'customer', message: `No such customer: '${event.customerId}'`, notFound: true };
    customerId = event.customerId;
  } else {
    customerId = found.byExternal.get(event.externalCustomerId!);
    if (customerId === undefined) return { index, param: 'external_customer_id', message: `No customer with external_id '${event.externalCustomerId}'`, notFound: true };
  }
  const clockTime = found.clockTimeOf.get(customerId);
  const reference = clockTime ?? now;
  if (!event.timestampGiven) event = { ...event, timestamp: reference };
  else {
    const late = futureLimitProblem(event.timestamp, reference, clockTime !== undefined);
    if (late !== null) return { index, param: 'timestamp', message: late };
  }
  const rawFrom = found.rawFrom;
  if (rawFrom !== null && event.timestamp.getTime() < rawFrom.getTime()) {
    return {
      index,
      param: 'timestamp',
      message: `timestamp is before ${rawFrom.toISOString()}: raw usage events before it were removed by the retention setting (USAGE_RAW_RETENTION_MONTHS)`,
    };
  }
  for (const { definition } of found.metersByName.get(event.eventName) ?? []) {
    const message = validateEventForMeter(definition, event.metadata);
    if (message !== null) return { index, param: `metadata.${definition.aggregateProperty}`, message };
  }
  return { index, event, customerId };
}

/** Resolves customers and checks meters for valid events; returns accepted rows and problems. */
async function resolve(
  sql: SqlRunner,
  tenant: Tenant,
  checked: Array<{ index: number; event: EventInput }>,
  now: Date,
): Promise<{ accepted: Resolved[]; problems: Problem[]; meters: Map<string, RollupMeter[]> }> {
  const problems: Problem[] = [];
  const accepted: Resolved[] = [];
  if (checked.length === 0) return { accepted, problems, meters: new Map() };
  const found = await lookup(sql, tenant, checked);
  for (const { index, event } of checked) {
    const r = resolveEvent(found, index, event, now);
    if ('customerId' in r) accepted.push(r);
    else problems.push(r);
  }
  return { accepted, problems, meters: found.metersByName };
}

function compareKeys(a: Resolved, b: Resolved): number {
  const x = a.event.idempotencyKey;
  const y = b.event.idempotencyKey;
  if (x === y) return a.index - b.index;
  if (x === null) return 1;
  if (y === null) return -1;
  return x < y ? -1 : 1;
}

// The rows travel as ONE parameter: the JSON text of an array of compact rows
//   [customer index, event-name index, idempotency key | null, epoch ms, id suffix, metadata],
// which PostgreSQL parses once, in C. Plain text is the cheapest form on both runners (a
// 1,000-row batch, client CPU per statement: node-postgres 0.4 ms as text, 0.6 as bytea, 1.0 as
// base64; Prisma's raw query 1.8, 2.3 and 2.8 ms; session 19), and the fewest bytes to send.
// An id is the batch's `ue_` + time prefix ($6) plus the row's 14 random characters.
// WITH ORDINALITY + ORDER BY keeps the idempotency-key order for the inserts.
// usage_events is partitioned by month (its unique indexes must contain "timestamp"), so the
// idempotency keys live in usage_event_keys: the statement inserts the keys first (ON CONFLICT
// DO NOTHING, in key order; a key repeated inside the batch keeps its first row) and then
// exactly the events whose key it inserted, plus the events without a key.
// The same statement maintains the meters' hourly rollups of exactly the rows it inserted (a
// duplicate key inserts nothing and rolls up nothing), for the live meters of the events' names as
// this statement sees them. The API computes those rollup rows from the events it sends
// (rollupContributions: $9, JSON {h: hourly rows, u: distinct values}, meters by index into $8),
// assuming every row it sends is inserted ($7 rows) for the meters its lookup found ($8); the
// statement writes them when both hold (`given.ok`) and otherwise computes the rollups from the
// rows it inserted (RETURNING), as it did before: a batch with a key seen before, or a meter
// created or archived between the lookup's snapshot and this statement. See rollupUpsertCtes and
// docs/metering.md "The ingestion path".
// received_at is the statement's start, which is after resolve() took the event names' shared
// lock: a meter archived before that lock has archived_at < received_at, one archived after it
// waited for this transaction (the exactness argument in docs/metering.md).
const INSERT_CTES = `
WITH src AS MATERIALIZED (
SELECT $6 || (e.r->>4) AS id, ($4::text[])[(e.r->>0)::int] AS customer_id, ($5::text[])[(e.r->>1)::int] AS event_name,
       e.r->>2 AS idempotency_key, to_timestamp((e.r->>3)::bigint / 1000.0)::timestamptz(3) AS ts, e.r->5 AS metadata, e.ord
FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(r, ord)
), k AS (
INSERT INTO usage_event_keys (merchant_id, mode, idempotency_key, event_id, "timestamp")
SELECT $1, $2::"Mode", idempotency_key, id, ts FROM src WHERE idempotency_key IS NOT NULL ORDER BY ord
ON CONFLICT (merchant_id, mode, idempotency_key) DO NOTHING
RETURNING event_id
), ins AS (
INSERT INTO usage_events (id, merchant_id, mode, customer_id, event_name, idempotency_key, "timestamp", metadata, received_at)
SELECT id, $1, $2::"Mode", customer_id, event_name, idempotency_key, ts, metadata, statement_timestamp()
FROM src WHERE idempotency_key IS NULL OR id IN (SELECT event_id FROM k)
ORDER BY ord
RETURNING id, customer_id, event_name, "timestamp", metadata
), given AS MATERIALIZED (
SELECT (SELECT count(*) FROM ins) = $7::int
   AND (SELECT count(*) = cardinality($8::text[]) AND coalesce(bool_and(m.id = ANY($8::text[])), true)
          FROM meters m WHERE m.merchant_id = $1 AND m.mode = $2::"Mode" AND m.archived_at IS NULL AND m.event_name = ANY($5::text[])) AS ok
), ${rollupUpsertCtes({
  source: 'ins',
  meterJoin: 'm.merchant_id = $1 AND m.mode = $2::"Mode" AND m.archived_at IS NULL',
  merchant: '$1',
  mode: '$2::"Mode"',
  given: {
    ok: '(SELECT ok FROM given)',
    hourly: `SELECT ($8::text[])[(g->>0)::int] AS meter_id, ($4::text[])[(g->>1)::int] AS customer_id, to_timestamp((g->>2)::bigint) AS hour,
                    (g->>3)::bigint AS n, (g->>4)::bigint AS nv, (g->>5)::numeric AS sum, (g->>6)::numeric AS min, (g->>7)::numeric AS max
               FROM jsonb_array_elements($9::jsonb->'h') g`,
    values: `SELECT ($8::text[])[(g->>0)::int] AS meter_id, ($4::text[])[(g->>1)::int] AS customer_id, to_timestamp((g->>2)::bigint) AS hour, g->>3 AS u
               FROM jsonb_array_elements($9::jsonb->'u') g`,
  },
})}`;
/**
 * The ingest statement ($1 merchant, $2 mode, $3 rows as JSON text, $4 customers, $5 names, $6 id
 * prefix, $7 rows expected to be inserted, $8 meter ids, $9 their rollup rows); exported for
 * bench/ingest-profile.
 */
export const INSERT_SQL = `${INSERT_CTES}
SELECT (SELECT count(*)::int FROM ins) AS n, (SELECT ok FROM given) AS given`;
const INSERT_RETURNING_SQL = `${INSERT_CTES}
SELECT id, (SELECT ok FROM given) AS given FROM ins`;

interface RowsPayload {
  /** JSON text of the rows. */
  rows: string;
  customers: string[];
  names: string[];
  idPrefix: string;
  /** Rows the statement inserts unless a key was recorded before: the first row of each key, and every row without one. */
  expected: number;
  meterIds: string[];
  rollupsJson: string;
}

/** `rows` in compareKeys order; the rollup rows of those the statement will insert if no key was seen before. */
function rowsPayload(rows: Resolved[], meters: ReadonlyMap<string, RollupMeter[]>): RowsPayload {
  const { prefix, random } = newUsageEventIdParts(rows.length);
  const customers: string[] = [];
  const customerIndex = new Map<string, number>();
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const parts = new Array<string>(rows.length);
  const inserted: RollupEvent[] = [];
  let previousKey: string | null = null;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const rowKey = row.event.idempotencyKey;
    // Sorted by key: a key repeated inside the batch follows its first row, which the statement keeps.
    if (rowKey === null || rowKey !== previousKey) {
      inserted.push({ customerId: row.customerId, eventName: row.event.eventName, timestamp: row.event.timestamp, metadata: row.event.metadata });
    }
    previousKey = rowKey;
    let c = customerIndex.get(row.customerId);
    if (c === undefined) {
      c = customers.push(row.customerId); // 1-based, as SQL arrays
      customerIndex.set(row.customerId, c);
    }
    let n = nameIndex.get(row.event.eventName);
    if (n === undefined) {
      n = names.push(row.event.eventName);
      nameIndex.set(row.event.eventName, n);
    }
    const key = row.event.idempotencyKey === null ? 'null' : JSON.stringify(row.event.idempotencyKey);
    const suffix = random.slice(r * EVENT_ID_RANDOM_CHARS, (r + 1) * EVENT_ID_RANDOM_CHARS);
    parts[r] = `[${c},${n},${key},${row.event.timestamp.getTime()},"${suffix}",${row.event.metadataJson}]`;
  }
  const contributions = rollupContributions(inserted, meters);
  const meterIds: string[] = [];
  const meterIndex = new Map<string, number>();
  // The live meters of the names sent ($5), as the statement's own check reads them.
  for (const name of names) for (const m of meters.get(name) ?? []) meterIndex.set(m.id, meterIds.push(m.id));
  return {
    rows: `[${parts.join(',')}]`,
    customers,
    names,
    idPrefix: prefix,
    expected: inserted.length,
    meterIds,
    rollupsJson: rollupRowsJson(contributions, meterIndex, customerIndex),
  };
}

/**
 * $9 of the ingest statement: the rollup rows as it reads them, `{h: [[meter, customer, hour,
 * n, nv, sum, min, max]…], u: [[meter, customer, hour, value]…]}`, with meters and customers as
 * 1-based indexes into $8 and $4, hours in epoch seconds and decimals as text. Exported for
 * bench/ingest-profile.
 */
export function rollupRowsJson(c: RollupContributions, meterIndex: ReadonlyMap<string, number>, customerIndex: ReadonlyMap<string, number>): string {
  const h = c.hourly.map((r) => [
    meterIndex.get(r.meterId),
    customerIndex.get(r.customerId),
    r.hour / 1000,
    r.n,
    r.nv,
    decimalParam(r.sum),
    decimalParam(r.min),
    decimalParam(r.max),
  ]);
  const u = c.values.map((v) => [meterIndex.get(v.meterId), customerIndex.get(v.customerId), v.hour / 1000, v.value]);
  return JSON.stringify({ h, u });
}

/** One INSERT for all rows; returns the ids actually recorded when `returning` is set. */
async function insertRows(
  sql: SqlRunner,
  tenant: Tenant,
  rows: Resolved[],
  meters: ReadonlyMap<string, RollupMeter[]>,
  returning: boolean,
): Promise<{ count: number; ids: string[]; rollupsGiven: boolean }> {
  if (rows.length === 0) return { count: 0, ids: [], rollupsGiven: false };
  const p = rowsPayload([...rows].sort(compareKeys), meters);
  const args = [tenant.merchantId, tenant.mode, p.rows, p.customers, p.names, p.idPrefix, p.expected, p.meterIds, p.rollupsJson];
  if (!returning) {
    const [row] = await sql.query<{ n: number; given: boolean }>(INSERT_SQL, args);
    return { count: Number(row?.n ?? 0), ids: [], rollupsGiven: row?.given === true };
  }
  const inserted = await sql.query<{ id: string; given: boolean }>(INSERT_RETURNING_SQL, args);
  return { count: inserted.length, ids: inserted.map((r) => r.id), rollupsGiven: inserted[0]?.given === true };
}

/** A batch's outcome, and whether its rollup rows were the API's (rollupContributions) or computed in SQL. */
export interface IngestResult extends BatchResult {
  rollupsGiven: boolean;
}

/**
 * POST /v1/events/batch: 1 to 1,000 events, each accepted or reported on its own. Raw SQL only,
 * so it runs on a Prisma transaction (prismaSql: a request with an Idempotency-Key, inside the
 * request transaction) or straight on node-postgres (rawTransaction: a request without one). Its
 * two statements must share one transaction: the lookup's shared locks on the event names hold
 * until the insert commits.
 */
export async function ingestUsageEvents(sql: SqlRunner, tenant: Tenant, events: unknown, now: Date): Promise<IngestResult> {
  if (!Array.isArray(events)) throw errors.validationFailed('events must be an array of 1 to 1,000 events', 'events');
  if (events.length === 0 || events.length > MAX_BATCH_EVENTS) {
    throw errors.validationFailed(`events must hold 1 to ${MAX_BATCH_EVENTS} events, got ${events.length}`, 'events');
  }
  const errs: BatchError[] = [];
  const checked: Array<{ index: number; event: EventInput }> = [];
  events.forEach((raw, index) => {
    const c = checkEvent(raw, now, { futureLimit: false });
    if (c.ok) checked.push({ index, event: c.event });
    else errs.push({ index, message: c.message });
  });
  const { accepted, problems, meters } = await resolve(sql, tenant, checked, now);
  for (const p of problems) errs.push({ index: p.index, message: p.message });
  errs.sort((a, b) => a.index - b.index);
  const { count, rollupsGiven } = await insertRows(sql, tenant, accepted, meters, false);
  return { ingested: count, duplicates: accepted.length - count, errors: errs, rollupsGiven };
}

/**
 * POST /v1/events: one event. Returns the recorded event and `created: true`, or, when its
 * idempotency_key was recorded before, the event recorded first and `created: false`.
 */
export async function recordUsageEvent(db: TenantDb, tenant: Tenant, body: unknown, now: Date): Promise<{ event: StoredUsageEvent; created: boolean }> {
  const c = checkEvent(body, now, { futureLimit: false });
  if (!c.ok) throw errors.validationFailed(c.message, c.param);
  const sql = prismaSql(db);
  const { accepted, problems, meters } = await resolve(sql, tenant, [{ index: 0, event: c.event }], now);
  const p = problems[0];
  if (p) throw p.notFound ? errors.resourceNotFound(p.message, p.param) : errors.validationFailed(p.message, p.param);
  const { ids } = await insertRows(sql, tenant, accepted, meters, true);
  const select = { id: true, customerId: true, eventName: true, idempotencyKey: true, timestamp: true, metadata: true, receivedAt: true } as const;
  if (ids.length === 1) {
    const row = await db.usageEvent.findFirst({ where: { id: ids[0] }, select });
    return { event: row!, created: true };
  }
  const key =
    c.event.idempotencyKey === null ? null : await db.usageEventKey.findFirst({ where: { idempotencyKey: c.event.idempotencyKey }, select: { eventId: true, timestamp: true } });
  const first = key === null ? null : await db.usageEvent.findFirst({ where: { id: key.eventId, timestamp: key.timestamp }, select });
  if (!first) throw new Error('usage event neither inserted nor found by its idempotency key');
  return { event: first, created: false };
}
