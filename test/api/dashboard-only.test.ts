// The dashboard-only routes (api/routes/dashboard-only.ts): every one answers wrong_auth_method
// to secret and publishable keys of both modes, and works only with a dashboard session (CSRF
// token on writes, role checked on the server). The other direction too: a session cookie is not
// an API key, and an API key does not open a dashboard page.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { call, expectError, twoModeMerchant, newMerchant, type TwoModeMerchant } from '../support/api';
import { newDashboardUser, signInHttp, type HttpSession } from '../support/dashboard';
import { DASHBOARD_ONLY_ROUTES } from '../../api/areas';
import { insertKey } from '../../src/domain/merchants/create-merchant';

describe('dashboard-only routes', () => {
  let env: TestEnv;
  let m: TwoModeMerchant;
  let livePublishable: string;
  let owner: HttpSession;

  before(async () => {
    env = await testEnv();
    m = await twoModeMerchant(env);
    livePublishable = await insertKey(env.db, m.id, 'publishable', 'live', 'live pk');
    const u = await newDashboardUser(env, m.id, 'owner');
    owner = await signInHttp(env, u.email);
  });

  for (const [method, path] of DASHBOARD_ONLY_ROUTES) {
    it(`${method.toUpperCase()} ${path}: wrong_auth_method for secret and publishable keys of both modes`, async () => {
      const keys: Array<[string, string]> = [
        ['secret test', m.secretKey],
        ['publishable test', m.publishableKey],
        ['secret live', m.liveSecretKey!],
        ['publishable live', livePublishable],
      ];
      for (const [label, key] of keys) {
        const res = await call(env, method.toUpperCase(), path, { key, merchant: m.id, body: method === 'get' ? undefined : {} });
        assert.equal(res.status, 403, `${label}: ${res.text}`);
        expectError(res, 403, 'wrong_auth_method');
      }
      // An invalid key is an authentication failure first.
      expectError(await call(env, method.toUpperCase(), path, { key: 'sk_test_' + 'x'.repeat(32), body: method === 'get' ? undefined : {} }), 401, 'unauthorized');
      // Nothing at all: 401 (sign in to the dashboard).
      expectError(await call(env, method.toUpperCase(), path, { body: method === 'get' ? undefined : {} }), 401, 'unauthorized');
    });
  }

  const withSession = (s: HttpSession, csrf = true) => ({ Cookie: s.cookie, ...(csrf ? { 'X-CSRF-Token': s.csrf } : {}) });

  it('work with a dashboard session: read, write with the CSRF token, refused without it', async () => {
    const put = await call(env, 'PUT', '/v1/redirect_domains', { headers: withSession(owner), body: { domains: ['Shop.Example.is', 'shop.example.is', 'pay.example.com'] } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.domains, ['shop.example.is', 'pay.example.com']);
    assert.deepEqual((await call(env, 'GET', '/v1/redirect_domains', { headers: withSession(owner, false) })).body.domains, ['shop.example.is', 'pay.example.com']);
    expectError(await call(env, 'PUT', '/v1/redirect_domains', { headers: withSession(owner, false), body: { domains: [] } }), 403, 'csrf_token_invalid');
    expectError(await call(env, 'PUT', '/v1/redirect_domains', { headers: { ...withSession(owner), 'X-CSRF-Token': 'forged' }, body: { domains: [] } }), 403, 'csrf_token_invalid');
    expectError(await call(env, 'PUT', '/v1/redirect_domains', { headers: withSession(owner), body: { domains: ['not a domain'] } }), 400, 'validation_failed', 'domains');
    expectError(await call(env, 'PUT', '/v1/allowed_origins', { headers: withSession(owner), body: { origins: 'https://x.is' } }), 400, 'validation_failed', 'origins');
    const origins = await call(env, 'PUT', '/v1/allowed_origins', { headers: withSession(owner), body: { origins: ['https://shop.example.is/'] } });
    assert.deepEqual(origins.body.origins, ['https://shop.example.is']);
    assert.deepEqual((await env.db.merchant.findUnique({ where: { id: m.id } }))!.allowedOrigins, ['https://shop.example.is']);
    const patched = await call(env, 'PATCH', '/v1/merchants/current', { headers: withSession(owner), body: { name: 'Renamed ehf.', default_currency: 'eur' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.name, 'Renamed ehf.');
    assert.equal(patched.body.default_currency, 'EUR');
    expectError(
      await call(env, 'PATCH', '/v1/merchants/current', { headers: withSession(owner), body: { default_currency: 'XYZ' } }),
      400,
      'validation_failed',
      'default_currency',
    );
    const bank = await call(env, 'GET', '/v1/bank_invoice_settings', { headers: withSession(owner, false) });
    assert.equal(bank.body.editable, false);
    expectError(await call(env, 'PUT', '/v1/bank_invoice_settings', { headers: withSession(owner), body: { claim_expiry_days: 10 } }), 409, 'invalid_state');
  });

  it('go live with a session (owner only), and every write is in the audit log', async () => {
    const other = await newMerchant(env);
    const dev = await newDashboardUser(env, other.id, 'developer');
    const own = await newDashboardUser(env, other.id, 'owner');
    const devSession = await signInHttp(env, dev.email);
    expectError(await call(env, 'POST', '/v1/merchants/current/go_live', { headers: withSession(devSession) }), 403, 'role_not_allowed');
    assert.equal((await env.db.merchant.findUnique({ where: { id: other.id } }))!.liveEnabledAt, null);
    const ownSession = await signInHttp(env, own.email);
    const live = await call(env, 'POST', '/v1/merchants/current/go_live', { headers: withSession(ownSession) });
    assert.equal(live.status, 200, live.text);
    assert.ok(live.body.live_enabled_at);
    const log = await env.db.dashboardAuditEntry.findMany({ where: { merchantId: other.id, action: 'merchant.go_live' }, orderBy: { createdAt: 'asc' } });
    assert.deepEqual(
      log.map((e) => [e.actorEmail, e.outcome]),
      [
        [dev.email, 'denied'],
        [own.email, 'succeeded'],
      ],
    );
  });

  it('a dashboard session is not an API key, and an API key does not open a dashboard page', async () => {
    expectError(await call(env, 'GET', '/v1/customers', { headers: { Cookie: owner.cookie }, merchant: m.id }), 403, 'wrong_auth_method');
    expectError(await call(env, 'POST', '/v1/api_keys', { headers: withSession(owner), merchant: m.id, body: { type: 'secret', mode: 'test' } }), 403, 'wrong_auth_method');
    for (const path of ['/dashboard', '/dashboard/developers/api-keys', '/dashboard/sign-in']) {
      expectError(await call(env, 'GET', path, { key: m.secretKey, merchant: m.id }), 403, 'wrong_auth_method');
      expectError(await call(env, 'GET', path, { key: m.publishableKey }), 403, 'wrong_auth_method');
    }
    expectError(await call(env, 'POST', '/dashboard/developers/api-keys', { key: m.secretKey, headers: { Cookie: owner.cookie } }), 403, 'wrong_auth_method');
  });
});
