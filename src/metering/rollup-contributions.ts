// What a batch of new events adds to the meters' hourly rollups, computed from the events in
// memory (docs/metering.md "The ingestion path"). The ingest statement writes these partial
// aggregates instead of computing them from the rows it inserted, when it can show they are the
// same thing: it inserted every row the caller expected it to (no idempotency key was recorded
// before) and the live meters of the events' names are the ones the caller aggregated for.
// Otherwise it falls back to computing them in SQL (rollupUpsertCtes), so either way a rollup row
// holds exactly the raw events of its hour that its meter aggregates.
//
// The values are the reference implementation's (aggregate.ts: matchesFilter, numericDecimal,
// uniqueValueKey), which the SQL-vs-reference cross-check holds equal to the SQL expressions of
// rollups.ts; the hour is the UTC hour of the timestamp, as hourSql.
import { matchesFilter, numericDecimal, uniqueValueKey } from './aggregate';
import { addDecimals, compareDecimals, decimalToString, type Decimal } from './decimal';
import { ROLLUP_BUCKET_MS } from './rollups';
import type { EventMetadata, MeterDefinition } from './types';

export interface RollupMeter {
  id: string;
  definition: MeterDefinition;
}

export interface RollupEvent {
  customerId: string;
  eventName: string;
  timestamp: Date;
  metadata: EventMetadata;
}

/** One hourly rollup's partial aggregate: events (n), numeric values (nv), their sum, min and max. */
export interface HourlyContribution {
  meterId: string;
  customerId: string;
  /** Start of the UTC hour, epoch ms. */
  hour: number;
  n: number;
  nv: number;
  sum: Decimal | null;
  min: Decimal | null;
  max: Decimal | null;
}

/** One distinct `unique` value seen in an hour. */
export interface ValueContribution {
  meterId: string;
  customerId: string;
  hour: number;
  value: string;
}

export interface RollupContributions {
  hourly: HourlyContribution[];
  values: ValueContribution[];
}

function propertyOf(metadata: EventMetadata, property: string): unknown {
  return Object.hasOwn(metadata, property) ? metadata[property] : undefined;
}

interface Accumulator {
  hourly: HourlyContribution;
  /** The distinct `unique` values of the hour (unique meters only). */
  values: Set<string> | null;
}

/**
 * The rollup contributions of `events` (each counted once: the caller passes exactly the rows it
 * expects to be inserted) for the live meters of their names (`metersByName`).
 */
export function rollupContributions(events: ReadonlyArray<RollupEvent>, metersByName: ReadonlyMap<string, ReadonlyArray<RollupMeter>>): RollupContributions {
  // Per meter, the accumulators by customer and hour; a batch's consecutive events mostly share
  // customer, name and hour, so the last event's accumulators are kept at hand.
  const byMeter = new Map<RollupMeter, Map<string, Accumulator>>();
  const hourly: HourlyContribution[] = [];
  let lastCustomer: string | null = null;
  let lastName: string | null = null;
  let lastHour = NaN;
  let lastAccs: Array<Accumulator | undefined> = [];
  for (const event of events) {
    const meters = metersByName.get(event.eventName);
    if (meters === undefined || meters.length === 0) continue;
    const hour = Math.floor(event.timestamp.getTime() / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS;
    if (event.customerId !== lastCustomer || event.eventName !== lastName || hour !== lastHour) {
      lastCustomer = event.customerId;
      lastName = event.eventName;
      lastHour = hour;
      lastAccs = new Array<Accumulator | undefined>(meters.length);
    }
    for (let i = 0; i < meters.length; i++) {
      const meter = meters[i]!;
      const m = meter.definition;
      if (!matchesFilter(m.filter, event.metadata)) continue;
      let acc = lastAccs[i];
      if (acc === undefined) {
        let byKey = byMeter.get(meter);
        if (byKey === undefined) byMeter.set(meter, (byKey = new Map()));
        const key = `${event.customerId}\u0000${hour}`;
        acc = byKey.get(key);
        if (acc === undefined) {
          const h: HourlyContribution = { meterId: meter.id, customerId: event.customerId, hour, n: 0, nv: 0, sum: null, min: null, max: null };
          hourly.push(h);
          acc = { hourly: h, values: m.aggregateType === 'unique' ? new Set() : null };
          byKey.set(key, acc);
        }
        lastAccs[i] = acc;
      }
      const h = acc.hourly;
      h.n++;
      if (m.aggregateProperty === null) continue;
      const raw = propertyOf(event.metadata, m.aggregateProperty);
      if (raw === undefined || raw === null) continue;
      if (acc.values !== null) {
        const value = uniqueValueKey(raw);
        if (value !== null) acc.values.add(value);
        continue;
      }
      const d = numericDecimal(raw);
      if (d === null) continue;
      h.nv++;
      h.sum = h.sum === null ? d : addDecimals(h.sum, d);
      if (h.min === null || compareDecimals(d, h.min) < 0) h.min = d;
      if (h.max === null || compareDecimals(d, h.max) > 0) h.max = d;
    }
  }
  const values: ValueContribution[] = [];
  for (const byKey of byMeter.values()) {
    for (const acc of byKey.values()) {
      if (acc.values === null) continue;
      const { meterId, customerId, hour } = acc.hourly;
      for (const value of acc.values) values.push({ meterId, customerId, hour, value });
    }
  }
  return { hourly, values };
}

/** Decimal text for SQL's numeric input, or null. */
export function decimalParam(d: Decimal | null): string | null {
  return d === null ? null : decimalToString(d);
}
