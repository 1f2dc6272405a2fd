// Property test of the meter rollups (docs/metering.md "Rollups"): for random events (values of
// every kind, filters, duplicate idempotency keys, backfills, timestamps on and next to hour
// boundaries), meters created before and after their events, meters archived between two
// batches, and random inclusive periods, the quantity through the rollup path (meterQuantity)
// equals the raw scan over every event of the period (rawMeterQuantity) and the in-memory
// reference aggregateEvents, for every aggregate type.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { envAndMerchants, type TestEnv } from '../support/env';
import { catalogMerchant, createCustomer, createMeter, unique, type CatalogMerchant } from '../api/catalog/fixtures';
import { AGGREGATE_TYPES, aggregateEvents, selectEventsForPeriod, type AggregateType, type StoredMeterEvent } from '../../src/metering';
import { meterQuantities, meterQuantity, rawMeterQuantity } from '../../src/domain/meters/meter-quantity';
import { meterDefinition } from '../../src/domain/meters/manage-meters';
import { scopedDb } from '../../src/db/tenancy';

const HOUR = 3_600_000;
const BASE = Date.UTC(2026, 2, 1);
const SPAN_HOURS = 30;

const VALUES: unknown[] = [
  1,
  2,
  2.5,
  '3',
  '0.1',
  0.2,
  -4,
  '007',
  null,
  'abc',
  true,
  { x: 1 },
  1000,
  '1e3',
  '12',
  12,
  '12.0',
  '-0.5',
  123456789.123,
  // JSON numbers on both sides of the NUMERIC_TEXT guard (≤ 30 integer digits, ≤ 30 decimals): the rollups test numbers by abs/scale, the raw query by the regex
  1e29,
  -1e29,
  1e30,
  1e-30,
  1e-31,
  1.5e-30,
];

/** An offset from BASE: anywhere, or on / next to an hour boundary. */
const offset = fc.oneof(
  fc.integer({ min: 0, max: SPAN_HOURS * HOUR }),
  fc.integer({ min: 0, max: SPAN_HOURS }).map((h) => h * HOUR),
  fc.integer({ min: 1, max: SPAN_HOURS }).map((h) => h * HOUR - 1),
);

const eventArb = fc.record({
  who: fc.integer({ min: 0, max: 1 }),
  at: offset,
  value: fc.option(fc.constantFrom(...VALUES), { nil: undefined, freq: 5 }),
  region: fc.constantFrom('eu', 'us', undefined),
  key: fc.option(fc.integer({ min: 0, max: 15 }), { nil: undefined, freq: 2 }),
});

const meterArb = fc.record({
  type: fc.constantFrom<AggregateType>(...AGGREGATE_TYPES),
  filter: fc.boolean(),
  multiplier: fc.constantFrom(1, 3),
  when: fc.constantFrom('before', 'after', 'archived'),
});

const rangeArb = fc
  .tuple(fc.oneof(offset, fc.integer({ min: -2 * HOUR, max: (SPAN_HOURS + 2) * HOUR })), fc.oneof(offset, fc.integer({ min: -2 * HOUR, max: (SPAN_HOURS + 2) * HOUR })))
  .map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [number, number]);

