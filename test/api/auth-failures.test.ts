// Failed authentication is rate limited per client address, before the body is read
// (api/middleware/auth-failures.ts, docs/auth.md "Failed authentication").
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../support/api';
import { createAuthFailureLimiter } from '../../api/middleware/auth-failures';

describe('failed authentication is rate limited per address', () => {
  let env: TestEnv;
  let m: TestMerchant;
  let baseUrl: string;
  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    baseUrl = await env.startApp({ authFailureLimit: 3, authFailureWindowSeconds: 3600 });
  });

  it('answers 429 with Retry-After after the budget, before reading the body; a known valid key still passes', async () => {
    // A valid key seen once is in this process's auth cache.
    assert.equal((await call(env, 'GET', '/v1/customers', { baseUrl, key: m.secretKey, merchant: m.id })).status, 200);
    for (let i = 0; i < 3; i++) {
      expectError(await call(env, 'GET', '/v1/customers', { baseUrl, key: `sk_test_${'A'.repeat(32)}`, merchant: m.id }), 401, 'unauthorized');
    }
    const blocked = await call(env, 'GET', '/v1/customers', { baseUrl, key: `sk_test_${'B'.repeat(32)}`, merchant: m.id });
    expectError(blocked, 429, 'rate_limited');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    // No key at all, or a large body: refused at once, the body unread.
    expectError(await call(env, 'GET', '/v1/customers', { baseUrl }), 429, 'rate_limited');
    const big = await call(env, 'POST', '/v1/customers', { baseUrl, key: `sk_test_${'C'.repeat(32)}`, merchant: m.id, body: { name: 'x'.repeat(900_000) } });
    expectError(big, 429, 'rate_limited');
    // The valid key of another client behind the same address is not locked out.
    assert.equal((await call(env, 'GET', '/v1/customers', { baseUrl, key: m.secretKey, merchant: m.id })).status, 200);
    // Pages outside the API are not gated.
    assert.notEqual((await call(env, 'GET', '/healthz', { baseUrl })).status, 429);
    // Counting is per process: the suite's main instance is unaffected.
    expectError(await call(env, 'GET', '/v1/customers', { key: `sk_test_${'D'.repeat(32)}`, merchant: m.id }), 401, 'unauthorized');
  });

  it('the limiter: fixed windows per client, bounded memory', () => {
    const limiter = createAuthFailureLimiter({ limit: 2, windowSeconds: 10, maxClients: 3 });
    const t0 = 1_000_000_000_000;
    limiter.fail('a', t0);
    assert.equal(limiter.blockedFor('a', t0), 0);
    limiter.fail('a', t0 + 1);
    assert.equal(limiter.blockedFor('a', t0 + 1_000), 9);
    assert.equal(limiter.blockedFor('b', t0), 0);
    assert.equal(limiter.blockedFor('a', t0 + 10_000), 0, 'the next window starts afresh');
    for (const c of ['b', 'c', 'd', 'e']) {
      limiter.fail(c, t0);
      limiter.fail(c, t0);
    }
    // At most 3 addresses are tracked: the oldest made room.
    assert.equal(limiter.blockedFor('e', t0), 10);
    assert.equal(['a', 'b', 'c', 'd', 'e'].filter((c) => limiter.blockedFor(c, t0) > 0).length, 3);
  });
});
