import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant, liveMerchant, type LiveMerchant } from '../support/api';
import { createMerchant, insertKey } from '../../src/domain/merchants/create-merchant';
import { DASHBOARD_ONLY_ROUTES } from '../../api/areas';

describe('authentication and tenancy', () => {
  let env: TestEnv, a: LiveMerchant, b: TestMerchant;
  before(async () => ([env, a, b] = await envAndMerchants(liveMerchant, newMerchant)));

  it('401 unauthorized for a missing, malformed or unknown key', async () => {
    expectError(await call(env, 'GET', '/v1/merchants/current'), 401, 'unauthorized');
    // The scheme is case-insensitive ("bearer" is fine: test/api/input-safety.test.ts); the rest is not.
    for (const header of ['Basic abc', 'Bearer', 'Bearer  sk_test_x', `Bearer ${a.secretKey} extra`, 'Bearer' + a.secretKey]) {
      expectError(await call(env, 'GET', '/v1/merchants/current', { headers: { Authorization: header } }), 401, 'unauthorized');
    }
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: 'sk_test_' + 'A'.repeat(32) }), 401, 'unauthorized');
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: 'sk_test_short' }), 401, 'unauthorized');
  });

  it('GET /v1/merchants/current infers the merchant from the key without X-Merchant-Id', async () => {
    const res = await call(env, 'GET', '/v1/merchants/current', { key: a.secretKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, a.id);
    assert.match(res.body.name, /^Test merchant/);
    assert.ok(res.body.created_at);
  });

  it('requires X-Merchant-Id elsewhere and refuses another merchant id with 403 merchant_mismatch', async () => {
    expectError(await call(env, 'GET', '/v1/api_keys', { key: a.secretKey }), 400, 'merchant_header_missing', 'X-Merchant-Id');
    expectError(await call(env, 'GET', '/v1/api_keys', { key: a.secretKey, merchant: b.id }), 403, 'merchant_mismatch', 'X-Merchant-Id');
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: a.secretKey, merchant: b.id }), 403, 'merchant_mismatch');
  });

  it('publishable keys get 403 on secret-only routes', async () => {
    expectError(await call(env, 'GET', '/v1/api_keys', { key: a.publishableKey, merchant: a.id }), 403, 'secret_key_required');
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: a.publishableKey }), 403, 'secret_key_required');
    expectError(await call(env, 'POST', '/v1/api_keys', { key: a.publishableKey, merchant: a.id, body: { type: 'secret', mode: 'test' } }), 403, 'secret_key_required');
  });

  it('refuses live keys until the merchant has gone live', async () => {
    const fresh = await createMerchant(env.db, { name: 'Not live yet' });
    const liveKey = await insertKey(env.db, fresh.merchant.id, 'secret', 'live', null);
    expectError(await call(env, 'GET', '/v1/api_keys', { key: liveKey, merchant: fresh.merchant.id }), 403, 'live_mode_not_enabled');
    const ok = await call(env, 'GET', '/v1/api_keys', { key: a.liveSecretKey, merchant: a.id });
    assert.equal(ok.status, 200);
  });

  it('dashboard-only routes answer wrong_auth_method to API keys, 401 without a valid key', async () => {
    for (const [method, path] of DASHBOARD_ONLY_ROUTES) {
      expectError(await call(env, method.toUpperCase(), path, { key: a.secretKey, merchant: a.id }), 403, 'wrong_auth_method');
      expectError(await call(env, method.toUpperCase(), path, {}), 401, 'unauthorized');
    }
  });

  it('isolates modes and merchants: other ids behave exactly like unknown ids', async () => {
    const liveList = await call(env, 'GET', '/v1/api_keys', { key: a.liveSecretKey, merchant: a.id });
    const testList = await a.call('GET', '/v1/api_keys');
    assert.ok(liveList.body.data.every((k: any) => k.mode === 'live'));
    assert.ok(testList.body.data.every((k: any) => k.mode === 'test'));
    const liveKeyId = liveList.body.data[0].id;
    const bKeyId = (await b.call('GET', '/v1/api_keys')).body.data[0].id;
    for (const id of [liveKeyId, bKeyId, 'key_doesnotexist']) {
      const unknown = await a.call('POST', `/v1/api_keys/${id}/rotate`);
      expectError(unknown, 404, 'resource_missing');
      assert.equal(unknown.body.error.message, `No such API key: '${id}'`);
      expectError(await a.call('DELETE', `/v1/api_keys/${id}`), 404, 'resource_missing');
      expectError(await a.call('GET', `/v1/api_keys?starting_after=${id}`), 404, 'resource_missing', 'starting_after');
    }
    // b's key still works after a's attempts
    assert.equal((await b.call('GET', '/v1/api_keys')).status, 200);
  });

  it('scoped clients cannot write rows for another tenant', async () => {
    const { scopedDb, TenancyViolation } = await import('../../src/db/tenancy');
    const scoped = scopedDb(env.db, { merchantId: a.id, mode: 'test' });
    await assert.rejects(
      scoped.apiKey.create({ data: { id: 'key_x', merchantId: b.id, mode: 'test', type: 'secret', keyHash: 'h'.repeat(64), last4: 'abcd' } }),
      (e: unknown) => e instanceof TenancyViolation,
    );
    await assert.rejects(scoped.apiKey.updateMany({ where: {}, data: { mode: 'live' } }), (e: unknown) => e instanceof TenancyViolation);
    assert.equal(await scoped.apiKey.count({ where: { merchantId: b.id } }), 0);
  });
});
