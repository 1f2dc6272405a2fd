// POST /v1/payment_sessions and GET /v1/payment_sessions/{id}: every parameter and rule,
// publishable keys from allowed and disallowed origins, live and test keys, tenant isolation.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, liveMerchant } from '../../support/api';
import { insertKey } from '../../../src/domain/merchants/create-merchant';
import { CANCEL_URL, created, hostedSession, merchantWithOrigins, newCustomer, payHosted, DECLINED_CARD, RETURN_URL, type Merchant } from './fixtures';

const SHOP = 'https://shop.example.is';

describe('payment sessions API', () => {
  let env: TestEnv, m: Merchant, other: Merchant;
  before(async () => ([env, m, other] = await envAndMerchants(liveMerchant, liveMerchant)));

  describe('hosted sessions', () => {
    it('creates a hosted session with a new payment: url, no client secret, open, 24 h lifetime', async () => {
      const before = Date.now();
      const s = await created(
        await hostedSession(m, { currency: 'EUR', description: 'Order #42', cancel_url: CANCEL_URL, external_reference: 'order-42', metadata: { order: '42' } }),
      );
      assert.match(s.id, /^ps_/);
      assert.equal(s.mode, 'hosted');
      assert.equal(s.status, 'open');
      assert.equal(s.url, `${env.config.publicBaseUrl}/checkout/${s.id}`);
      assert.equal(s.client_secret, null);
      assert.match(s.payment, /^pay_/);
      assert.equal(s.amount, 1990);
      assert.equal(s.currency, 'EUR');
      assert.equal(s.return_url, RETURN_URL);
      assert.equal(s.cancel_url, CANCEL_URL);
      assert.equal(s.origin, null);
      assert.deepEqual(s.enabled_methods, ['card', 'apple_pay', 'google_pay']);
      assert.equal(s.save_payment_method, false);
      assert.deepEqual(s.metadata, { order: '42' });
      const lifetime = Date.parse(s.expires_at) - Date.parse(s.created_at);
      assert.equal(lifetime, 24 * 3600 * 1000);
      assert.ok(Date.parse(s.created_at) >= before - 1000);

      // The payment the session created: requires_payment_method, metadata and reference copied, invoice open.
      const p = (await m.call('GET', `/v1/payments/${s.payment}`)).body;
      assert.equal(p.status, 'requires_payment_method');
      assert.equal(p.amount, 1990);
      assert.equal(p.currency, 'EUR');
      assert.equal(p.description, 'Order #42');
      assert.equal(p.external_reference, 'order-42');
      assert.deepEqual(p.metadata, { order: '42' });
      const inv = await env.db.invoice.findFirst({ where: { paymentId: s.payment } });
      assert.equal(inv?.status, 'open');

      const got = await m.call('GET', `/v1/payment_sessions/${s.id}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, s);
    });

    it('defaults: mode hosted, currency the merchant default (ISK), all methods', async () => {
      const s = await created(await m.call('POST', '/v1/payment_sessions', { body: { amount: 500, return_url: RETURN_URL } }));
      assert.equal(s.mode, 'hosted');
      assert.equal(s.currency, 'ISK');
      assert.equal(s.locale, null);
    });

    it('stores enabled_methods (deduplicated), locale, customer_email and save_payment_method with a customer', async () => {
      const cus = await newCustomer(m, 'jon@example.is');
      const s = await created(await hostedSession(m, { customer: cus, enabled_methods: ['card', 'apple_pay', 'card'], locale: 'is-IS', save_payment_method: true }));
      assert.deepEqual(s.enabled_methods, ['card', 'apple_pay']);
      assert.equal(s.locale, 'is-IS');
      assert.equal(s.customer, cus);
      assert.equal(s.customer_email, 'jon@example.is', 'prefilled from the customer');
      assert.equal(s.save_payment_method, true);
      const p = (await m.call('GET', `/v1/payments/${s.payment}`)).body;
      assert.equal(p.customer, cus);
      const explicit = await created(await hostedSession(m, { customer: cus, customer_email: 'other@example.is' }));
      assert.equal(explicit.customer_email, 'other@example.is');
    });

    it('requires return_url, refuses origin, checks URLs', async () => {
      expectError(await m.call('POST', '/v1/payment_sessions', { body: { amount: 100 } }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { origin: SHOP }), 400, 'parameter_not_allowed', 'origin');
      expectError(await hostedSession(m, { return_url: 'not a url' }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { return_url: '/relative/path' }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { return_url: 'ftp://shop.example.is/x' }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { return_url: 'javascript:alert(1)' }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { return_url: 'https://user:pw@shop.example.is/' }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { return_url: `https://shop.example.is/${'a'.repeat(2100)}` }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { return_url: 42 }), 400, 'validation_failed', 'return_url');
      expectError(await hostedSession(m, { cancel_url: 'nope' }), 400, 'validation_failed', 'cancel_url');
      // Test mode allows http (local development).
      assert.equal((await hostedSession(m, { return_url: 'http://localhost:8080/done' })).status, 201);
    });

    it("return_url and cancel_url must be on the merchant's redirect domains (or subdomains) when configured", async () => {
      const d = await newMerchant(env);
      await env.db.merchant.update({ where: { id: d.id }, data: { redirectDomains: ['shop.example.is'] } });
      assert.equal((await hostedSession(d, { return_url: 'https://shop.example.is/ok' })).status, 201);
      assert.equal((await hostedSession(d, { return_url: 'https://www.shop.example.is/ok', cancel_url: 'https://pay.shop.example.is/back' })).status, 201);
      expectError(await hostedSession(d, { return_url: 'https://evil.example.is/ok' }), 400, 'url_not_allowed', 'return_url');
      expectError(await hostedSession(d, { return_url: 'https://shop.example.is.evil.com/ok' }), 400, 'url_not_allowed', 'return_url');
      expectError(await hostedSession(d, { return_url: 'https://notshop.example.is/ok' }), 400, 'url_not_allowed', 'return_url');
      expectError(await hostedSession(d, { return_url: 'https://shop.example.is/ok', cancel_url: 'https://elsewhere.example/x' }), 400, 'url_not_allowed', 'cancel_url');
    });
  });

  describe('embedded sessions', () => {
    it('returns the client secret once (stored hashed) and no url', async () => {
      const res = await m.call('POST', '/v1/payment_sessions', { body: { mode: 'embedded', amount: 2500, origin: `${SHOP}/` } });
      const s = await created(res);
      assert.equal(s.mode, 'embedded');
      assert.equal(s.url, null);
      assert.match(s.client_secret, /^pcs_[0-9A-Za-z]{40}$/);
      assert.equal(s.origin, SHOP, 'normalised to the origin');
      const row = await env.db.paymentSession.findUnique({ where: { id: s.id } });
      assert.equal(row!.clientSecretHash, createHash('sha256').update(s.client_secret).digest('hex'));
      assert.equal(JSON.stringify(row).includes(s.client_secret), false);
      const got = (await m.call('GET', `/v1/payment_sessions/${s.id}`)).body;
      assert.equal(got.client_secret, null);
      assert.equal(got.status, 'open');
    });

    it('requires origin, refuses return_url and cancel_url, checks the origin', async () => {
      const e = (body: Record<string, unknown>) => m.call('POST', '/v1/payment_sessions', { body: { mode: 'embedded', amount: 100, ...body } });
      expectError(await e({}), 400, 'validation_failed', 'origin');
      expectError(await e({ origin: SHOP, return_url: RETURN_URL }), 400, 'parameter_not_allowed', 'return_url');
      expectError(await e({ origin: SHOP, cancel_url: CANCEL_URL }), 400, 'parameter_not_allowed', 'cancel_url');
      expectError(await e({ origin: `${SHOP}/checkout` }), 400, 'validation_failed', 'origin');
      expectError(await e({ origin: `${SHOP}?x=1` }), 400, 'validation_failed', 'origin');
      expectError(await e({ origin: 'shop.example.is' }), 400, 'validation_failed', 'origin');
      expectError(await e({ origin: 'null' }), 400, 'validation_failed', 'origin');
      expectError(await e({ origin: ['https://a.is'] }), 400, 'validation_failed', 'origin');
      assert.equal((await e({ origin: 'http://127.0.0.2:8080' })).status, 201);
    });

    it('an Idempotency-Key replay returns the same session without the secret and creates nothing new', async () => {
      const key = `ps-${Date.now()}`;
      const body = { mode: 'embedded', amount: 700, origin: SHOP };
      const first = await created(await m.call('POST', '/v1/payment_sessions', { body, idempotencyKey: key }));
      const again = await m.call('POST', '/v1/payment_sessions', { body, idempotencyKey: key });
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.body.id, first.id);
      assert.equal(again.body.payment, first.payment);
      assert.equal(again.body.client_secret, null);
      assert.equal(await env.db.paymentSession.count({ where: { paymentId: first.payment } }), 1);
    });
  });

  describe('validation', () => {
    it('rejects wrong types and values with validation_failed naming the param', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ mode: 'popup' }, 'mode'],
        [{ amount: undefined }, 'amount'],
        [{ amount: 0 }, 'amount'],
        [{ amount: -5 }, 'amount'],
        [{ amount: 1.5 }, 'amount'],
        [{ amount: '100' }, 'amount'],
        [{ amount: Number.MAX_SAFE_INTEGER + 2 }, 'amount'],
        [{ currency: 'XYZ' }, 'currency'],
        [{ currency: 'isk' }, 'currency'],
        [{ currency: 352 }, 'currency'],
        [{ description: 'x'.repeat(1001) }, 'description'],
        [{ customer: 'cus bad id' }, 'customer'],
        [{ customer_email: 'not-an-email' }, 'customer_email'],
        [{ customer_email: 7 }, 'customer_email'],
        [{ enabled_methods: ['bitcoin'] }, 'enabled_methods'],
        [{ enabled_methods: ['bank_invoice'] }, 'enabled_methods'],
        [{ enabled_methods: [] }, 'enabled_methods'],
        [{ enabled_methods: 'card' }, 'enabled_methods'],
        [{ enabled_methods: [1] }, 'enabled_methods[0]'],
        [{ locale: 'not a locale!' }, 'locale'],
        [{ locale: 12 }, 'locale'],
        [{ save_payment_method: 'yes' }, 'save_payment_method'],
        [{ save_payment_method: true }, 'save_payment_method'],
        [{ external_reference: 'r'.repeat(256) }, 'external_reference'],
        [{ external_reference: 'a\u0000b' }, 'external_reference'],
        [{ metadata: 'x' }, 'metadata'],
        [{ metadata: { n: 1 } }, 'metadata.n'],
        [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
        [{ payment: 42 }, 'payment'],
      ];
      for (const [body, param] of cases) {
        const res = await hostedSession(m, body);
        expectError(res, 400, 'validation_failed', param);
      }
    });

    it('ignores unknown fields', async () => {
      const s = await created(await hostedSession(m, { color: 'blue', livemode: true }));
      assert.equal((s as Record<string, unknown>).color, undefined);
    });

    it('a body that is not a JSON object is refused', async () => {
      expectError(await m.call('POST', '/v1/payment_sessions', { rawBody: '[1,2]', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
      expectError(await m.call('POST', '/v1/payment_sessions', { rawBody: '{', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_json');
    });
  });

  describe('attaching to an existing payment', () => {
    const newPayment = async (body: Record<string, unknown> = {}) => {
      const res = await m.call('POST', '/v1/payments', { body: { amount: 3000, currency: 'ISK', description: 'Invoice 7', ...body } });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };

    it("uses the payment's amount, currency and description; metadata stays on the session", async () => {
      const p = await newPayment({ metadata: { source: 'api' } });
      const s = await created(await hostedSession(m, { amount: undefined, payment: p.id, metadata: { session: 'yes' } }));
      assert.equal(s.payment, p.id);
      assert.equal(s.amount, 3000);
      assert.equal(s.currency, 'ISK');
      const after = (await m.call('GET', `/v1/payments/${p.id}`)).body;
      assert.deepEqual(after.metadata, { source: 'api' });
    });

    it('amount, currency and description cannot be given with payment', async () => {
      const p = await newPayment();
      expectError(await hostedSession(m, { payment: p.id }), 400, 'parameter_not_allowed', 'amount');
      expectError(await hostedSession(m, { amount: undefined, payment: p.id, currency: 'ISK' }), 400, 'parameter_not_allowed', 'currency');
      expectError(await hostedSession(m, { amount: undefined, payment: p.id, description: 'x' }), 400, 'parameter_not_allowed', 'description');
    });

    it('the payment must require a payment method or have failed', async () => {
      // failed (a declined checkout attempt) may be retried through a new session
      const first = await created(await hostedSession(m, { amount: 1200 }));
      const declined = await payHosted(env, first.id, { card: DECLINED_CARD });
      assert.equal(declined.body.outcome, 'declined');
      assert.equal((await m.call('GET', `/v1/payments/${first.payment}`)).body.status, 'failed');
      const retry = await created(await hostedSession(m, { amount: undefined, payment: first.payment }));
      assert.equal(retry.payment, first.payment);
      // succeeded: refused
      const paid = await payHosted(env, retry.id);
      assert.equal(paid.body.outcome, 'succeeded', paid.text);
      expectError(await hostedSession(m, { amount: undefined, payment: first.payment }), 409, 'invalid_state', 'payment');
      // canceled: refused
      const p = await newPayment();
      assert.equal((await m.call('POST', `/v1/payments/${p.id}/cancel`)).status, 200);
      expectError(await hostedSession(m, { amount: undefined, payment: p.id }), 409, 'invalid_state', 'payment');
    });

    it('unknown, foreign and other-mode payments are resource_not_found', async () => {
      expectError(await hostedSession(m, { amount: undefined, payment: 'pay_doesnotexist' }), 404, 'resource_not_found', 'payment');
      const foreign = (await other.call('POST', '/v1/payments', { body: { amount: 100, currency: 'ISK' } })).body;
      expectError(await hostedSession(m, { amount: undefined, payment: foreign.id }), 404, 'resource_not_found', 'payment');
      const live = (await m.call('POST', '/v1/payments', { key: m.liveSecretKey, body: { amount: 100, currency: 'ISK' } })).body;
      assert.match(live.id, /^pay_/);
      expectError(await hostedSession(m, { amount: undefined, payment: live.id }), 404, 'resource_not_found', 'payment');
    });

    it("customer must match the payment's customer", async () => {
      const c1 = await newCustomer(m, 'c1@example.is');
      const c2 = await newCustomer(m, 'c2@example.is');
      const p = await newPayment({ customer: c1 });
      expectError(await hostedSession(m, { amount: undefined, payment: p.id, customer: c2 }), 400, 'validation_failed', 'customer');
      const s = await created(await hostedSession(m, { amount: undefined, payment: p.id }));
      assert.equal(s.customer, c1, "the payment's customer");
      assert.equal(s.customer_email, 'c1@example.is');
    });
  });

  describe('customers', () => {
    it('unknown, foreign and other-mode customers are resource_not_found', async () => {
      expectError(await hostedSession(m, { customer: 'cus_nope' }), 404, 'resource_not_found', 'customer');
      const foreign = await newCustomer(other, 'x@example.is');
      expectError(await hostedSession(m, { customer: foreign }), 404, 'resource_not_found', 'customer');
      const liveCus = await newCustomer(m, 'live@example.is', { key: m.liveSecretKey });
      expectError(await hostedSession(m, { customer: liveCus }), 404, 'resource_not_found', 'customer');
      // and nothing was created by the refused requests
      assert.equal(await env.db.paymentSession.count({ where: { merchantId: m.id, customerId: { in: [foreign, liveCus] } } }), 0);
    });
  });

  describe('retrieval and tenancy', () => {
    it('GET of an unknown, foreign or other-mode id is resource_missing', async () => {
      const s = await created(await hostedSession(m));
      expectError(await m.call('GET', '/v1/payment_sessions/ps_unknown'), 404, 'resource_missing', 'id');
      expectError(await m.call('GET', '/v1/payment_sessions/bad%20id'), 404, 'resource_missing', 'id');
      expectError(await other.call('GET', `/v1/payment_sessions/${s.id}`), 404, 'resource_missing', 'id');
      expectError(await m.call('GET', `/v1/payment_sessions/${s.id}`, { key: m.liveSecretKey }), 404, 'resource_missing', 'id');
    });

    it('an open session past expires_at reads expired even before its workflow ran', async () => {
      const s = await created(await hostedSession(m));
      await env.db.paymentSession.update({ where: { id: s.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`)).body.status, 'expired');
    });

    it('requires authentication', async () => {
      expectError(await call(env, 'POST', '/v1/payment_sessions', { body: { amount: 1, return_url: RETURN_URL } }), 401, 'unauthorized');
      expectError(await call(env, 'GET', '/v1/payment_sessions/ps_x', { key: 'sk_test_nope' }), 401, 'unauthorized');
    });
  });

  describe('live mode', () => {
    it('a live key creates live sessions (https only) invisible to the test key', async () => {
      const live = await created(await hostedSession(m, {}, { key: m.liveSecretKey }));
      const row = await env.db.paymentSession.findUnique({ where: { id: live.id }, include: { payment: true } });
      assert.equal(row!.mode, 'live');
      assert.equal(row!.payment.mode, 'live');
      expectError(await m.call('GET', `/v1/payment_sessions/${live.id}`), 404, 'resource_missing', 'id');
      assert.equal((await m.call('GET', `/v1/payment_sessions/${live.id}`, { key: m.liveSecretKey })).status, 200);
      expectError(await hostedSession(m, { return_url: 'http://shop.example.is/ok' }, { key: m.liveSecretKey }), 400, 'validation_failed', 'return_url');
      expectError(
        await m.call('POST', '/v1/payment_sessions', { key: m.liveSecretKey, body: { mode: 'embedded', amount: 5, origin: 'http://shop.example.is' } }),
        400,
        'validation_failed',
        'origin',
      );
    });

    it('live keys are refused before the merchant has gone live', async () => {
      const notLive = await newMerchant(env);
      const key = await insertKey(env.db, notLive.id, 'secret', 'live', 'x');
      expectError(await hostedSession(notLive, {}, { key }), 403, 'live_mode_not_enabled');
    });
  });

  describe('publishable keys', () => {
    const ALLOWED = 'https://shop.example.is';
    const ALSO = 'https://app.example.is';
    let pm: Awaited<ReturnType<typeof merchantWithOrigins>>;
    before(async () => {
      pm = await merchantWithOrigins(env, [ALLOWED, ALSO], { live: true });
    });
    const withPk = (body: Record<string, unknown>, origin: string | null, key?: string) =>
      call(env, 'POST', '/v1/payment_sessions', {
        key: key ?? pm.publishableKey,
        merchant: pm.id,
        body: { mode: 'embedded', amount: 990, origin: ALLOWED, ...body },
        headers: origin === null ? {} : { Origin: origin },
      });

    it('create embedded sessions from an allowed origin (Origin header and origin param both allowed)', async () => {
      const res = await withPk({}, ALLOWED);
      const s = await created(res);
      assert.match(s.client_secret, /^pcs_/);
      assert.equal(s.origin, ALLOWED);
      assert.equal(res.headers.get('access-control-allow-origin'), ALLOWED);
      // two allowed origins of the same merchant
      assert.equal((await withPk({ origin: ALSO }, ALLOWED)).status, 201);
    });

    it('are refused from origins that are not allowed (403 origin_not_allowed)', async () => {
      expectError(await withPk({}, null), 403, 'origin_not_allowed', 'Origin');
      expectError(await withPk({}, 'https://evil.example'), 403, 'origin_not_allowed', 'Origin');
      expectError(await withPk({}, 'null'), 403, 'origin_not_allowed', 'Origin');
      expectError(await withPk({}, 'https://shop.example.is:8443'), 403, 'origin_not_allowed', 'Origin');
      expectError(await withPk({ origin: 'https://evil.example' }, ALLOWED), 403, 'origin_not_allowed', 'origin');
      expectError(await withPk({ origin: undefined }, ALLOWED), 403, 'origin_not_allowed', 'origin');
      const none = await merchantWithOrigins(env, []);
      const res = await call(env, 'POST', '/v1/payment_sessions', {
        key: none.publishableKey,
        merchant: none.id,
        body: { mode: 'embedded', amount: 990, origin: ALLOWED },
        headers: { Origin: ALLOWED },
      });
      expectError(res, 403, 'origin_not_allowed', 'Origin');
      assert.equal(await env.db.paymentSession.count({ where: { merchantId: none.id } }), 0);
    });

    it('may create embedded sessions only, never attach a payment or name a customer', async () => {
      expectError(await withPk({ mode: 'hosted', origin: undefined, return_url: RETURN_URL }, ALLOWED), 403, 'secret_key_required', 'mode');
      expectError(await withPk({ mode: undefined, origin: undefined, return_url: RETURN_URL }, ALLOWED), 403, 'secret_key_required', 'mode');
      const p = (await pm.call('POST', '/v1/payments', { body: { amount: 100, currency: 'ISK' } })).body;
      expectError(await withPk({ amount: undefined, payment: p.id }, ALLOWED), 403, 'secret_key_required', 'payment');
      const cus = await newCustomer(pm, 'p@example.is');
      expectError(await withPk({ customer: cus }, ALLOWED), 403, 'secret_key_required', 'customer');
    });

    it('cannot read sessions or call anything else', async () => {
      const s = await created(await withPk({}, ALLOWED));
      expectError(await call(env, 'GET', `/v1/payment_sessions/${s.id}`, { key: pm.publishableKey, merchant: pm.id, headers: { Origin: ALLOWED } }), 403, 'secret_key_required');
      expectError(await call(env, 'GET', '/v1/payments', { key: pm.publishableKey, merchant: pm.id }), 403, 'secret_key_required');
    });

    it('live publishable keys create live sessions from allowed origins', async () => {
      const s = await created(await withPk({}, ALLOWED, pm.livePublishableKey));
      assert.equal((await env.db.paymentSession.findUnique({ where: { id: s.id } }))!.mode, 'live');
      expectError(await withPk({}, 'https://evil.example', pm.livePublishableKey), 403, 'origin_not_allowed', 'Origin');
    });

    it('answers the CORS preflight of browsers', async () => {
      const res = await fetch(`${env.baseUrl}/v1/payment_sessions`, {
        method: 'OPTIONS',
        headers: { Origin: ALLOWED, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,x-merchant-id' },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), ALLOWED);
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /Authorization/);
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /X-Merchant-Id/);
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
    });
  });
});
