// Meter quantities from hourly rollups (docs/metering.md "Rollups").
//
// Tables: meter_usage_hourly(merchant_id, mode, meter_id, customer_id, hour, n, nv, sum, min,
// max) and, for `unique` meters, meter_usage_values(…, hour, value). `hour` is the start of the
// UTC hour of the events' `timestamp`. Both are written in the ingest statement itself (only the
// rows that statement actually inserted) and built from raw events when a meter is created, so
// a rollup row holds exactly the raw events of its hour that the meter aggregates.
//
// A quantity over an inclusive range [from, to] (millisecond timestamps) is
//   whole hours [wholeStart, wholeEnd)          from the rollups
//   + the partial edge hours [from, wholeStart) and [wholeEnd, to]   from raw events,
// combined in one statement. Every part is an exact partial aggregate (count, numeric sum, min,
// max, or a set of distinct values), so the combination equals the aggregate over the raw rows:
// sums and counts add, min/max of mins/maxes, and `unique` counts the distinct values of the
// union. The statement returns the same `{ value, n }` row as buildMeterAggregateQuery, finished
// by quantityFromAggregateRow.
import { NUMERIC_TEXT, assertMeterDefinition } from './aggregate';
import type { MeterDefinition } from './types';
import type { SqlQuery } from './sql';

export const ROLLUP_BUCKET_MS = 3_600_000;

/** Advisory-lock class of "a tenant's event name": shared by ingestion, exclusive by meter create/archive. */
export const METER_EVENT_LOCK_CLASS = 32;

/** SQL for the lock key of an event name (text expressions for merchant, mode, name). */
export function meterEventLockKey(merchant: string, mode: string, name: string): string {
  return `hashtext((${merchant})::text || ':' || (${mode})::text || ':' || (${name})::text)`;
}

const NUMERIC_PATTERN_SQL = NUMERIC_TEXT.source;

/**
 * The numeric value of `metadata->prop` under the NUMERIC_TEXT guard, as SQL. A JSON string is
 * matched against the NUMERIC_TEXT regex and cast; a JSON number is cast from jsonb directly and
 * kept when its printed form would match the regex, i.e. at most 30 integer digits
 * (abs < 1e30) and at most 30 decimals (scale ≤ 30) — numeric's output never uses an exponent,
 * so this is the same set as the regex over `->>`, without running a regex on every number
 * (issue 32 profile: the regex was the largest per-row cost of the rollup CTE).
 */
export function numericValueSql(metadata: string, prop: string): string {
  const x = `(${metadata}->${prop})`;
  return `CASE jsonb_typeof(${x}) WHEN 'number' THEN CASE WHEN abs(${x}::numeric) < 1e30 AND scale(${x}::numeric) <= 30 THEN ${x}::numeric END WHEN 'string' THEN CASE WHEN ${metadata}->>${prop} ~ '${NUMERIC_PATTERN_SQL}' THEN (${metadata}->>${prop})::numeric END END`;
}

