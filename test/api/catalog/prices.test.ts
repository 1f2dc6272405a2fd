import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { catalogMerchant, createMeter, createProduct, type CatalogMerchant } from './fixtures';
import { priceForNewSubscription } from '../../../src/domain/prices/price-for-subscription';
import { scopedDb } from '../../../src/db/tenancy';

describe('catalog: prices', () => {
  let env: TestEnv, m: CatalogMerchant, other: CatalogMerchant;
  let product: any;
  let meter: any;
  before(async () => {
    [env, m, other] = await envAndMerchants((e) => catalogMerchant(e, { currency: 'EUR' }), catalogMerchant);
    product = await createProduct(m);
    meter = await createMeter(m, { aggregate_type: 'sum', aggregate_property: 'units' });
  });

  const post = (body: Record<string, unknown>) => m.call('POST', '/v1/prices', { body: { product: product.id, ...body } });

  it('one-time price: currency defaults to the merchant default, recurring is null', async () => {
    const res = await post({ type: 'one_time', unit_amount: 1990, accounting_code: '4000', metadata: { a: 'b' } });
    assert.equal(res.status, 201, res.text);
    const p = res.body;
    assert.match(p.id, /^price_/);
    assert.deepEqual(
      [p.product, p.currency, p.type, p.unit_amount, p.recurring, p.tiers_mode, p.tiers, p.meter, p.included_units, p.accounting_code, p.active],
      [product.id, 'EUR', 'one_time', 1990, null, null, null, null, null, '4000', true],
    );
    assert.deepEqual(p.metadata, { a: 'b' });
    assert.deepEqual((await m.call('GET', `/v1/prices/${p.id}`)).body, p);
  });

  it('recurring licensed price: interval_count defaults to 1, usage_type to licensed; currency is normalised', async () => {
    const res = await post({ type: 'recurring', currency: 'isk', unit_amount: 0, recurring: { interval: 'month' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.currency, 'ISK');
    assert.equal(res.body.unit_amount, 0);
    assert.deepEqual(res.body.recurring, { interval: 'month', interval_count: 1, usage_type: 'licensed', aggregate_usage: null });
  });

  it('tiered metered price: unit_amount null, tiers stored, aggregate_usage defaults to sum', async () => {
    const tiers = [
      { up_to: 1000, unit_amount: 0 },
      { up_to: 10000, unit_amount: 2, flat_amount: 100 },
      { up_to: null, unit_amount: 1 },
    ];
    const res = await post({ type: 'recurring', recurring: { interval: 'month', usage_type: 'metered' }, tiers_mode: 'graduated', tiers, meter: meter.id, included_units: 500 });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.unit_amount, null);
    assert.equal(res.body.tiers_mode, 'graduated');
    assert.deepEqual(res.body.tiers, [
      { up_to: 1000, unit_amount: 0, flat_amount: null },
      { up_to: 10000, unit_amount: 2, flat_amount: 100 },
      { up_to: null, unit_amount: 1, flat_amount: null },
    ]);
    assert.equal(res.body.meter, meter.id);
    assert.equal(res.body.included_units, 500);
    assert.deepEqual(res.body.recurring, { interval: 'month', interval_count: 1, usage_type: 'metered', aggregate_usage: 'sum' });
    const volume = await post({
      type: 'recurring',
      recurring: { interval: 'year', usage_type: 'metered', aggregate_usage: 'max' },
      tiers_mode: 'volume',
      tiers: [{ up_to: null, unit_amount: 5 }],
      meter: meter.id,
    });
    assert.equal(volume.status, 201, volume.text);
    assert.equal(volume.body.recurring.aggregate_usage, 'max');
  });

  describe('rules and bad input', () => {
    const rec = { interval: 'month' };
    const metered = { interval: 'month', usage_type: 'metered' };
    const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
      ['missing type', { unit_amount: 1 }, 400, 'validation_failed', 'type'],
      ['unknown type', { type: 'weekly', unit_amount: 1 }, 400, 'validation_failed', 'type'],
      ['recurring price without recurring', { type: 'recurring', unit_amount: 1 }, 400, 'validation_failed', 'recurring'],
      ['recurring: null on a recurring price', { type: 'recurring', unit_amount: 1, recurring: null }, 400, 'validation_failed', 'recurring'],
      ['one-time price with recurring', { type: 'one_time', unit_amount: 1, recurring: rec }, 400, 'validation_failed', 'recurring'],
      ['recurring without interval', { type: 'recurring', unit_amount: 1, recurring: {} }, 400, 'validation_failed', 'recurring.interval'],
      ['unknown interval', { type: 'recurring', unit_amount: 1, recurring: { interval: 'fortnight' } }, 400, 'validation_failed', 'recurring.interval'],
      ['interval_count 0', { type: 'recurring', unit_amount: 1, recurring: { interval: 'month', interval_count: 0 } }, 400, 'validation_failed', 'recurring.interval_count'],
      [
        'interval_count fractional',
        { type: 'recurring', unit_amount: 1, recurring: { interval: 'month', interval_count: 1.5 } },
        400,
        'validation_failed',
        'recurring.interval_count',
      ],
      [
        'interval_count over three years',
        { type: 'recurring', unit_amount: 1, recurring: { interval: 'month', interval_count: 37 } },
        400,
        'validation_failed',
        'recurring.interval_count',
      ],
      ['recurring as a string', { type: 'recurring', unit_amount: 1, recurring: 'month' }, 400, 'validation_failed', 'recurring'],
      [
        'aggregate_usage on a licensed price',
        { type: 'recurring', unit_amount: 1, recurring: { interval: 'month', aggregate_usage: 'sum' } },
        400,
        'validation_failed',
        'recurring.aggregate_usage',
      ],
      ['unknown aggregate_usage', { type: 'recurring', unit_amount: 1, recurring: { ...metered, aggregate_usage: 'avg' } }, 400, 'validation_failed', 'recurring.aggregate_usage'],
      ['missing unit_amount', { type: 'one_time' }, 400, 'validation_failed', 'unit_amount'],
      ['negative unit_amount', { type: 'one_time', unit_amount: -1 }, 400, 'validation_failed', 'unit_amount'],
      ['fractional unit_amount', { type: 'one_time', unit_amount: 1.5 }, 400, 'validation_failed', 'unit_amount'],
      ['unit_amount as a string', { type: 'one_time', unit_amount: '100' }, 400, 'validation_failed', 'unit_amount'],
      ['unit_amount beyond 2^53', { type: 'one_time', unit_amount: 2 ** 53 }, 400, 'validation_failed', 'unit_amount'],
      ['unsupported currency', { type: 'one_time', unit_amount: 1, currency: 'JPY' }, 400, 'validation_failed', 'currency'],
      ['currency of the wrong type', { type: 'one_time', unit_amount: 1, currency: 978 }, 400, 'validation_failed', 'currency'],
      ['tiers_mode without tiers', { type: 'recurring', recurring: rec, tiers_mode: 'volume' }, 400, 'validation_failed', 'tiers'],
      [
        'tiers_mode with unit_amount',
        { type: 'recurring', recurring: rec, tiers_mode: 'volume', unit_amount: 5, tiers: [{ up_to: null, unit_amount: 1 }] },
        400,
        'validation_failed',
        'unit_amount',
      ],
      ['tiers without tiers_mode', { type: 'recurring', recurring: rec, unit_amount: 5, tiers: [{ up_to: null, unit_amount: 1 }] }, 400, 'validation_failed', 'tiers'],
      ['unknown tiers_mode', { type: 'recurring', recurring: rec, tiers_mode: 'stairs', tiers: [{ up_to: null, unit_amount: 1 }] }, 400, 'validation_failed', 'tiers_mode'],
      ['tiers on a one-time price', { type: 'one_time', tiers_mode: 'volume', tiers: [{ up_to: null, unit_amount: 1 }] }, 400, 'validation_failed', 'tiers_mode'],
      ['empty tiers', { type: 'recurring', recurring: rec, tiers_mode: 'graduated', tiers: [] }, 400, 'validation_failed', 'tiers'],
      ['last tier not open', { type: 'recurring', recurring: rec, tiers_mode: 'graduated', tiers: [{ up_to: 10, unit_amount: 1 }] }, 400, 'validation_failed', 'tiers'],
      [
        'open tier not last',
        {
          type: 'recurring',
          recurring: rec,
          tiers_mode: 'graduated',
          tiers: [
            { up_to: null, unit_amount: 1 },
            { up_to: null, unit_amount: 1 },
          ],
        },
        400,
        'validation_failed',
        'tiers',
      ],
      [
        'tiers out of order',
        {
          type: 'recurring',
          recurring: rec,
          tiers_mode: 'graduated',
          tiers: [
            { up_to: 10, unit_amount: 1 },
            { up_to: 5, unit_amount: 1 },
            { up_to: null, unit_amount: 1 },
          ],
        },
        400,
        'validation_failed',
        'tiers',
      ],
      ['tier without any amount', { type: 'recurring', recurring: rec, tiers_mode: 'graduated', tiers: [{ up_to: null }] }, 400, 'validation_failed', 'tiers'],
      ['tier without up_to', { type: 'recurring', recurring: rec, tiers_mode: 'graduated', tiers: [{ unit_amount: 1 }] }, 400, 'validation_failed', 'tiers[0].up_to'],
      [
        'tier up_to as a string',
        { type: 'recurring', recurring: rec, tiers_mode: 'graduated', tiers: [{ up_to: '10', unit_amount: 1 }] },
        400,
        'validation_failed',
        'tiers[0].up_to',
      ],
      [
        'tier with a negative amount',
        { type: 'recurring', recurring: rec, tiers_mode: 'graduated', tiers: [{ up_to: null, unit_amount: -1 }] },
        400,
        'validation_failed',
        'tiers[0].unit_amount',
      ],
      ['tiers not an array', { type: 'recurring', recurring: rec, tiers_mode: 'graduated', tiers: { up_to: null } }, 400, 'validation_failed', 'tiers'],
      [
        '101 tiers',
        {
          type: 'recurring',
          recurring: rec,
          tiers_mode: 'graduated',
          tiers: [...Array.from({ length: 100 }, (_, i) => ({ up_to: i + 1, unit_amount: 1 })), { up_to: null, unit_amount: 1 }],
        },
        400,
        'validation_failed',
        'tiers',
      ],
      ['metered without meter', { type: 'recurring', unit_amount: 1, recurring: metered }, 400, 'validation_failed', 'meter'],
      ['meter on a licensed price', { type: 'recurring', unit_amount: 1, recurring: rec, meter: 'mtr_x' }, 400, 'validation_failed', 'meter'],
      ['included_units on a licensed price', { type: 'recurring', unit_amount: 1, recurring: rec, included_units: 5 }, 400, 'validation_failed', 'included_units'],
      ['negative included_units', { type: 'recurring', unit_amount: 1, recurring: metered, included_units: -5 }, 400, 'validation_failed', 'included_units'],
      ['unknown meter', { type: 'recurring', unit_amount: 1, recurring: metered, meter: 'mtr_unknown' }, 404, 'resource_not_found', 'meter'],
      ['meter id with bad characters', { type: 'recurring', unit_amount: 1, recurring: metered, meter: 'mtr x' }, 400, 'validation_failed', 'meter'],
      ['accounting_code too long', { type: 'one_time', unit_amount: 1, accounting_code: 'x'.repeat(101) }, 400, 'validation_failed', 'accounting_code'],
      ['metadata with a number', { type: 'one_time', unit_amount: 1, metadata: { a: 2 } }, 400, 'validation_failed', 'metadata'],
      ['active as a number', { type: 'one_time', unit_amount: 1, active: 0 }, 400, 'validation_failed', 'active'],
    ];
    for (const [why, body, status, code, param] of cases) {
      it(`${why} → ${status} ${code} (${param})`, async () => expectError(await post(body), status, code, param));
    }

    it('missing or unknown product → validation_failed / resource_not_found', async () => {
      expectError(await m.call('POST', '/v1/prices', { body: { type: 'one_time', unit_amount: 1 } }), 400, 'validation_failed', 'product');
      expectError(await m.call('POST', '/v1/prices', { body: { product: 42, type: 'one_time', unit_amount: 1 } }), 400, 'validation_failed', 'product');
      expectError(await m.call('POST', '/v1/prices', { body: { product: 'prod_nope', type: 'one_time', unit_amount: 1 } }), 404, 'resource_not_found', 'product');
    });

    it("another merchant's or the other mode's product and meter are not found", async () => {
      const foreignProduct = await createProduct(other);
      const foreignMeter = await createMeter(other);
      const liveProduct = (await m.live('POST', '/v1/products', { body: { name: 'live' } })).body;
      const liveMeter = (await m.live('POST', '/v1/meters', { body: { name: 'l', event_name: 'l', aggregate_type: 'count' } })).body;
      for (const id of [foreignProduct.id, liveProduct.id]) {
        expectError(await m.call('POST', '/v1/prices', { body: { product: id, type: 'one_time', unit_amount: 1 } }), 404, 'resource_not_found', 'product');
      }
      for (const id of [foreignMeter.id, liveMeter.id]) {
        expectError(await post({ type: 'recurring', unit_amount: 1, recurring: metered, meter: id }), 404, 'resource_not_found', 'meter');
      }
    });

    it('an archived meter cannot back a new price', async () => {
      const archived = await createMeter(m);
      await m.call('DELETE', `/v1/meters/${archived.id}`);
      expectError(await post({ type: 'recurring', unit_amount: 1, recurring: metered, meter: archived.id }), 400, 'validation_failed', 'meter');
    });
  });

  it('after creation only active, accounting_code and metadata change; other fields get parameter_not_allowed', async () => {
    const p = (await post({ type: 'recurring', unit_amount: 100, recurring: { interval: 'month' } })).body;
    const res = await m.call('PATCH', `/v1/prices/${p.id}`, { body: { active: false, accounting_code: '4010', metadata: { x: 'y' }, unknown: 1 } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.active, res.body.accounting_code, res.body.metadata], [false, '4010', { x: 'y' }]);
    assert.equal(res.body.unit_amount, 100);
    const immutable: Array<[string, unknown]> = [
      ['unit_amount', 200],
      ['currency', 'EUR'],
      ['product', product.id],
      ['type', 'one_time'],
      ['recurring', { interval: 'year' }],
      ['tiers_mode', null],
      ['tiers', null],
      ['meter', meter.id],
      ['included_units', 1],
    ];
    for (const [field, value] of immutable) {
      expectError(await m.call('PATCH', `/v1/prices/${p.id}`, { body: { active: true, [field]: value } }), 400, 'parameter_not_allowed', field);
    }
    const after = (await m.call('GET', `/v1/prices/${p.id}`)).body;
    assert.equal(after.active, false);
    const cleared = await m.call('PATCH', `/v1/prices/${p.id}`, { body: { accounting_code: null, metadata: null } });
    assert.deepEqual([cleared.body.accounting_code, cleared.body.metadata], [null, {}]);
    expectError(await m.call('PATCH', `/v1/prices/${p.id}`, { body: { active: 'no' } }), 400, 'validation_failed', 'active');
  });

  it('lists with the product filter and paging', async () => {
    const mine = await catalogMerchant(env);
    const p1 = await createProduct(mine);
    const p2 = await createProduct(mine);
    const mk = async (prod: string) => (await mine.call('POST', '/v1/prices', { body: { product: prod, type: 'one_time', unit_amount: 1 } })).body.id;
    const a = await mk(p1.id);
    const b = await mk(p2.id);
    const c = await mk(p1.id);
    assert.deepEqual(
      (await mine.call('GET', '/v1/prices')).body.data.map((x: any) => x.id),
      [c, b, a],
    );
    assert.deepEqual(
      (await mine.call('GET', `/v1/prices?product=${p1.id}`)).body.data.map((x: any) => x.id),
      [c, a],
    );
    const page = await mine.call('GET', `/v1/prices?product=${p1.id}&limit=1`);
    assert.deepEqual([page.body.data.map((x: any) => x.id), page.body.has_more], [[c], true]);
    assert.deepEqual(
      (await mine.call('GET', `/v1/prices?product=${p1.id}&starting_after=${c}`)).body.data.map((x: any) => x.id),
      [a],
    );
    expectError(await mine.call('GET', '/v1/prices?product=prod_unknown'), 404, 'resource_not_found', 'product');
    expectError(await mine.call('GET', '/v1/prices?product=bad%20id'), 400, 'validation_failed', 'product');
  });

  it('ids of another merchant or the other mode are unknown', async () => {
    const otherProduct = await createProduct(other);
    const foreign = (await other.call('POST', '/v1/prices', { body: { product: otherProduct.id, type: 'one_time', unit_amount: 1 } })).body;
    for (const id of [foreign.id, 'price_nope']) {
      expectError(await m.call('GET', `/v1/prices/${id}`), 404, 'resource_missing');
      expectError(await m.call('PATCH', `/v1/prices/${id}`, { body: { active: false } }), 404, 'resource_missing');
      expectError(await m.call('GET', `/v1/prices?starting_after=${id}`), 404, 'resource_missing', 'starting_after');
    }
    expectError(await other.live('GET', `/v1/prices/${foreign.id}`), 404, 'resource_missing');
  });

  it('inactive prices and products are refused for new subscriptions but stay readable', async () => {
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const db = scopedDb(env.db, tenant);
    const prod = await createProduct(m);
    const price = (await m.call('POST', '/v1/prices', { body: { product: prod.id, type: 'recurring', unit_amount: 500, recurring: { interval: 'month' } } })).body;
    const ok = await priceForNewSubscription(db, price.id);
    assert.equal(ok.terms.unitAmount, 500);
    assert.equal(ok.terms.interval, 'month');
    await m.call('PATCH', `/v1/prices/${price.id}`, { body: { active: false } });
    await assert.rejects(priceForNewSubscription(db, price.id), (e: any) => e.code === 'invalid_subscription' && e.param === 'price');
    await m.call('PATCH', `/v1/prices/${price.id}`, { body: { active: true } });
    await m.call('PATCH', `/v1/products/${prod.id}`, { body: { active: false } });
    await assert.rejects(priceForNewSubscription(db, price.id), (e: any) => e.code === 'invalid_subscription');
    await assert.rejects(priceForNewSubscription(db, 'price_unknown'), (e: any) => e.code === 'resource_not_found');
    assert.equal((await m.call('GET', `/v1/prices/${price.id}`)).status, 200);
  });
});
