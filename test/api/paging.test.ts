import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { expectError, newMerchant, type TestMerchant } from '../support/api';

describe('paging (every list uses the same helper; exercised through /v1/api_keys)', () => {
  let env: TestEnv;
  let m: TestMerchant;
  const created: string[] = [];
  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    // two default keys + 118 more, some inserted with identical created_at to test the tie-break
    const same = new Date('2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 118; i++) {
      const res = await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', label: `k${i}` } });
      created.push(res.body.id);
      if (i % 3 === 0) await env.db.apiKey.update({ where: { id: res.body.id }, data: { createdAt: same } });
    }
  });

  async function all(limit: number): Promise<string[]> {
    const ids: string[] = [];
    let after: string | undefined;
    for (let guard = 0; guard < 500; guard++) {
      const res = await m.call('GET', `/v1/api_keys?limit=${limit}${after ? `&starting_after=${after}` : ''}`);
      assert.equal(res.status, 200);
      assert.ok(res.body.data.length <= Math.min(Math.max(limit, 1), 100));
      ids.push(...res.body.data.map((k: any) => k.id));
      if (!res.body.has_more) return ids;
      after = res.body.data.at(-1).id;
    }
    throw new Error('paging did not end');
  }

  it('walks every row exactly once, newest first with a stable tie-break, for several page sizes', async () => {
    const reference = await all(100);
    assert.equal(reference.length, 120);
    assert.equal(new Set(reference).size, 120);
    for (const size of [1, 7, 25, 99]) assert.deepEqual(await all(size), reference);
    const rows = await env.db.apiKey.findMany({ where: { merchantId: m.id, mode: 'test' } });
    const sorted = rows.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0)).map((r) => r.id);
    assert.deepEqual(reference, sorted);
  });

  it('limit defaults to 25, falls back to the default below 1 and to 100 above it', async () => {
    const cases: Array<[string, number]> = [
      ['', 25],
      ['limit=0', 25],
      ['limit=-5', 25],
      ['limit=1', 1],
      ['limit=100', 100],
      ['limit=101', 100],
      ['limit=100000', 100],
    ];
    for (const [q, expected] of cases) {
      const res = await m.call('GET', `/v1/api_keys?${q}`);
      assert.equal(res.body.data.length, expected, q);
      assert.equal(res.body.has_more, true, q);
    }
  });

  it('rejects non-integer limits and repeated parameters', async () => {
    expectError(await m.call('GET', '/v1/api_keys?limit=abc'), 400, 'validation_failed', 'limit');
    expectError(await m.call('GET', '/v1/api_keys?limit=2.5'), 400, 'validation_failed', 'limit');
    expectError(await m.call('GET', '/v1/api_keys?limit=1&limit=2'), 400, 'validation_failed', 'limit');
  });

  it('unknown starting_after ids answer resource_missing', async () => {
    expectError(await m.call('GET', '/v1/api_keys?starting_after=key_nope'), 404, 'resource_missing', 'starting_after');
    expectError(await m.call('GET', `/v1/api_keys?starting_after=${'x'.repeat(300)}`), 404, 'resource_missing', 'starting_after');
  });
});
