// The PostgreSQL form of aggregateEvents for one meter, customer and inclusive period over
// usage_events(merchant_id, mode, customer_id, event_name, "timestamp", metadata jsonb, id).
// Every caller-supplied value, the property name included, is a $n parameter; the only text
// spliced in is fixed SQL chosen by aggregate type and the constant NUMERIC_TEXT regex.
//
// The query returns parts, not the finished quantity: `value` (sum, max or min as numeric
// text) and `n` (contributing events or distinct values). quantityFromAggregateRow finishes
// them with the same code as the in-memory reference, so the avg rounding and the multiplier
// cannot differ between the two.
//
// Indexes that serve it: a btree on (merchant_id, mode, customer_id, event_name, "timestamp")
// for the range; the filter is `metadata @> $n::jsonb`, which a GIN index on metadata
// (jsonb_path_ops) or a partial index WHERE metadata @> '{"k":"v"}' can answer (pg plans
// unnamed parameterised statements with the actual values, so the partial predicate is seen).
import { type AggregateParts, NUMERIC_TEXT, assertMeterDefinition, finishAggregate } from './aggregate';
import { type Decimal, parseDecimal } from './decimal';
import type { MeterDefinition } from './types';

export interface MeterAggregateQueryInput {
  merchantId: string;
  mode: string;
  customerId: string;
  meter: MeterDefinition;
  /** Inclusive bounds. */
  from: Date;
  to: Date;
}

export interface SqlQuery {
  text: string;
  values: Array<string | Date>;
}

/** One row, always returned (aggregates without GROUP BY). */
export interface MeterAggregateRow {
  value: string | null;
  n: string | number | bigint | null;
}

// No quote or backslash in the pattern, so it is safe as a literal in both JS and SQL.
const NUMERIC_PATTERN_SQL = NUMERIC_TEXT.source;
if (/['\\]/.test(NUMERIC_PATTERN_SQL)) throw new Error('NUMERIC_TEXT must stay free of quotes and backslashes');

export function buildMeterAggregateQuery(input: MeterAggregateQueryInput): SqlQuery {
  const { meter } = input;
  assertMeterDefinition(meter);
  if (Number.isNaN(input.from.getTime()) || Number.isNaN(input.to.getTime())) throw new RangeError('invalid period date');
  if (input.from.getTime() > input.to.getTime()) throw new RangeError('period start is after period end');

  const values: Array<string | Date> = [input.merchantId, input.mode, input.customerId, meter.eventName, input.from, input.to];
  const where = ['merchant_id = $1', 'mode = $2', 'customer_id = $3', 'event_name = $4', '"timestamp" >= $5::timestamptz', '"timestamp" <= $6::timestamptz'];
  let select: string;
  if (meter.aggregateType === 'count' || meter.aggregateProperty === null) {
    select = 'NULL::text AS value, count(*)::text AS n';
  } else {
    values.push(meter.aggregateProperty);
    const p = `$${values.length}::text`;
    const numeric = `CASE WHEN metadata->>${p} ~ '${NUMERIC_PATTERN_SQL}' THEN (metadata->>${p})::numeric END`;
    switch (meter.aggregateType) {
      case 'sum':
      case 'avg':
        select = `sum(${numeric})::text AS value, count(${numeric})::text AS n`;
        break;
      case 'max':
      case 'min':
        select = `${meter.aggregateType}(${numeric})::text AS value, count(${numeric})::text AS n`;
        break;
      case 'unique':
        select = `NULL::text AS value, count(DISTINCT CASE WHEN jsonb_typeof(metadata->${p}) IN ('string', 'number', 'boolean') THEN metadata->>${p} END)::text AS n`;
        break;
    }
  }
  const filter = meter.filter ?? {};
  if (Object.keys(filter).length > 0) {
    values.push(JSON.stringify(filter));
    where.push(`metadata @> $${values.length}::jsonb`);
  }
  return { text: `SELECT ${select} FROM usage_events WHERE ${where.join(' AND ')}`, values };
}

/** The meter quantity from the query's row, finished exactly as aggregateEvents finishes. */
export function quantityFromAggregateRow(meter: MeterDefinition, row: MeterAggregateRow): string | null {
  let value: Decimal | null = null;
  if (row.value !== null) {
    value = parseDecimal(row.value);
    if (value === null) throw new RangeError(`unexpected aggregate value ${JSON.stringify(row.value)}`);
  }
  const parts: AggregateParts = { value, count: row.n === null ? 0n : BigInt(row.n) };
  return finishAggregate(meter, parts);
}
