// Reference implementation of meter aggregation over events held in memory. The SQL in
// ./sql.ts must give the same quantities; both finish through `finishAggregate`.
//
// Decisions:
// - Numeric values are JSON numbers, or strings matching NUMERIC_TEXT (optional minus, 1–30
//   digits, optionally a point and 1–30 digits: "12", "-3", "12.5", "007"). "1e3", " 5",
//   "+5", ".5", "NaN", booleans and objects are not numeric. The bound keeps bigint work small
//   and is the same regex the SQL uses as its cast guard. A JSON number counts as the decimal
//   JSON.stringify writes for it (0.1 is 0.1 exactly; 1e3 is 1000), checked against that regex.
// - Ingestion rejects an event whose property is present but unusable for a meter it would
//   feed (`validateEventForMeter`); events stored before a meter existed may still hold such
//   values, and aggregation skips them, as the SQL guard does.
// - Events without the property (or with JSON null) are skipped by sum/max/min/avg/unique;
//   count counts every matching event.
// - Empty set: count, sum and unique give "0"; max, min and avg give null ("no value"), which
//   billing treats as 0 (see billableQuantity).
// - avg is sum ÷ count rounded half away from zero to 12 significant digits (never dropping
//   integer digits), e.g. avg(1, 2, 2) = 1.66666666667.
// - unique counts distinct text forms, as PostgreSQL's `->>` prints them: "12" and 12 are one
//   value, "12.0" another; true and "true" are one value. Objects and arrays are not counted.
// - The multiplier applies last, to the finished aggregate (so to the rounded avg).
// - Quantities are exact decimal strings without exponent or trailing zeros: "3", "0.3", "-2.5".
import {
  type Decimal,
  DECIMAL_ZERO,
  addDecimals,
  compareDecimals,
  decimalFromBigInt,
  decimalFromNumber,
  decimalToString,
  divideToSignificant,
  multiplyDecimal,
  parseDecimal,
} from './decimal';
import { AGGREGATE_TYPES, NUMERIC_AGGREGATE_TYPES, type EventMetadata, type MeterDefinition, type MeterEvent, type StoredMeterEvent } from './types';

/** Strict decimal text accepted as a numeric metadata value (also used verbatim in SQL). */
export const NUMERIC_TEXT = /^-?[0-9]{1,30}([.][0-9]{1,30})?$/;

export const AVG_SIGNIFICANT_DIGITS = 12;

/** The exact decimal of a numeric metadata value, or null when the value is not numeric. */
export function numericDecimal(raw: unknown): Decimal | null {
  if (typeof raw === 'string') return NUMERIC_TEXT.test(raw) ? parseDecimal(raw) : null;
  if (typeof raw === 'number') {
    // A safe integer prints as at most 16 plain digits: the same decimal, without the text round trip.
    if (Number.isSafeInteger(raw)) return { coefficient: BigInt(raw), scale: 0 };
    const d = decimalFromNumber(raw);
    return d !== null && NUMERIC_TEXT.test(decimalToString(d)) ? d : null;
  }
  return null;
}

/** The metadata value as a JS number, or null when it is not numeric by the rule above. */
export function numericValue(raw: unknown): number | null {
  const d = numericDecimal(raw);
  if (d === null) return null;
  const n = typeof raw === 'number' ? raw : Number(decimalToString(d));
  return n === 0 ? 0 : n; // no -0
}

/** The text `unique` counts for a value (PostgreSQL `->>`), or null when it is not counted. */
export function uniqueValueKey(raw: unknown): string | null {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'boolean') return raw ? 'true' : 'false';
  if (typeof raw === 'number') {
    const d = decimalFromNumber(raw);
    return d === null ? null : decimalToString(d);
  }
  return null;
}

export function matchesFilter(filter: MeterDefinition['filter'], metadata: EventMetadata | null): boolean {
  if (filter === null) return true;
  for (const key in filter) {
    if (!Object.hasOwn(filter, key)) continue;
    const actual = metadata !== null && Object.hasOwn(metadata, key) ? metadata[key] : undefined;
    if (typeof actual !== 'string' || actual !== filter[key]) return false;
  }
  return true;
}

export function eventMatchesMeter(meter: MeterDefinition, event: MeterEvent): boolean {
  return event.eventName === meter.eventName && matchesFilter(meter.filter, event.metadata);
}

/**
 * Ingestion check for one meter whose event_name equals the event's (callers pass only those,
 * and only meters that are not archived). Returns an error message, or null when the event is
 * acceptable for this meter. Events the meter's filter excludes are always acceptable.
 */
