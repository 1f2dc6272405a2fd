import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../support/api';

describe('rate limiting per API key', () => {
  let env: TestEnv, a: TestMerchant, b: TestMerchant;
  let baseUrl: string;
  let otherUrl: string;
  before(async () => {
    [env, a, b] = await envAndMerchants(newMerchant, newMerchant);
    // Two API instances on the same database: the counters are shared through PostgreSQL.
    baseUrl = await env.startApp({ rateLimitRequests: 5, rateLimitWindowSeconds: 3600 });
    otherUrl = await env.startApp({ rateLimitRequests: 5, rateLimitWindowSeconds: 3600 });
  });

  it('answers 429 with Retry-After past the limit, counting across API processes, per key', async () => {
    // Windows are aligned to the clock (here: hours); six requests straddling a boundary would
    // count in two windows. Start clear of one.
    const intoHour = Date.now() % 3_600_000;
    if (intoHour > 3_600_000 - 15_000) await new Promise((r) => setTimeout(r, 3_600_000 - intoHour + 100));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      // alternate between the two instances: both count in the same window
      const res = await call(env, 'GET', '/v1/merchants/current', { key: a.secretKey, baseUrl: i % 2 ? otherUrl : baseUrl });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    const limited = await call(env, 'GET', '/v1/merchants/current', { key: a.secretKey, baseUrl });
    const err = expectError(limited, 429, 'rate_limited');
    assert.equal(err.type, 'rate_limit_error');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    // another key is not affected
    assert.equal((await call(env, 'GET', '/v1/merchants/current', { key: b.secretKey, baseUrl })).status, 200);
  });

  it('authenticates before counting: invalid keys get 401, not 429', async () => {
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: 'sk_test_' + 'Z'.repeat(32), baseUrl }), 401, 'unauthorized');
  });
});
