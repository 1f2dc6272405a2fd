import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { catalogMerchant, createProduct, type CatalogMerchant } from './fixtures';

describe('catalog: products', () => {
  let env: TestEnv, m: CatalogMerchant, other: CatalogMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(catalogMerchant, catalogMerchant)));

  it('creates a product, active by default, and retrieves it', async () => {
    const res = await m.call('POST', '/v1/products', { body: { name: 'Gold plan', description: 'Everything', metadata: { tier: 'gold' } } });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.id, /^prod_/);
    assert.deepEqual([res.body.name, res.body.description, res.body.active], ['Gold plan', 'Everything', true]);
    assert.deepEqual(res.body.metadata, { tier: 'gold' });
    assert.deepEqual((await m.call('GET', `/v1/products/${res.body.id}`)).body, res.body);
  });

  describe('validation', () => {
    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['missing name', {}, 'name'],
      ['empty name', { name: '' }, 'name'],
      ['blank name', { name: '   ' }, 'name'],
      ['name of the wrong type', { name: 12 }, 'name'],
      ['name too long', { name: 'x'.repeat(251) }, 'name'],
      ['description too long', { name: 'a', description: 'x'.repeat(5001) }, 'description'],
      ['description of the wrong type', { name: 'a', description: {} }, 'description'],
      ['active as a string', { name: 'a', active: 'true' }, 'active'],
      ['metadata with a number', { name: 'a', metadata: { a: 1 } }, 'metadata'],
      ['metadata as a list', { name: 'a', metadata: [] }, 'metadata'],
    ];
    for (const [why, body, param] of bad) {
      it(`${why} → 400 validation_failed (${param})`, async () => {
        expectError(await m.call('POST', '/v1/products', { body }), 400, 'validation_failed', param);
      });
    }
  });

  it('PATCH changes name, description, active and replaces metadata', async () => {
    const p = await createProduct(m, { description: 'd', metadata: { a: '1' } });
    const res = await m.call('PATCH', `/v1/products/${p.id}`, { body: { active: false, metadata: { b: '2' } } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.name, res.body.description, res.body.active], [p.name, 'd', false]);
    assert.deepEqual(res.body.metadata, { b: '2' });
    const renamed = await m.call('PATCH', `/v1/products/${p.id}`, { body: { name: 'New', description: null } });
    assert.deepEqual([renamed.body.name, renamed.body.description, renamed.body.active], ['New', null, false]);
    expectError(await m.call('PATCH', `/v1/products/${p.id}`, { body: { name: '' } }), 400, 'validation_failed', 'name');
    expectError(await m.call('PATCH', `/v1/products/${p.id}`, { body: { active: 1 } }), 400, 'validation_failed', 'active');
  });

  it('lists newest first with paging and an active filter', async () => {
    const mine = await catalogMerchant(env);
    const a = await createProduct(mine, { name: 'a' });
    const b = await createProduct(mine, { name: 'b', active: false });
    const c = await createProduct(mine, { name: 'c' });
    const all = await mine.call('GET', '/v1/products');
    assert.deepEqual(
      all.body.data.map((p: any) => p.id),
      [c.id, b.id, a.id],
    );
    const page = await mine.call('GET', `/v1/products?limit=1&starting_after=${c.id}`);
    assert.deepEqual(
      page.body.data.map((p: any) => p.id),
      [b.id],
    );
    assert.equal(page.body.has_more, true);
    const active = await mine.call('GET', '/v1/products?active=true');
    assert.deepEqual(
      active.body.data.map((p: any) => p.id),
      [c.id, a.id],
    );
    expectError(await mine.call('GET', '/v1/products?active=maybe'), 400, 'validation_failed', 'active');
  });

  it('ids of another merchant or the other mode are unknown', async () => {
    const foreign = await createProduct(other);
    const liveOne = (await m.live('POST', '/v1/products', { body: { name: 'live' } })).body;
    for (const id of [foreign.id, liveOne.id, 'prod_nope']) {
      expectError(await m.call('GET', `/v1/products/${id}`), 404, 'resource_missing');
      expectError(await m.call('PATCH', `/v1/products/${id}`, { body: { active: false } }), 404, 'resource_missing');
      expectError(await m.call('GET', `/v1/products?starting_after=${id}`), 404, 'resource_missing', 'starting_after');
    }
    assert.equal((await other.call('GET', `/v1/products/${foreign.id}`)).body.active, true);
  });
});