export function validateEventForMeter(meter: MeterDefinition, metadata: EventMetadata | null): string | null {
  if (meter.aggregateType === 'count' || meter.aggregateProperty === null) return null;
  if (!matchesFilter(meter.filter, metadata)) return null;
  const property = meter.aggregateProperty;
  const raw = propertyValue(metadata, property);
  if (raw === undefined || raw === null) return null;
  if (NUMERIC_AGGREGATE_TYPES.has(meter.aggregateType)) {
    return numericDecimal(raw) === null ? `metadata.${property} must be a number or a decimal string such as "12.5" (a meter takes its ${meter.aggregateType})` : null;
  }
  return uniqueValueKey(raw) === null ? `metadata.${property} must be a string, number or boolean (a meter counts its distinct values)` : null;
}

/** Counts and sums the parts an aggregate is finished from; see `finishAggregate`. */
export interface AggregateParts {
  /** sum for sum/avg, extreme for max/min; null when no event contributed. Unused otherwise. */
  value: Decimal | null;
  /** Contributing events (count, sum, max, min, avg) or distinct values (unique). */
  count: bigint;
}

/** Quantity for one meter over events already narrowed to one customer and period. */
export function aggregateEvents(meter: MeterDefinition, events: ReadonlyArray<MeterEvent>): string | null {
  assertMeterDefinition(meter);
  const matching = events.filter((event) => eventMatchesMeter(meter, event));
  const property = meter.aggregateProperty;
  const type = meter.aggregateType;

  if (type === 'count' || property === null) {
    return finishAggregate(meter, { value: null, count: BigInt(matching.length) });
  }
  if (type === 'unique') {
    const seen = new Set<string>();
    for (const event of matching) {
      const key = uniqueValueKey(propertyValue(event.metadata, property));
      if (key !== null) seen.add(key);
    }
    return finishAggregate(meter, { value: null, count: BigInt(seen.size) });
  }

  let value: Decimal | null = null;
  let count = 0n;
  for (const event of matching) {
    const d = numericDecimal(propertyValue(event.metadata, property));
    if (d === null) continue;
    count += 1n;
    if (value === null) value = d;
    else if (type === 'sum' || type === 'avg') value = addDecimals(value, d);
    else if (type === 'max' ? compareDecimals(d, value) > 0 : compareDecimals(d, value) < 0) value = d;
  }
  return finishAggregate(meter, { value, count });
}

/** Applies the empty-set rules, avg rounding and the unit multiplier. */
export function finishAggregate(meter: MeterDefinition, parts: AggregateParts): string | null {
  let result: Decimal | null;
  switch (meter.aggregateType) {
    case 'count':
    case 'unique':
      result = decimalFromBigInt(parts.count);
      break;
    case 'sum':
      result = parts.value ?? DECIMAL_ZERO;
      break;
    case 'max':
    case 'min':
      result = parts.value;
      break;
    case 'avg':
      result = parts.value === null || parts.count === 0n ? null : divideToSignificant(parts.value, parts.count, AVG_SIGNIFICANT_DIGITS);
      break;
  }
  return result === null ? null : decimalToString(multiplyDecimal(result, BigInt(meter.unitMultiplier)));
}

/** Narrows stored events to one customer and the inclusive period [from, to]. */
export function selectEventsForPeriod<E extends StoredMeterEvent>(events: ReadonlyArray<E>, window: { customerId: string; from: Date; to: Date }): E[] {
  const from = window.from.getTime();
  const to = window.to.getTime();
  return events.filter((e) => e.customerId === window.customerId && e.timestamp.getTime() >= from && e.timestamp.getTime() <= to);
}

/** Throws on a definition the API should never have stored; a programming error, not input. */
export function assertMeterDefinition(meter: MeterDefinition): void {
  if (!AGGREGATE_TYPES.includes(meter.aggregateType)) {
    throw new RangeError(`unknown aggregate type ${JSON.stringify(meter.aggregateType)}`);
  }
  if (!Number.isSafeInteger(meter.unitMultiplier) || meter.unitMultiplier < 1) {
    throw new RangeError(`unit multiplier must be an integer ≥ 1, got ${meter.unitMultiplier}`);
  }
  if (meter.aggregateType === 'count' ? meter.aggregateProperty !== null : !meter.aggregateProperty) {
    throw new RangeError(`aggregate property must be ${meter.aggregateType === 'count' ? 'null for count' : `set for ${meter.aggregateType}`}`);
  }
  for (const value of Object.values(meter.filter ?? {})) {
    if (typeof value !== 'string') throw new RangeError('meter filter values must be strings');
  }
}

function propertyValue(metadata: EventMetadata | null, property: string): unknown {
  return metadata !== null && Object.hasOwn(metadata, property) ? metadata[property] : undefined;
}
