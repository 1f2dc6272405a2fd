// GET /v1/meters/{id}/quantities and the domain module behind it (src/domain/meters/meter-quantity.ts),
// cross-checked against the in-memory reference aggregateEvents on the same generated events for
// every aggregate type, several filters and multipliers, and several periods.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { catalogMerchant, createCustomer, createMeter, unique, type CatalogMerchant } from './fixtures';
import { AGGREGATE_TYPES, aggregateEvents, selectEventsForPeriod, type StoredMeterEvent } from '../../../src/metering';
import { meterQuantity } from '../../../src/domain/meters/meter-quantity';
import { meterDefinition } from '../../../src/domain/meters/manage-meters';
import { scopedDb } from '../../../src/db/tenancy';
import { createDb } from '../../../src/db/client';

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES: unknown[] = [1, 2, 2.5, '3', '0.1', 0.2, -4, '007', null, 'abc', true, false, { x: 1 }, [1], 1000, '1e3', 12, '12', '12.0', '-0.5', 123456789.123, undefined];

describe('catalog: meter quantities', () => {
  let env: TestEnv, m: CatalogMerchant, other: CatalogMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(catalogMerchant, catalogMerchant)));

  const qs = (customer: string, from: string, to: string) =>
    `customer=${encodeURIComponent(customer)}&period_start=${encodeURIComponent(from)}&period_end=${encodeURIComponent(to)}`;

  describe('SQL quantity equals aggregateEvents for every aggregate type, filter and multiplier', () => {
    const eventName = unique('cross');
    const stored: StoredMeterEvent[] = [];
    let customer: any;
    let neighbour: any;
    const start = Date.UTC(2026, 0, 1);
    const day = 86_400_000;
    const periods: Array<[string, Date, Date]> = [
      ['February (inclusive bounds)', new Date(Date.UTC(2026, 1, 1)), new Date(Date.UTC(2026, 1, 28, 23, 59, 59, 999))],
      ['the whole quarter', new Date(start), new Date(start + 90 * day)],
      ['an empty window', new Date(Date.UTC(2025, 0, 1)), new Date(Date.UTC(2025, 0, 2))],
      ['one instant (a boundary event)', new Date(Date.UTC(2026, 1, 1)), new Date(Date.UTC(2026, 1, 1))],
    ];

    before(async () => {
      customer = await createCustomer(m);
      neighbour = await createCustomer(m);
      const rand = prng(20260301);
      const events: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 400; i++) {
        const metadata: Record<string, unknown> = {};
        const v = VALUES[Math.floor(rand() * VALUES.length)];
        if (v !== undefined) metadata.units = v;
        const r = rand();
        if (r < 0.45) metadata.region = 'eu';
        else if (r < 0.8) metadata.region = 'us';
        else if (r < 0.9) metadata.region = 7; // a number never matches a string filter
        metadata.tier = rand() < 0.5 ? 'a' : 'b';
        const who = rand() < 0.85 ? customer.id : neighbour.id;
        const name = rand() < 0.9 ? eventName : `${eventName}-other`;
        const ts = new Date(start + Math.floor(rand() * 90 * day));
        events.push({ event_name: name, customer: who, timestamp: ts.toISOString(), metadata });
      }
      // events exactly on the February bounds
      for (const ts of [periods[0]![1], periods[0]![2]])
        events.push({ event_name: eventName, customer: customer.id, timestamp: ts.toISOString(), metadata: { units: 5, region: 'eu', tier: 'b' } });
      for (let i = 0; i < events.length; i += 200) {
        const res = await m.call('POST', '/v1/events/batch', { body: { events: events.slice(i, i + 200) } });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.errors, []);
      }
      for (const e of events) {
        stored.push({
          customerId: e.customer as string,
          eventName: e.event_name as string,
          timestamp: new Date(e.timestamp as string),
          metadata: JSON.parse(JSON.stringify(e.metadata)),
        });
      }
    });

    const filters: Array<Record<string, string> | null> = [null, { region: 'eu' }, { region: 'eu', tier: 'b' }];
    for (const aggregateType of AGGREGATE_TYPES) {
      for (const filter of filters) {
        for (const multiplier of [1, 7]) {
          it(`${aggregateType}, filter ${JSON.stringify(filter)}, ×${multiplier}`, async () => {
            // Created after the events were stored, so stored non-numeric values exercise the SQL guard.
            const meter = await createMeter(m, {
              event_name: eventName,
              aggregate_type: aggregateType,
              aggregate_property: aggregateType === 'count' ? null : 'units',
              filter,
              unit_multiplier: multiplier,
            });
            const row = await env.db.meter.findUniqueOrThrow({ where: { id: meter.id } });
            const db = scopedDb(env.db, { merchantId: m.id, mode: 'test' });
            for (const [why, from, to] of periods) {
              const expected = aggregateEvents(meterDefinition(row), selectEventsForPeriod(stored, { customerId: customer.id, from, to }));
              const viaDomain = await meterQuantity(db, { merchantId: m.id, mode: 'test' }, { meterId: meter.id, customerId: customer.id, from, to });
              assert.equal(viaDomain.quantity, expected, `${why}: domain`);
              const res = await m.call('GET', `/v1/meters/${meter.id}/quantities?${qs(customer.id, from.toISOString(), to.toISOString())}`);
              assert.equal(res.status, 200, res.text);
              assert.deepEqual(
                res.body,
                {
                  meter: meter.id,
                  customer: customer.id,
                  period_start: from.toISOString(),
                  period_end: to.toISOString(),
                  quantity: expected === null ? null : Number(expected),
                },
                why,
              );
            }
          });
        }
      }
    }

    it('the cross-check is not vacuous: February has matching events for every type', () => {
      const feb = selectEventsForPeriod(stored, { customerId: customer.id, from: periods[0]![1], to: periods[0]![2] }).filter((e) => e.eventName === eventName);
      assert.ok(feb.length > 50, String(feb.length));
      const quantities = AGGREGATE_TYPES.map((type) =>
        aggregateEvents({ eventName, aggregateType: type, aggregateProperty: type === 'count' ? null : 'units', filter: null, unitMultiplier: 1 }, feb),
      );
      assert.ok(
        quantities.every((q) => q !== null && q !== '0'),
        JSON.stringify(quantities),
      );
      assert.ok(new Set(quantities).size >= 5, JSON.stringify(quantities));
    });
  });

  it('empty periods: count, sum and unique give 0; max, min and avg give null', async () => {
    const c = await createCustomer(m);
    const expected: Record<string, number | null> = { count: 0, sum: 0, unique: 0, max: null, min: null, avg: null };
    for (const type of AGGREGATE_TYPES) {
      const meter = await createMeter(m, { aggregate_type: type, aggregate_property: type === 'count' ? null : 'v' });
      const res = await m.call('GET', `/v1/meters/${meter.id}/quantities?${qs(c.id, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.quantity, expected[type], type);
    }
  });

  it('an archived meter ignores events received after archiving; its history stays readable', async () => {
    const c = await createCustomer(m);
    const meter = await createMeter(m, { aggregate_type: 'sum', aggregate_property: 'units' });
    const send = (units: number, ts: string) => m.call('POST', '/v1/events', { body: { event_name: meter.event_name, customer: c.id, timestamp: ts, metadata: { units } } });
    assert.equal((await send(10, '2026-01-10T00:00:00Z')).status, 201);
    assert.equal((await send(5, '2025-12-01T00:00:00Z')).status, 201); // backfill before archiving
    const q = `/v1/meters/${meter.id}/quantities?${qs(c.id, '2025-01-01T00:00:00Z', '2026-12-31T00:00:00Z')}`;
    assert.equal((await m.call('GET', q)).body.quantity, 15);
    assert.equal((await m.call('DELETE', `/v1/meters/${meter.id}`)).status, 200);
    assert.equal((await send(100, '2026-01-11T00:00:00Z')).status, 201); // arrives after archiving
    assert.equal((await send(1000, '2025-06-01T00:00:00Z')).status, 201); // backfilled after archiving
    assert.equal((await m.call('GET', q)).body.quantity, 15);
    // the events themselves are stored and listed
    const listed = await m.call('GET', `/v1/events?customer=${c.id}`);
    assert.equal(listed.body.data.length, 4);
    // an identical meter that is not archived sees all of them
    const live = await createMeter(m, { event_name: meter.event_name, aggregate_type: 'sum', aggregate_property: 'units' });
    assert.equal((await m.call('GET', `/v1/meters/${live.id}/quantities?${qs(c.id, '2025-01-01T00:00:00Z', '2026-12-31T00:00:00Z')}`)).body.quantity, 1115);
  });

  it('the period bounds are inclusive and other customers, event names and tenants do not count', async () => {
    const c = await createCustomer(m);
    const d = await createCustomer(m);
    const meter = await createMeter(m);
    const events = [
      { event_name: meter.event_name, customer: c.id, timestamp: '2026-03-01T00:00:00.000Z' },
      { event_name: meter.event_name, customer: c.id, timestamp: '2026-03-31T23:59:59.999Z' },
      { event_name: meter.event_name, customer: c.id, timestamp: '2026-04-01T00:00:00.000Z' },
      { event_name: meter.event_name, customer: c.id, timestamp: '2026-02-28T23:59:59.999Z' },
      { event_name: meter.event_name, customer: d.id, timestamp: '2026-03-15T00:00:00.000Z' },
      { event_name: `${meter.event_name}x`, customer: c.id, timestamp: '2026-03-15T00:00:00.000Z' },
    ];
    assert.equal((await m.call('POST', '/v1/events/batch', { body: { events } })).body.ingested, 6);
    const res = await m.call('GET', `/v1/meters/${meter.id}/quantities?${qs(c.id, '2026-03-01T00:00:00.000Z', '2026-03-31T23:59:59.999Z')}`);
    assert.equal(res.body.quantity, 2);
    const offset = await m.call('GET', `/v1/meters/${meter.id}/quantities?${qs(c.id, '2026-03-01T01:00:00+01:00', '2026-04-01T00:59:59.999+01:00')}`);
    assert.equal(offset.body.period_start, '2026-03-01T00:00:00.000Z');
    assert.equal(offset.body.quantity, 2);
  });

  it('the period bounds hold whatever the database session time zone is', async () => {
    const c = await createCustomer(m);
    const meter = await createMeter(m);
    const events = ['2026-03-01T00:00:00.000Z', '2026-03-31T23:59:59.999Z', '2026-04-01T05:00:00.000Z'].map((timestamp) => ({
      event_name: meter.event_name,
      customer: c.id,
      timestamp,
    }));
    assert.equal((await m.call('POST', '/v1/events/batch', { body: { events } })).body.ingested, 3);
    const url = new URL(env.databaseUrl);
    url.searchParams.set('options', '-c TimeZone=Asia/Tokyo');
    const tokyo = createDb(url.toString(), { poolSize: 1 });
    try {
      const tz = await tokyo.$queryRawUnsafe<Array<{ tz: string }>>(`SELECT current_setting('TimeZone') AS tz`);
      assert.equal(tz[0]!.tz, 'Asia/Tokyo');
      const tenant = { merchantId: m.id, mode: 'test' as const };
      const r = await meterQuantity(scopedDb(tokyo, tenant), tenant, {
        meterId: meter.id,
        customerId: c.id,
        from: new Date('2026-03-01T00:00:00.000Z'),
        to: new Date('2026-03-31T23:59:59.999Z'),
      });
      assert.equal(r.quantity, '2');
    } finally {
      await tokyo.$disconnect();
    }
  });

  describe('bad input', () => {
    let meter: any;
    let c: any;
    before(async () => {
      meter = await createMeter(m);
      c = await createCustomer(m);
    });
    const cases: Array<[string, () => string, number, string, string]> = [
      ['missing customer', () => `period_start=2026-01-01T00:00:00Z&period_end=2026-02-01T00:00:00Z`, 400, 'validation_failed', 'customer'],
      ['missing period_start', () => `customer=${c.id}&period_end=2026-02-01T00:00:00Z`, 400, 'validation_failed', 'period_start'],
      ['missing period_end', () => `customer=${c.id}&period_start=2026-02-01T00:00:00Z`, 400, 'validation_failed', 'period_end'],
      ['period_start not a timestamp', () => qs(c.id, 'last month', '2026-02-01T00:00:00Z'), 400, 'validation_failed', 'period_start'],
      ['period_end a date only', () => qs(c.id, '2026-01-01T00:00:00Z', '2026-02-01'), 400, 'validation_failed', 'period_end'],
      ['period_start after period_end', () => qs(c.id, '2026-03-01T00:00:00Z', '2026-02-01T00:00:00Z'), 400, 'validation_failed', 'period_start'],
      ['customer repeated', () => `${qs(c.id, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')}&customer=${c.id}`, 400, 'validation_failed', 'customer'],
      ['customer with bad characters', () => qs('cus x', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'), 400, 'validation_failed', 'customer'],
      ['unknown customer', () => qs('cus_unknown', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'), 404, 'resource_not_found', 'customer'],
    ];
    for (const [why, query, status, code, param] of cases) {
      it(`${why} → ${status} ${code} (${param})`, async () => {
        expectError(await m.call('GET', `/v1/meters/${meter.id}/quantities?${query()}`), status, code, param);
      });
    }
    it("another merchant's and the other mode's customers are not found", async () => {
      const foreign = await createCustomer(other);
      const live = (await m.live('POST', '/v1/customers', { body: { email: 'q@example.is' } })).body;
      for (const id of [foreign.id, live.id]) {
        expectError(await m.call('GET', `/v1/meters/${meter.id}/quantities?${qs(id, '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')}`), 404, 'resource_not_found', 'customer');
      }
    });
  });
});