/** The UTC hour of a timestamptz expression, as SQL (date_bin: no time-zone lookup per row). */
export function hourSql(ts: string): string {
  return `date_bin('1 hour', ${ts}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;
}

/** Number of slot rows an hourly rollup may be spread over (see rollupUpsertCtes). */
export const ROLLUP_SLOTS = 4;

/** The text `unique` counts for `metadata->prop`, or NULL, as SQL. */
export function uniqueValueSql(metadata: string, prop: string): string {
  return `CASE WHEN jsonb_typeof(${metadata}->${prop}) IN ('string', 'number', 'boolean') THEN ${metadata}->>${prop} END`;
}

export interface QuantityRange {
  /** Inclusive bounds. */
  from: Date;
  to: Date;
}

/** The whole rollup hours [wholeStart, wholeEnd) inside an inclusive range; empty (both = to + 1 ms) when none. */
export function splitRange(range: QuantityRange): { from: Date; wholeStart: Date; wholeEnd: Date; to: Date } {
  const from = range.from.getTime();
  const to = range.to.getTime();
  if (Number.isNaN(from) || Number.isNaN(to)) throw new RangeError('invalid period date');
  if (from > to) throw new RangeError('period start is after period end');
  let ws = Math.ceil(from / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
  let we = Math.floor((to + 1) / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
  if (ws >= we) ws = we = to + 1;
  return { from: range.from, wholeStart: new Date(ws), wholeEnd: new Date(we), to: range.to };
}

export interface RollupQuantityQueryInput {
  merchantId: string;
  mode: string;
  customerId: string;
  meterId: string;
  meter: MeterDefinition;
  /** Set for an archived meter: raw events count only when received_at ≤ archivedAt (rollups hold no others). */
  archivedAt: Date | null;
  ranges: ReadonlyArray<QuantityRange>;
}

/**
 * One row per range, in order: `{ i, value, n, purged_before }` (i is 1-based; purged_before is
 * the retention horizon when a raw edge of the range lies before it, else null). One statement whatever the
 * number of ranges (the dashboard asks for a day per bar).
 */
export function buildRollupQuantityQuery(input: RollupQuantityQueryInput): SqlQuery {
  const { meter } = input;
  assertMeterDefinition(meter);
  if (input.ranges.length === 0) throw new RangeError('at least one range');
  const split = input.ranges.map(splitRange);
  const iso = (d: Date) => d.toISOString();
  const values: Array<string | Date> = [
    input.merchantId,
    input.mode,
    input.customerId,
    meter.eventName,
    input.meterId,
    `{${split.map((s) => iso(s.from)).join(',')}}`,
    `{${split.map((s) => iso(s.wholeStart)).join(',')}}`,
    `{${split.map((s) => iso(s.wholeEnd)).join(',')}}`,
    `{${split.map((s) => iso(s.to)).join(',')}}`,
  ];
  const raw = ['e.merchant_id = $1', 'e.mode = $2::"Mode"', 'e.customer_id = $3', 'e.event_name = $4'];
  let prop = 'NULL::text';
  if (meter.aggregateType !== 'count' && meter.aggregateProperty !== null) {
    values.push(meter.aggregateProperty);
    prop = `$${values.length}::text`;
  }
  const filter = meter.filter ?? {};
  if (Object.keys(filter).length > 0) {
    values.push(JSON.stringify(filter));
    raw.push(`e.metadata @> $${values.length}::jsonb`);
  }
  if (input.archivedAt !== null) {
    values.push(iso(input.archivedAt));
    raw.push(`e.received_at <= $${values.length}::timestamptz`);
  }
  const rollup = 'h.merchant_id = $1 AND h.mode = $2::"Mode" AND h.meter_id = $5 AND h.customer_id = $3 AND h.hour >= r.ws AND h.hour < r.we';
  const edge1 = `${raw.join(' AND ')} AND e."timestamp" >= r.f AND e."timestamp" < r.ws`;
  const edge2 = `${raw.join(' AND ')} AND e."timestamp" >= r.we AND e."timestamp" <= r.t`;

  let lateral: string;
  if (meter.aggregateType === 'unique') {
    const u = uniqueValueSql('e.metadata', prop);
    lateral = `SELECT NULL::text AS value, count(DISTINCT p.u)::text AS n FROM (
        SELECT ${u} AS u FROM usage_events e WHERE ${edge1}
        UNION ALL SELECT ${u} FROM usage_events e WHERE ${edge2}
        UNION ALL SELECT h.value FROM meter_usage_values h WHERE ${rollup}) p`;
  } else {
    const v = numericValueSql('e.metadata', prop);
    const part = (where: string) => `SELECT count(*) AS n, count(${v}) AS nv, sum(${v}) AS s, min(${v}) AS lo, max(${v}) AS hi FROM usage_events e WHERE ${where}`;
    let finish: string;
    switch (meter.aggregateType) {
      case 'count':
        finish = 'NULL::text AS value, sum(p.n)::text AS n';
        break;
      case 'sum':
      case 'avg':
        finish = 'sum(p.s)::text AS value, sum(p.nv)::text AS n';
        break;
      case 'max':
        finish = 'max(p.hi)::text AS value, sum(p.nv)::text AS n';
        break;
      case 'min':
        finish = 'min(p.lo)::text AS value, sum(p.nv)::text AS n';
        break;
    }
    lateral = `SELECT ${finish} FROM (
        ${part(edge1)}
        UNION ALL ${part(edge2)}
        UNION ALL SELECT sum(h.n), sum(h.nv), sum(h.sum), min(h.min), max(h.max) FROM meter_usage_hourly h WHERE ${rollup}) p`;
  }
  // raw_from: set when retention dropped older raw events (src/domain/usage-events/partitions.ts);
  // a range whose raw edge starts before it cannot be answered exactly, so the caller refuses it.
  const text = `SELECT r.i::int AS i, q.value, q.n,
         (SELECT to_char(x.raw_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM usage_event_retention x WHERE x.id = 1
           AND ((r.f < r.ws AND r.f < x.raw_from) OR (r.we <= r.t AND r.we < x.raw_from))) AS purged_before
  FROM unnest($6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::timestamptz[]) WITH ORDINALITY AS r(f, ws, we, t, i)
  CROSS JOIN LATERAL (${lateral}) q
  ORDER BY r.i`;
  return { text, values };
}

/** An hourly rollup row's partial aggregate of `hit` rows (n, nv, sum, min, max), grouped by meter, customer and hour. */
const HOURLY_PARTS = 'count(*) AS n, count(v) AS nv, sum(v) AS sum, min(v) AS min, max(v) AS max';

/** How an hourly rollup row absorbs another partial aggregate of the same key (every part is exact). */
const HOURLY_MERGE = `ON CONFLICT (merchant_id, mode, meter_id, customer_id, hour, slot) DO UPDATE
      SET n = r.n + excluded.n, nv = r.nv + excluded.nv, sum = coalesce(r.sum + excluded.sum, r.sum, excluded.sum),
          min = least(r.min, excluded.min), max = greatest(r.max, excluded.max)`;

/** The rows a rollup aggregates: per event and meter, its meter, customer, hour, numeric value (v) and `unique` value (u). */
function hitSelect(source: string, meterJoin: string): string {
  const prop = 'm.aggregate_property';
  return `SELECT m.id AS meter_id, s.customer_id, ${hourSql('s."timestamp"')} AS hour,
           CASE WHEN m.aggregate_type IN ('sum', 'min', 'max', 'avg') THEN ${numericValueSql('s.metadata', prop)} END AS v,
           CASE WHEN m.aggregate_type = 'unique' THEN ${uniqueValueSql('s.metadata', prop)} END AS u
      FROM ${source} s JOIN meters m ON ${meterJoin} AND m.event_name = s.event_name AND s.metadata @> m.filter`;
}

/**
 * Builds (or extends) rollups from raw events already stored, set-based: one scan of the rows
 * `rawWhere` selects from usage_events (alias s), one GROUP BY per rollup table, no per-row work
 * beyond the same value expressions the ingest statement uses (hitSelect), so the rows it writes
 * are the same partial aggregates ingestion would have written. Not for rows whose rollups
 * exist already (it would count them twice): a new meter's build (BUILD_METER_ROLLUPS_SQL) and
 * bench/ingest's phase 4 (raw rows it inserted itself). No row order: it runs under the event
 * name's exclusive lock or alone, so no concurrent statement writes the same rollup keys.
 */
export function rollupBuildSql(opts: { rawWhere: string; meterJoin: string; merchant: string; mode: string }): string {
  return `WITH hit AS (
    ${hitSelect(`(SELECT customer_id, event_name, "timestamp", metadata FROM usage_events WHERE ${opts.rawWhere})`, opts.meterJoin)}
  ), up AS (
    INSERT INTO meter_usage_hourly AS r (merchant_id, mode, meter_id, customer_id, hour, slot, n, nv, sum, min, max)
    SELECT ${opts.merchant}, ${opts.mode}, meter_id, customer_id, hour, (txid_current() % ${ROLLUP_SLOTS})::smallint, ${HOURLY_PARTS}
      FROM hit GROUP BY meter_id, customer_id, hour
    ${HOURLY_MERGE}
    RETURNING 1
  ), uq AS (
    INSERT INTO meter_usage_values (merchant_id, mode, meter_id, customer_id, hour, value)
    SELECT DISTINCT ${opts.merchant}, ${opts.mode}, meter_id, customer_id, hour, u FROM hit WHERE u IS NOT NULL
    ON CONFLICT DO NOTHING
  )
  SELECT count(*)::int AS n FROM up`;
}

/**
 * Rollup rows a caller computed itself (rollup-contributions.ts), as SQL: `hourly` a SELECT of
 * (meter_id, customer_id, hour, n, nv, sum, min, max), `values` a SELECT of (meter_id,
 * customer_id, hour, u), neither with a WHERE clause of its own, and `ok` a boolean expression
 * (one value for the statement) that holds exactly when they equal what `source` would give.
 */
export interface GivenRollups {
  hourly: string;
  values: string;
  ok: string;
}

// Rollup maintenance, shared by ingestion (rows of the statement's INSERT … RETURNING) and the
// build of a new meter (rows read from usage_events). `source` must yield customer_id,
// event_name, "timestamp", metadata; `meters` is a FROM item `m` of meters rows.
// - The numeric value is computed only for sum/min/max/avg meters and the text value only for
//   `unique` meters (each costs a jsonb lookup per row and meter).
// - An hourly rollup is spread over ROLLUP_SLOTS slot rows: a statement writes the slot of its
//   transaction id (txid mod ROLLUP_SLOTS; concurrent batches get consecutive ids, so different
//   slots), and readers sum the slots. Without slots every concurrent batch of one customer and
//   hour queued on the same row until the holder's commit (the issue 32 profile saw transaction-id
//   lock waits on the ingest statement).
// - Distinct values already committed for that hour are skipped before the insert (a LATERAL
//   index probe per distinct value, LIMIT 1 so the planner cannot turn it into a scan),
//   so the `ON CONFLICT DO NOTHING` (which waits on an uncommitted conflicting row) only meets
//   values two open transactions both add first.
// Hourly rows are upserted in key order and the distinct values after them (the values CTE
// reads the hourly CTE), so concurrent statements lock rollup rows in one global order.
export function rollupUpsertCtes(opts: { source: string; meterJoin: string; merchant: string; mode: string; given: GivenRollups }): string {
  const { given } = opts;
  // The rows come from `given` when `given.ok` holds, else they are computed from `source`; the
  // branch not taken is never executed (its one-time filter is false, so `hit` is not computed).
  const hourly = `${given.hourly} WHERE ${given.ok}
     UNION ALL SELECT meter_id, customer_id, hour, ${HOURLY_PARTS}
        FROM hit WHERE NOT (${given.ok}) GROUP BY meter_id, customer_id, hour`;
  const values = `${given.values} WHERE ${given.ok}
     UNION ALL SELECT DISTINCT meter_id, customer_id, hour, u FROM hit WHERE u IS NOT NULL AND NOT (${given.ok})`;
  return `hit AS (
    ${hitSelect(opts.source, opts.meterJoin)}
  ), up AS (
    INSERT INTO meter_usage_hourly AS r (merchant_id, mode, meter_id, customer_id, hour, slot, n, nv, sum, min, max)
    SELECT ${opts.merchant}, ${opts.mode}, meter_id, customer_id, hour, (txid_current() % ${ROLLUP_SLOTS})::smallint, n, nv, sum, min, max
      FROM (${hourly}) a ORDER BY meter_id, customer_id, hour
    ${HOURLY_MERGE}
    RETURNING 1
  ), uq AS (
    INSERT INTO meter_usage_values (merchant_id, mode, meter_id, customer_id, hour, value)
    SELECT ${opts.merchant}, ${opts.mode}, d.meter_id, d.customer_id, d.hour, d.u
      FROM (${values}) d
      LEFT JOIN LATERAL (SELECT true AS present FROM meter_usage_values x
                          WHERE x.merchant_id = ${opts.merchant} AND x.mode = ${opts.mode} AND x.meter_id = d.meter_id
                            AND x.customer_id = d.customer_id AND x.hour = d.hour AND x.value = d.u LIMIT 1) e ON true
     WHERE (SELECT count(*) FROM up) >= 0 AND e.present IS NULL
     ORDER BY d.meter_id, d.customer_id, d.hour, d.u
    ON CONFLICT DO NOTHING
  )`;
}

/**
 * Builds a new meter's rollups from the raw events already stored (events that arrived before
 * the meter existed). $1 merchant, $2 mode, $3 meter id, $4 event name. Run under the event
 * name's exclusive lock (see METER_EVENT_LOCK_CLASS), in the meter's creating transaction.
 */
export const BUILD_METER_ROLLUPS_SQL = rollupBuildSql({
  rawWhere: 'merchant_id = $1 AND mode = $2::"Mode" AND event_name = $4',
  meterJoin: 'm.merchant_id = $1 AND m.mode = $2::"Mode" AND m.id = $3',
  merchant: '$1',
  mode: '$2::"Mode"',
});

/** Takes the exclusive lock of a tenant's event name: $1 merchant, $2 mode, $3 event name. */
export const LOCK_METER_EVENT_SQL = `SELECT pg_advisory_xact_lock(${METER_EVENT_LOCK_CLASS}, ${meterEventLockKey('$1', '$2::text', '$3')})`;