describe('meter rollups: rollup quantity = raw quantity = reference (property)', () => {
  let env: TestEnv, m: CatalogMerchant;
  let customers: string[];
  before(async () => {
    [env, m] = await envAndMerchants(catalogMerchant);
    customers = [(await createCustomer(m)).id, (await createCustomer(m)).id];
  });

  it('holds for random events, meters, archives and periods', async function () {
    this.timeout(600_000);
    let compared = 0;
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 1, maxLength: 60 }),
        fc.array(eventArb, { minLength: 0, maxLength: 40 }),
        fc.array(meterArb, { minLength: 1, maxLength: 4 }),
        fc.array(rangeArb, { minLength: 1, maxLength: 4 }),
        async (first, second, meterSpecs, ranges) => {
          const eventName = unique('roll');
          const prefix = unique('k');
          const tenant = { merchantId: m.id, mode: 'test' as const };
          const db = scopedDb(env.db, tenant);
          const make = async (s: (typeof meterSpecs)[number]) =>
            createMeter(m, {
              event_name: eventName,
              aggregate_type: s.type,
              aggregate_property: s.type === 'count' ? null : 'units',
              filter: s.filter ? { region: 'eu' } : null,
              unit_multiplier: s.multiplier,
            });
          const meters: Array<{ id: string; when: string }> = [];
          for (const spec of meterSpecs) if (spec.when !== 'after') meters.push({ id: (await make(spec)).id, when: spec.when });

          const seen = new Set<string>();
          const storedFirst: StoredMeterEvent[] = [];
          const storedSecond: StoredMeterEvent[] = [];
          const send = async (batch: typeof first, into: StoredMeterEvent[]) => {
            if (batch.length === 0) return;
            const events = batch.map((e) => {
              const metadata: Record<string, unknown> = {};
              if (e.value !== undefined) metadata.units = e.value;
              if (e.region !== undefined) metadata.region = e.region;
              return {
                event_name: eventName,
                customer: customers[e.who],
                timestamp: new Date(BASE + e.at).toISOString(),
                metadata,
                ...(e.key !== undefined ? { idempotency_key: `${prefix}-${e.key}` } : {}),
              };
            });
            const res = await m.call('POST', '/v1/events/batch', { body: { events } });
            assert.equal(res.status, 200, res.text);
            const refused = new Set<number>(res.body.errors.map((x: { index: number }) => x.index));
            let recorded = 0;
            events.forEach((e, i) => {
              if (refused.has(i)) return;
              if (e.idempotency_key !== undefined) {
                if (seen.has(e.idempotency_key)) return;
                seen.add(e.idempotency_key);
              }
              recorded++;
              into.push({ customerId: e.customer!, eventName, timestamp: new Date(e.timestamp), metadata: JSON.parse(JSON.stringify(e.metadata)) });
            });
            assert.equal(res.body.ingested, recorded, 'ingested = events not refused and not duplicates');
          };
          await send(first, storedFirst);
          for (const meter of meters) if (meter.when === 'archived') assert.equal((await m.call('DELETE', `/v1/meters/${meter.id}`)).status, 200);
          await send(second, storedSecond);
          for (const spec of meterSpecs) if (spec.when === 'after') meters.push({ id: (await make(spec)).id, when: 'after' });

          for (const meter of meters) {
            const row = await env.db.meter.findUniqueOrThrow({ where: { id: meter.id } });
            const counted = meter.when === 'archived' ? storedFirst : [...storedFirst, ...storedSecond];
            const periods = ranges.map(([a, b]) => ({ from: new Date(BASE + a), to: new Date(BASE + b) }));
            const many = await meterQuantities(db, tenant, { meter: row, customerId: customers[0]!, ranges: periods });
            for (const [i, { from, to }] of periods.entries()) {
              const expected = aggregateEvents(meterDefinition(row), selectEventsForPeriod(counted, { customerId: customers[0]!, from, to }));
              const raw = await rawMeterQuantity(db, tenant, row, customers[0]!, from, to);
              const viaRollups = await meterQuantity(db, tenant, { meter: row, customerId: customers[0]!, from, to });
              const why = `${row.aggregateType} ${JSON.stringify(row.filter)} ×${row.unitMultiplier} ${meter.when} [${from.toISOString()}, ${to.toISOString()}]`;
              assert.equal(raw, expected, `raw scan vs reference: ${why}`);
              assert.equal(viaRollups.quantity, expected, `rollups vs reference: ${why}`);
              assert.equal(many.quantities[i], expected, `several periods in one statement: ${why}`);
              compared++;
              if (expected !== null && expected !== '0') nonEmpty++;
            }
          }
        },
      ),
      { numRuns: Number(process.env.ROLLUP_PROPERTY_RUNS ?? 40), seed: Number(process.env.ROLLUP_PROPERTY_SEED ?? 32032) },
    );
    // Not vacuous: most comparisons had events to aggregate.
    assert.ok(compared > 40, `compared ${compared}`);
    assert.ok(nonEmpty > compared / 4, `non-empty ${nonEmpty} of ${compared}`);
  });

  it('the rollup path reads rollups: deleting a meter’s rollup rows changes its quantity (so whole hours do not come from raw events)', async () => {
    const eventName = unique('roll-read');
    const meter = await createMeter(m, { event_name: eventName, aggregate_type: 'sum', aggregate_property: 'units' });
    const events = Array.from({ length: 10 }, (_, i) => ({
      event_name: eventName,
      customer: customers[0],
      timestamp: new Date(BASE + i * HOUR + 5).toISOString(),
      metadata: { units: 2 },
    }));
    assert.equal((await m.call('POST', '/v1/events/batch', { body: { events } })).body.ingested, 10);
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const db = scopedDb(env.db, tenant);
    const period = { from: new Date(BASE), to: new Date(BASE + 10 * HOUR - 1) };
    assert.equal((await meterQuantity(db, tenant, { meterId: meter.id, customerId: customers[0]!, ...period })).quantity, '20');
    const hourly = await env.db.meterUsageHourly.findMany({ where: { meterId: meter.id } });
    assert.equal(hourly.length, 10);
    assert.deepEqual(
      hourly.map((h) => [h.n, h.sum?.toString()]),
      hourly.map(() => [1n, '2']),
    );
    await env.db.meterUsageHourly.deleteMany({ where: { meterId: meter.id, hour: new Date(BASE + 3 * HOUR) } });
    assert.equal((await meterQuantity(db, tenant, { meterId: meter.id, customerId: customers[0]!, ...period })).quantity, '18');
    // A period with edges inside hours 0 and 9 reads those from raw events.
    const inner = { from: new Date(BASE + 1), to: new Date(BASE + 9 * HOUR + 6) };
    assert.equal((await meterQuantity(db, tenant, { meterId: meter.id, customerId: customers[0]!, ...inner })).quantity, '18');
  });
});
