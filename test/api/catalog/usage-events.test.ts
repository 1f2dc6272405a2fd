import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { catalogMerchant, createCustomer, createMeter, unique, type CatalogMerchant } from './fixtures';

describe('catalog: usage events', () => {
  let env: TestEnv, m: CatalogMerchant, other: CatalogMerchant;
  let customer: any;
  let withExternal: any;
  before(async () => {
    [env, m, other] = await envAndMerchants(catalogMerchant, catalogMerchant);
    customer = await createCustomer(m);
    withExternal = await createCustomer(m, { external_id: unique('ext') });
  });

  it('records one event (201) with a ue_ id; timestamp defaults to now and metadata to {}', async () => {
    const before = Date.now();
    const res = await m.call('POST', '/v1/events', { body: { event_name: 'api.call', customer: customer.id } });
    assert.equal(res.status, 201, res.text);
    const e = res.body;
    assert.match(e.id, /^ue_/);
    assert.deepEqual([e.event_name, e.customer, e.idempotency_key, e.metadata], ['api.call', customer.id, null, {}]);
    const ts = Date.parse(e.timestamp);
    assert.ok(ts >= before - 1000 && ts <= Date.now() + 1000, e.timestamp);
  });

  it('resolves external_customer_id to the customer and keeps arbitrary metadata', async () => {
    const metadata = { units: 5, nested: { a: [1, 'two', null] }, flag: true };
    const res = await m.call('POST', '/v1/events', {
      body: { event_name: 'api.call', external_customer_id: withExternal.external_id, metadata, timestamp: '2025-01-01T00:00:00+02:00' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.customer, withExternal.id);
    assert.deepEqual(res.body.metadata, metadata);
    assert.equal(res.body.timestamp, '2024-12-31T22:00:00.000Z');
  });

  it('backfill is allowed; the future is refused beyond five minutes', async () => {
    const old = await m.call('POST', '/v1/events', { body: { event_name: 'x', customer: customer.id, timestamp: '2001-09-09T01:46:40.000Z' } });
    assert.equal(old.status, 201, old.text);
    const soon = new Date(Date.now() + 4 * 60_000).toISOString();
    assert.equal((await m.call('POST', '/v1/events', { body: { event_name: 'x', customer: customer.id, timestamp: soon } })).status, 201);
    const late = new Date(Date.now() + 6 * 60_000).toISOString();
    expectError(await m.call('POST', '/v1/events', { body: { event_name: 'x', customer: customer.id, timestamp: late } }), 400, 'validation_failed', 'timestamp');
  });

  it('a second event with the same idempotency_key is not recorded: 200 with the first event', async () => {
    const key = unique('k');
    const first = await m.call('POST', '/v1/events', { body: { event_name: 'a', customer: customer.id, idempotency_key: key, metadata: { n: '1' } } });
    assert.equal(first.status, 201);
    const second = await m.call('POST', '/v1/events', { body: { event_name: 'b', customer: customer.id, idempotency_key: key, metadata: { n: '2' } } });
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(second.body, first.body);
    // the key is per merchant and mode
    const otherCustomer = await createCustomer(other);
    assert.equal((await other.call('POST', '/v1/events', { body: { event_name: 'a', customer: otherCustomer.id, idempotency_key: key } })).status, 201);
    const liveCustomer = (await m.live('POST', '/v1/customers', { body: { email: 'l@example.is' } })).body;
    assert.equal((await m.live('POST', '/v1/events', { body: { event_name: 'a', customer: liveCustomer.id, idempotency_key: key } })).status, 201);
    // and a batch repeating it records nothing
    const batch = await m.call('POST', '/v1/events/batch', { body: { events: [{ event_name: 'a', customer: customer.id, idempotency_key: key }] } });
    assert.deepEqual(batch.body, { ingested: 0, duplicates: 1, errors: [] });
    const rows = await env.db.usageEvent.count({ where: { merchantId: m.id, mode: 'test', idempotencyKey: key } });
    assert.equal(rows, 1);
  });

  describe('bad input on POST /v1/events', () => {
    const cases: Array<[string, () => Record<string, unknown>, number, string, string]> = [
      ['missing event_name', () => ({ customer: customer.id }), 400, 'validation_failed', 'event_name'],
      ['event_name of the wrong type', () => ({ event_name: 7, customer: customer.id }), 400, 'validation_failed', 'event_name'],
      ['empty event_name', () => ({ event_name: '', customer: customer.id }), 400, 'validation_failed', 'event_name'],
      ['event_name 201 characters', () => ({ event_name: 'e'.repeat(201), customer: customer.id }), 400, 'validation_failed', 'event_name'],
      ['event_name with NUL', () => ({ event_name: 'a\u0000', customer: customer.id }), 400, 'validation_failed', 'event_name'],
      ['neither customer nor external_customer_id', () => ({ event_name: 'a' }), 400, 'validation_failed', 'customer'],
      ['both customer and external_customer_id', () => ({ event_name: 'a', customer: customer.id, external_customer_id: 'x' }), 400, 'validation_failed', 'customer'],
      ['customer of the wrong type', () => ({ event_name: 'a', customer: 12 }), 400, 'validation_failed', 'customer'],
      ['customer with bad characters', () => ({ event_name: 'a', customer: 'cus x' }), 400, 'validation_failed', 'customer'],
      ['external_customer_id of the wrong type', () => ({ event_name: 'a', external_customer_id: ['x'] }), 400, 'validation_failed', 'external_customer_id'],
      ['idempotency_key of the wrong type', () => ({ event_name: 'a', customer: customer.id, idempotency_key: 5 }), 400, 'validation_failed', 'idempotency_key'],
      ['idempotency_key 201 characters', () => ({ event_name: 'a', customer: customer.id, idempotency_key: 'k'.repeat(201) }), 400, 'validation_failed', 'idempotency_key'],
      ['empty idempotency_key', () => ({ event_name: 'a', customer: customer.id, idempotency_key: '' }), 400, 'validation_failed', 'idempotency_key'],
      ['timestamp as a number', () => ({ event_name: 'a', customer: customer.id, timestamp: 1700000000 }), 400, 'validation_failed', 'timestamp'],
      ['timestamp without zone', () => ({ event_name: 'a', customer: customer.id, timestamp: '2026-01-01T00:00:00' }), 400, 'validation_failed', 'timestamp'],
      ['timestamp not a date', () => ({ event_name: 'a', customer: customer.id, timestamp: 'yesterday' }), 400, 'validation_failed', 'timestamp'],
      ['timestamp 30 February', () => ({ event_name: 'a', customer: customer.id, timestamp: '2026-02-30T00:00:00Z' }), 400, 'validation_failed', 'timestamp'],
      ['metadata as a string', () => ({ event_name: 'a', customer: customer.id, metadata: 'x' }), 400, 'validation_failed', 'metadata'],
      ['metadata as an array', () => ({ event_name: 'a', customer: customer.id, metadata: [1] }), 400, 'validation_failed', 'metadata'],
      [
        'metadata over 16 KiB',
        () => ({ event_name: 'a', customer: customer.id, metadata: { big: 'x'.repeat(9_000), bigger: 'y'.repeat(9_000) } }),
        400,
        'validation_failed',
        'metadata',
      ],
      // A single string over 10,000 characters is refused by the input-safety layer (docs/errors.md "Input limits").
      ['a metadata string over 10,000 characters', () => ({ event_name: 'a', customer: customer.id, metadata: { big: 'x'.repeat(17_000) } }), 400, 'validation_failed', 'metadata'],
      ['metadata with NUL', () => ({ event_name: 'a', customer: customer.id, metadata: { a: { b: 'x\u0000' } } }), 400, 'validation_failed', 'metadata'],
      ['metadata with a lone surrogate', () => ({ event_name: 'a', customer: customer.id, metadata: { a: '\ud800' } }), 400, 'validation_failed', 'metadata'],
      ['unknown customer', () => ({ event_name: 'a', customer: 'cus_unknown' }), 404, 'resource_not_found', 'customer'],
      ['unknown external_customer_id', () => ({ event_name: 'a', external_customer_id: 'nobody' }), 404, 'resource_not_found', 'external_customer_id'],
    ];
    for (const [why, body, status, code, param] of cases) {
      it(`${why} → ${status} ${code} (${param})`, async () => expectError(await m.call('POST', '/v1/events', { body: body() }), status, code, param));
    }

    it("another merchant's and the other mode's customers are unknown (by id and by external id)", async () => {
      const ext = unique('shared-ext');
      const foreign = await createCustomer(other, { external_id: ext });
      const live = (await m.live('POST', '/v1/customers', { body: { email: 'l@example.is', external_id: unique('live-ext') } })).body;
      for (const id of [foreign.id, live.id]) {
        expectError(await m.call('POST', '/v1/events', { body: { event_name: 'a', customer: id } }), 404, 'resource_not_found', 'customer');
      }
      for (const ext2 of [ext, live.external_id]) {
        expectError(await m.call('POST', '/v1/events', { body: { event_name: 'a', external_customer_id: ext2 } }), 404, 'resource_not_found', 'external_customer_id');
      }
      const batch = await m.call('POST', '/v1/events/batch', {
        body: {
          events: [
            { event_name: 'a', customer: foreign.id },
            { event_name: 'a', customer: live.id },
          ],
        },
      });
      assert.equal(batch.body.ingested, 0);
      assert.deepEqual(
        batch.body.errors.map((e: any) => e.index),
        [0, 1],
      );
    });

    it('a non-numeric value of a property a live meter aggregates is refused; archived meters do not check', async () => {
      const name = unique('metered');
      const meter = await createMeter(m, { event_name: name, aggregate_type: 'sum', aggregate_property: 'units' });
      for (const bad of ['many', true, { n: 1 }, '1e3', ' 5']) {
        expectError(
          await m.call('POST', '/v1/events', { body: { event_name: name, customer: customer.id, metadata: { units: bad } } }),
          400,
          'validation_failed',
          'metadata.units',
        );
      }
      for (const good of [5, '12.5', -3, null]) {
        assert.equal((await m.call('POST', '/v1/events', { body: { event_name: name, customer: customer.id, metadata: { units: good } } })).status, 201);
      }
      // events without the property, or outside the meter's filter, are fine
      assert.equal((await m.call('POST', '/v1/events', { body: { event_name: name, customer: customer.id, metadata: {} } })).status, 201);
      await m.call('DELETE', `/v1/meters/${meter.id}`);
      assert.equal((await m.call('POST', '/v1/events', { body: { event_name: name, customer: customer.id, metadata: { units: 'many' } } })).status, 201);
    });
  });

  describe('POST /v1/events/batch', () => {
    const ev = (i: number, extra: Record<string, unknown> = {}): Record<string, any> => ({ event_name: 'batch.ev', customer: customer.id, metadata: { i: String(i) }, ...extra });

    it('ingests 1,000 events in one request', async () => {
      const events = Array.from({ length: 1000 }, (_, i) => ev(i, { idempotency_key: unique(`b${i}`) }));
      const res = await m.call('POST', '/v1/events/batch', { body: { events } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { ingested: 1000, duplicates: 0, errors: [] });
    });

    const badBatches: Array<[string, unknown]> = [
      ['1,001 events', Array.from({ length: 1001 }, (_, i) => ({ event_name: 'x', customer: 'cus_x', metadata: { i } }))],
      ['no events', []],
      ['events as an object', { event_name: 'x' }],
      ['events as a string', 'x'],
      ['events missing', undefined],
    ];
    for (const [why, events] of badBatches) {
      it(`${why} → 400 validation_failed (events)`, async () => {
        expectError(await m.call('POST', '/v1/events/batch', { body: events === undefined ? {} : { events } }), 400, 'validation_failed', 'events');
      });
    }

    it('one bad event never blocks the rest: errors carry the index and a message', async () => {
      const events: unknown[] = [
        ev(0),
        { customer: customer.id },
        'not an object',
        ev(3, { customer: 'cus_unknown' }),
        ev(4, { timestamp: 'soon' }),
        ev(5, { idempotency_key: 'k'.repeat(201) }),
        ev(6, { metadata: [] }),
        null,
        ev(8, { event_name: 'e'.repeat(201) }),
        { event_name: 'batch.ev', external_customer_id: withExternal.external_id },
        ev(10, { external_customer_id: 'nobody', customer: undefined }),
      ];
      const res = await m.call('POST', '/v1/events/batch', { body: { events } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.ingested, 2);
      assert.deepEqual(
        res.body.errors.map((e: any) => e.index),
        [1, 2, 3, 4, 5, 6, 7, 8, 10],
      );
      for (const e of res.body.errors) assert.ok(typeof e.message === 'string' && e.message.length > 0);
      assert.match(res.body.errors.find((e: any) => e.index === 3).message, /customer/);
    });

    it('duplicate keys inside one batch record the first only', async () => {
      const key = unique('dup');
      const res = await m.call('POST', '/v1/events/batch', { body: { events: [ev(0, { idempotency_key: key }), ev(1, { idempotency_key: key }), ev(2)] } });
      assert.deepEqual(res.body, { ingested: 2, duplicates: 1, errors: [] });
      const rows = await env.db.usageEvent.findMany({ where: { merchantId: m.id, idempotencyKey: key } });
      assert.deepEqual(
        rows.map((r) => (r.metadata as any).i),
        ['0'],
      );
    });

    it('parallel batches with overlapping keys record each key exactly once', async () => {
      const run = unique('par');
      const keys = Array.from({ length: 600 }, (_, i) => `${run}-${i}`);
      // 8 batches of 300 keys, each overlapping its neighbours, in different orders
      const batches = Array.from({ length: 8 }, (_, b) => {
        const slice = Array.from({ length: 300 }, (_, j) => keys[(b * 75 + j) % keys.length]!);
        if (b % 2 === 1) slice.reverse();
        return slice.map((k) => ev(0, { idempotency_key: k }));
      });
      const results = await Promise.all(batches.map((events) => m.call('POST', '/v1/events/batch', { body: { events } })));
      for (const r of results) assert.equal(r.status, 200, r.text);
      const ingested = results.reduce((n, r) => n + r.body.ingested, 0);
      const duplicates = results.reduce((n, r) => n + r.body.duplicates, 0);
      const distinct = new Set(batches.flat().map((e) => e.idempotency_key)).size;
      assert.equal(ingested, distinct);
      assert.equal(ingested + duplicates, 8 * 300);
      const rows = await env.db.usageEvent.groupBy({ by: ['idempotencyKey'], where: { merchantId: m.id, mode: 'test', idempotencyKey: { startsWith: `${run}-` } }, _count: true });
      assert.equal(rows.length, distinct);
      assert.ok(rows.every((r) => r._count === 1));
    });

    it('parallel single events with one key record it once', async () => {
      const key = unique('single-par');
      const results = await Promise.all(Array.from({ length: 8 }, () => m.call('POST', '/v1/events', { body: ev(0, { idempotency_key: key }) })));
      assert.equal(results.filter((r) => r.status === 201).length, 1);
      assert.equal(results.filter((r) => r.status === 200).length, 7);
      assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
    });

    it('a body over the size limit is refused with 413', async () => {
      const events = Array.from({ length: 100 }, () => ev(0, { metadata: { pad: 'x'.repeat(15_000) } }));
      expectError(await m.call('POST', '/v1/events/batch', { body: { events } }), 413, 'body_too_large');
    });
  });

  describe('GET /v1/events', () => {
    let mine: CatalogMerchant;
    let c1: any;
    let c2: any;
    const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min)).toISOString();
    before(async () => {
      mine = await catalogMerchant(env);
      c1 = await createCustomer(mine);
      c2 = await createCustomer(mine);
      const events = [];
      for (let i = 0; i < 10; i++) events.push({ event_name: i % 2 ? 'odd' : 'even', customer: i < 6 ? c1.id : c2.id, timestamp: at(i), metadata: { i } });
      // two events at the same instant: the id breaks the tie
      events.push({ event_name: 'even', customer: c1.id, timestamp: at(4), metadata: { i: 'tie' } });
      const res = await mine.call('POST', '/v1/events/batch', { body: { events } });
      assert.equal(res.body.ingested, 11);
      await mine.live('POST', '/v1/customers', { body: { email: 'x@example.is' } });
    });

    const list = async (q: string) => {
      const res = await mine.call('GET', `/v1/events${q}`);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };

    it('lists by timestamp descending, with filters and inclusive bounds', async () => {
      const all = await list('');
      assert.equal(all.data.length, 11);
      const stamps = all.data.map((e: any) => e.timestamp);
      assert.deepEqual(stamps, [...stamps].sort().reverse());
      assert.deepEqual(
        (await list(`?customer=${c2.id}`)).data.map((e: any) => e.metadata.i),
        [9, 8, 7, 6],
      );
      assert.deepEqual(
        (await list(`?customer=${c2.id}&event_name=odd`)).data.map((e: any) => e.metadata.i),
        [9, 7],
      );
      assert.deepEqual(
        (await list('?event_name=odd')).data.map((e: any) => e.metadata.i),
        [9, 7, 5, 3, 1],
      );
      assert.deepEqual((await list(`?from=${at(3)}&to=${at(5)}`)).data.map((e: any) => e.metadata.i).sort(), [3, 4, 5, 'tie'].sort());
      assert.deepEqual(
        (await list(`?customer=${c1.id}&from=${at(5)}`)).data.map((e: any) => e.metadata.i),
        [5],
      );
      // A filter naming no customer of the caller is refused, as on every list (docs/errors.md "Ids").
      expectError(await mine.call('GET', '/v1/events?customer=cus_unknown'), 404, 'resource_not_found', 'customer');
    });

    it('pages through every event exactly once, ties broken by id', async () => {
      const seen: string[] = [];
      let after = '';
      for (let guard = 0; guard < 20; guard++) {
        const page = await list(`?limit=3${after ? `&starting_after=${after}` : ''}`);
        seen.push(...page.data.map((e: any) => e.id));
        if (!page.has_more) break;
        after = page.data.at(-1).id;
      }
      assert.deepEqual(
        seen,
        (await list('?limit=100')).data.map((e: any) => e.id),
      );
      assert.equal(new Set(seen).size, 11);
    });

    it('bad filters and foreign cursors are refused', async () => {
      expectError(await mine.call('GET', '/v1/events?from=yesterday'), 400, 'validation_failed', 'from');
      expectError(await mine.call('GET', '/v1/events?to=2026-01-01'), 400, 'validation_failed', 'to');
      expectError(await mine.call('GET', `/v1/events?from=${at(5)}&to=${at(1)}`), 400, 'validation_failed', 'from');
      expectError(await mine.call('GET', '/v1/events?customer=bad%20id'), 400, 'validation_failed', 'customer');
      expectError(await mine.call('GET', `/v1/events?event_name=${'e'.repeat(201)}`), 400, 'validation_failed', 'event_name');
      const foreign = (await m.call('GET', '/v1/events?limit=1')).body.data[0];
      expectError(await mine.call('GET', `/v1/events?starting_after=${foreign.id}`), 404, 'resource_missing', 'starting_after');
      expectError(await mine.live('GET', `/v1/events?starting_after=${(await list('?limit=1')).data[0].id}`), 404, 'resource_missing', 'starting_after');
      assert.deepEqual((await mine.live('GET', '/v1/events')).body.data, []);
    });
  });
});
