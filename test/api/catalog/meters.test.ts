import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { catalogMerchant, createCustomer, createMeter, type CatalogMerchant } from './fixtures';

describe('catalog: meters', () => {
  let env: TestEnv, m: CatalogMerchant, other: CatalogMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(catalogMerchant, catalogMerchant)));

  it('creates a meter with every field and retrieves it', async () => {
    const body = {
      name: 'Storage',
      event_name: 'storage.used',
      aggregate_type: 'max',
      aggregate_property: 'gb',
      filter: { region: 'eu' },
      unit_label: 'GB',
      unit_multiplier: 1000,
    };
    const res = await m.call('POST', '/v1/meters', { body });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.id, /^mtr_/);
    assert.deepEqual(
      [res.body.name, res.body.event_name, res.body.aggregate_type, res.body.aggregate_property, res.body.filter, res.body.unit_label, res.body.unit_multiplier, res.body.archived],
      ['Storage', 'storage.used', 'max', 'gb', { region: 'eu' }, 'GB', 1000, false],
    );
    assert.deepEqual((await m.call('GET', `/v1/meters/${res.body.id}`)).body, res.body);
  });

  it('defaults: count with null property, empty filter, multiplier 1', async () => {
    const res = await m.call('POST', '/v1/meters', { body: { name: 'Calls', event_name: 'api.call', aggregate_type: 'count' } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.aggregate_property, res.body.filter, res.body.unit_label, res.body.unit_multiplier], [null, {}, null, 1]);
  });

  describe('limits and bad input', () => {
    const ok = { name: 'n', event_name: 'e', aggregate_type: 'sum', aggregate_property: 'p' };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing name', { ...ok, name: undefined }, 'name'],
      ['name 201 characters', { ...ok, name: 'x'.repeat(201) }, 'name'],
      ['blank name', { ...ok, name: '  ' }, 'name'],
      ['name of the wrong type', { ...ok, name: 5 }, 'name'],
      ['missing event_name', { ...ok, event_name: undefined }, 'event_name'],
      ['event_name 201 characters', { ...ok, event_name: 'e'.repeat(201) }, 'event_name'],
      ['empty event_name', { ...ok, event_name: '' }, 'event_name'],
      ['missing aggregate_type', { ...ok, aggregate_type: undefined }, 'aggregate_type'],
      ['unknown aggregate_type', { ...ok, aggregate_type: 'median' }, 'aggregate_type'],
      ['sum without aggregate_property', { ...ok, aggregate_property: undefined }, 'aggregate_property'],
      ['unique with null aggregate_property', { ...ok, aggregate_type: 'unique', aggregate_property: null }, 'aggregate_property'],
      ['count with aggregate_property', { ...ok, aggregate_type: 'count' }, 'aggregate_property'],
      ['aggregate_property of the wrong type', { ...ok, aggregate_property: 1 }, 'aggregate_property'],
      ['aggregate_property too long', { ...ok, aggregate_property: 'p'.repeat(201) }, 'aggregate_property'],
      ['unit_label 101 characters', { ...ok, unit_label: 'u'.repeat(101) }, 'unit_label'],
      ['unit_multiplier 0', { ...ok, unit_multiplier: 0 }, 'unit_multiplier'],
      ['unit_multiplier negative', { ...ok, unit_multiplier: -3 }, 'unit_multiplier'],
      ['unit_multiplier fractional', { ...ok, unit_multiplier: 1.5 }, 'unit_multiplier'],
      ['unit_multiplier as a string', { ...ok, unit_multiplier: '10' }, 'unit_multiplier'],
      ['unit_multiplier too large', { ...ok, unit_multiplier: 2 ** 31 }, 'unit_multiplier'],
      ['filter as a string', { ...ok, filter: 'region=eu' }, 'filter'],
      ['filter as an array', { ...ok, filter: ['eu'] }, 'filter'],
      ['filter with a number value', { ...ok, filter: { region: 1 } }, 'filter'],
      ['filter with a nested value', { ...ok, filter: { region: { a: 'b' } } }, 'filter'],
      ['filter with 51 pairs', { ...ok, filter: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'filter'],
      ['filter value too long', { ...ok, filter: { k: 'v'.repeat(501) } }, 'filter'],
      ['filter with NUL', { ...ok, filter: { k: 'a\u0000' } }, 'filter'],
    ];
    for (const [why, body, param] of cases) {
      it(`${why} → 400 validation_failed (${param})`, async () => {
        expectError(await m.call('POST', '/v1/meters', { body: JSON.parse(JSON.stringify(body)) }), 400, 'validation_failed', param);
      });
    }
    it('limits are inclusive: 200-character name and event_name, 100-character unit_label', async () => {
      const res = await m.call('POST', '/v1/meters', { body: { ...ok, name: 'n'.repeat(200), event_name: 'e'.repeat(200), unit_label: 'u'.repeat(100) } });
      assert.equal(res.status, 201, res.text);
    });
  });

  it('DELETE archives and returns the archived meter; repeating is a no-op; history stays readable', async () => {
    const meter = await createMeter(m);
    const del = await m.call('DELETE', `/v1/meters/${meter.id}`);
    assert.equal(del.status, 200, del.text);
    assert.equal(del.body.id, meter.id);
    assert.equal(del.body.archived, true);
    assert.ok(del.body.archived_at);
    const again = await m.call('DELETE', `/v1/meters/${meter.id}`);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, del.body);
    assert.equal((await m.call('GET', `/v1/meters/${meter.id}`)).body.archived, true);
  });

  it('the list hides archived meters unless archived=true', async () => {
    const mine = await catalogMerchant(env);
    const a = await createMeter(mine);
    const b = await createMeter(mine);
    const c = await createMeter(mine);
    await mine.call('DELETE', `/v1/meters/${b.id}`);
    assert.deepEqual(
      (await mine.call('GET', '/v1/meters')).body.data.map((x: any) => x.id),
      [c.id, a.id],
    );
    assert.deepEqual(
      (await mine.call('GET', '/v1/meters?archived=false')).body.data.map((x: any) => x.id),
      [c.id, a.id],
    );
    assert.deepEqual(
      (await mine.call('GET', '/v1/meters?archived=true')).body.data.map((x: any) => x.id),
      [c.id, b.id, a.id],
    );
    const page = await mine.call('GET', `/v1/meters?archived=true&limit=1&starting_after=${c.id}`);
    assert.deepEqual([page.body.data.map((x: any) => x.id), page.body.has_more], [[b.id], true]);
    expectError(await mine.call('GET', `/v1/meters?starting_after=${b.id}`), 404, 'resource_missing', 'starting_after');
    expectError(await mine.call('GET', '/v1/meters?archived=perhaps'), 400, 'validation_failed', 'archived');
  });

  it('ids of another merchant or the other mode are unknown', async () => {
    const foreign = await createMeter(other);
    const liveOne = (await m.live('POST', '/v1/meters', { body: { name: 'l', event_name: 'l', aggregate_type: 'count' } })).body;
    const customer = await createCustomer(m);
    for (const id of [foreign.id, liveOne.id, 'mtr_nope']) {
      expectError(await m.call('GET', `/v1/meters/${id}`), 404, 'resource_missing');
      expectError(await m.call('DELETE', `/v1/meters/${id}`), 404, 'resource_missing');
      expectError(await m.call('GET', `/v1/meters?starting_after=${id}`), 404, 'resource_missing', 'starting_after');
      const q = `customer=${customer.id}&period_start=2026-01-01T00:00:00Z&period_end=2026-02-01T00:00:00Z`;
      expectError(await m.call('GET', `/v1/meters/${id}/quantities?${q}`), 404, 'resource_missing');
    }
    assert.equal((await other.call('GET', `/v1/meters/${foreign.id}`)).body.archived, false);
  });
});
