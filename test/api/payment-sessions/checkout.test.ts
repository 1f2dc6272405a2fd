// The checkout pages and their JSON endpoints over plain HTTP (the browser tests in test/e2e
// drive the same pages in Chromium): HTML escaping, CSP and headers, locales, paying, declines
// and retries, saving the card, wallets, embedded sessions by client secret, expired and live sessions.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { call, expectError, type CallOptions, liveMerchant } from '../../support/api';
import { createMerchant } from '../../../src/domain/merchants/create-merchant';
import { CHECKOUT_JS } from '../../../api/checkout/assets/checkout-js';
import { EMBED_JS } from '../../../api/checkout/assets/embed-js';
import escapeHtml from 'escape-html';
import { jsonForScript } from '../../../api/checkout/html';
import { localeFromRequest, pickLocale } from '../../../api/checkout/i18n';
import { CANCEL_URL, checkoutCall, created, DECLINED_CARD, GOOD_CARD, hostedSession, newCustomer, payHosted, type Merchant } from './fixtures';

const SHOP = 'https://shop.example.is';

async function page(env: TestEnv, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${env.baseUrl}${path}`, { headers });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

describe('checkout pages and endpoints', () => {
  let env: TestEnv, m: Merchant;
  before(async () => ([env, m] = await envAndMerchants(liveMerchant)));

  describe('assets and helpers', () => {
    it('the page script and embed.js are valid JavaScript without dollar-brace or backtick surprises', () => {
      assert.doesNotThrow(() => new Function(CHECKOUT_JS));
      assert.doesNotThrow(() => new Function(EMBED_JS));
      assert.match(CHECKOUT_JS, /\\d/, "String.raw kept the regular expressions' backslashes");
      assert.doesNotMatch(CHECKOUT_JS, /postMessage\([^)]*'\*'\)/, 'never posts to *');
      assert.doesNotMatch(EMBED_JS, /postMessage\([^)]*'\*'\)/);
    });

    it('escapes HTML and keeps JSON in script blocks inert', () => {
      // The pages escape through escape-html (one path): the five characters that matter in text and quoted attributes.
      assert.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
      const json = jsonForScript({ s: '</script><script>alert(1)</script>&\u2028' });
      assert.equal(json.includes('<'), false);
      assert.equal(json.includes('&'), false);
      assert.deepEqual(JSON.parse(json), { s: '</script><script>alert(1)</script>&\u2028' });
    });

    it('picks the locale: session locale, else Accept-Language, else English', () => {
      // A Koa context over a bare request: the same ctx.acceptsLanguages the routes call.
      const al = (header?: string) => new Koa().createContext({ headers: header === undefined ? {} : { 'accept-language': header } } as IncomingMessage, {} as ServerResponse);
      assert.equal(pickLocale('is', al('en-US')), 'is');
      assert.equal(pickLocale('en-GB', al('is')), 'en');
      assert.equal(pickLocale('de', al('is-IS,is;q=0.9,en;q=0.8')), 'is');
      assert.equal(pickLocale(null, al('de-DE,en;q=0.5,is;q=0.7')), 'is');
      assert.equal(pickLocale(null, al('de-DE')), 'en');
      assert.equal(pickLocale(null, al()), 'en');
      assert.equal(localeFromRequest(al('is;q=0,en')), 'en');
      assert.equal(localeFromRequest(al('de-DE')), null);
    });

    it('serves the assets with the right types', async () => {
      const js = await page(env, '/checkout/assets/checkout.js');
      assert.equal(js.status, 200);
      assert.match(js.headers.get('content-type') ?? '', /^application\/javascript/);
      assert.equal(js.headers.get('x-content-type-options'), 'nosniff');
      const css = await page(env, '/checkout/assets/checkout.css');
      assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
      const embed = await page(env, '/checkout/embed.js');
      assert.equal(embed.status, 200);
      assert.equal(embed.headers.get('cross-origin-resource-policy'), 'cross-origin');
      assert.match(embed.html, /BillingCheckout/);
    });
  });

  describe('hosted page', () => {
    it('shows merchant, amount, description, prefilled email and methods, all escaped, under a strict CSP', async () => {
      const evil = await createMerchant(env.db, { name: `<script>alert("m")</script> & Co` });
      const em = {
        id: evil.merchant.id,
        secretKey: evil.secretKey,
        publishableKey: evil.publishableKey,
        call: (meth: string, path: string, o: CallOptions = {}) => call(env, meth, path, { key: evil.secretKey, merchant: evil.merchant.id, ...o }),
      } as Merchant;
      const cus = await newCustomer(em, 'anna+x@example.is');
      const s = await created(
        await hostedSession(em, {
          amount: 123456,
          description: '<img src=x onerror=alert(1)> "quoted"',
          cancel_url: `${CANCEL_URL}?a="b"&c=<d>`,
          customer: cus,
          save_payment_method: true,
        }),
      );
      const res = await page(env, new URL(s.url).pathname);
      assert.equal(res.status, 200);
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const d of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"]) {
        assert.ok(csp.includes(d), `CSP has ${d}: ${csp}`);
      }
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      const html = res.html;
      assert.ok(html.includes('&lt;script&gt;alert(&quot;m&quot;)&lt;/script&gt; &amp; Co'));
      assert.equal(html.includes('<script>alert'), false);
      assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot;'));
      assert.equal(html.includes('<img'), false);
      assert.ok(html.includes('123.456 kr.'), 'ISK formatted');
      assert.ok(html.includes('value="anna+x@example.is"'), 'email prefilled from the customer');
      assert.ok(html.includes('id="save-card"'), 'save checkbox offered');
      assert.ok(html.includes('id="pay-apple_pay"') && html.includes('id="pay-google_pay"'), 'test-mode wallets');
      assert.ok(html.includes(`href="${CANCEL_URL}?a=%22b%22&amp;c=%3Cd%3E"`), 'cancel link escaped');
      // only same-origin script and style; no inline script besides the JSON config; no third-party URLs
      const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((x) => x[1]!);
      assert.deepEqual(
        scripts.map((a) => a.trim()),
        ['src="/checkout/assets/checkout.js?v=1" defer', 'type="application/json" id="checkout-config"'],
      );
      assert.equal(/style=/.test(html), false, 'no inline styles');
      assert.equal(/https?:\/\/(?!shop\.example\.is)/.test(html), false, 'no external assets');
      // the config names the hosted confirm endpoint; no secret anywhere
      assert.ok(html.includes(`/checkout/api/sessions/${s.id}/confirm`));
      assert.equal(/pcs_/.test(html), false);
    });

    it('speaks Icelandic for locale is, or from Accept-Language', async () => {
      const is = await created(await hostedSession(m, { locale: 'is' }));
      const html = (await page(env, `/checkout/${is.id}`, { 'Accept-Language': 'en-US' })).html;
      assert.match(html, /<html lang="is">/);
      assert.ok(html.includes('Kortanúmer') && html.includes('Greiða') && html.includes('1.990 kr.'));
      const auto = await created(await hostedSession(m));
      assert.match((await page(env, `/checkout/${auto.id}`, { 'Accept-Language': 'is-IS,is;q=0.9,en;q=0.8' })).html, /<html lang="is">/);
      const en = (await page(env, `/checkout/${auto.id}`, { 'Accept-Language': 'de-DE' })).html;
      assert.match(en, /<html lang="en">/);
      assert.ok(en.includes('Card number'));
    });

    it('shows only the enabled methods; no save box without save_payment_method', async () => {
      const s = await created(await hostedSession(m, { enabled_methods: ['card'] }));
      const html = (await page(env, `/checkout/${s.id}`)).html;
      assert.equal(html.includes('id="pay-apple_pay"'), false);
      assert.equal(html.includes('id="save-card"'), false);
      assert.equal(html.includes('id="cancel-link"'), false, 'no cancel_url, no cancel link');
      const wallets = await created(await hostedSession(m, { enabled_methods: ['google_pay'] }));
      const w = (await page(env, `/checkout/${wallets.id}`)).html;
      assert.ok(w.includes('id="pay-google_pay"'));
      assert.equal(w.includes('id="card-form"'), false);
      assert.equal(w.includes('id="pay-apple_pay"'), false);
    });

    it('unknown ids and embedded sessions have no hosted page', async () => {
      const res = await page(env, '/checkout/ps_doesnotexist');
      assert.equal(res.status, 404);
      assert.match(res.html, /Checkout not found/);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const e = await created(await m.call('POST', '/v1/payment_sessions', { body: { mode: 'embedded', amount: 10, origin: SHOP } }));
      assert.equal((await page(env, `/checkout/${e.id}`)).status, 404);
      assert.equal((await page(env, '/checkout/%3Cscript%3E')).status, 404);
    });
  });

  describe('paying a hosted session', () => {
    it('a success card completes the session and the payment, and gives the return URL with session_id', async () => {
      const s = await created(await hostedSession(m, { amount: 4990 }));
      const res = await payHosted(env, s.id);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.outcome, 'succeeded');
      assert.equal(res.body.status, 'complete');
      assert.equal(res.body.payment, s.payment);
      assert.equal(res.body.payment_status, 'succeeded');
      const redirect = new URL(res.body.redirect_url);
      assert.equal(redirect.origin + redirect.pathname, 'https://shop.example.is/thanks');
      assert.equal(redirect.searchParams.get('order'), '42');
      assert.equal(redirect.searchParams.get('session_id'), s.id);
      assert.equal(res.headers.get('cache-control'), 'no-store');

      const session = (await m.call('GET', `/v1/payment_sessions/${s.id}`)).body;
      assert.equal(session.status, 'complete');
      assert.ok(session.completed_at);
      assert.equal(session.customer_email, 'anna@example.is');
      const p = (await m.call('GET', `/v1/payments/${s.payment}`)).body;
      assert.equal(p.status, 'succeeded');
      const inv = await env.db.invoice.findFirst({ where: { paymentId: s.payment } });
      assert.equal(inv?.status, 'paid');
      const types = (await env.db.event.findMany({ where: { merchantId: m.id, mode: 'test' }, select: { type: true, data: true } }))
        .filter((e) => (e.data as any).id === s.payment || (e.data as any).payment === s.payment)
        .map((e) => e.type);
      assert.ok(types.includes('payment.succeeded'), `events: ${types.join(', ')}`);
      assert.ok(types.includes('invoice.paid'));

      // Paying again is refused; the page now says it is complete and links back.
      expectError(await payHosted(env, s.id), 409, 'invalid_state', 'session');
      const done = await page(env, `/checkout/${s.id}`);
      assert.equal(done.status, 200);
      assert.match(done.html, /Payment received/);
      assert.ok(done.html.includes(`session_id=${s.id}`));
    });

    it("a test-clock customer's checkout payment, its invoice, saved card and events are dated at the clock; the session itself in wall time", async () => {
      const at = '2031-02-03T10:00:00.000Z';
      const clock = await created(await m.call('POST', '/v1/test_helpers/test_clocks', { body: { frozen_time: at } }));
      const customer = await created(await m.call('POST', '/v1/customers', { body: { email: 'anna@example.is', name: 'Anna Jónsdóttir', test_clock: clock.id } }));
      const s = await created(await hostedSession(m, { amount: 4990, customer: customer.id, save_payment_method: true }));
      const res = await payHosted(env, s.id, { save_payment_method: true });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.outcome, 'succeeded');
      const p = (await m.call('GET', `/v1/payments/${s.payment}`)).body;
      assert.deepEqual([p.status, p.created_at, p.succeeded_at], ['succeeded', at, at]);
      const inv = (await m.call('GET', `/v1/invoices/${p.invoice}`)).body;
      assert.deepEqual([inv.status, inv.created_at, inv.finalized_at, inv.paid_at], ['paid', at, at, at]);
      const methods = (await m.call('GET', `/v1/payment_methods?customer=${customer.id}`)).body.data;
      assert.deepEqual(
        methods.map((x: any) => x.created_at),
        [at],
      );
      const events = (await env.db.event.findMany({ where: { merchantId: m.id, mode: 'test' } })).filter((e) => {
        const d = e.data as any;
        return d.id === s.payment || d.payment === s.payment || d.customer === customer.id;
      });
      const types = events.map((e) => e.type).sort();
      for (const t of ['invoice.finalized', 'invoice.paid', 'payment.succeeded', 'payment_method.attached']) assert.ok(types.includes(t), types.join(', '));
      for (const e of events.filter((x) => !x.type.startsWith('customer.'))) assert.equal(e.createdAt.toISOString(), at, `${e.type} dated at the clock`);
      // The session is an access credential: created, completed and expiring in wall time.
      const session = (await m.call('GET', `/v1/payment_sessions/${s.id}`)).body;
      assert.equal(session.status, 'complete');
      const wallNow = Date.now();
      for (const field of ['created_at', 'completed_at']) {
        assert.ok(Math.abs(Date.parse(session[field]) - wallNow) < 3_600_000, `session ${field} ${session[field]} in wall time`);
      }
    });

    it('a declined card gives the reason, leaves the session open, and a good card then succeeds', async () => {
      const s = await created(await hostedSession(m));
      const declined = await payHosted(env, s.id, { card: DECLINED_CARD });
      assert.equal(declined.status, 200);
      assert.deepEqual([declined.body.outcome, declined.body.decline_code], ['declined', 'card_declined']);
      assert.equal(typeof declined.body.message, 'string');
      assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`)).body.status, 'open');
      assert.equal((await m.call('GET', `/v1/payments/${s.payment}`)).body.status, 'failed');
      const funds = await payHosted(env, s.id, { card: { ...GOOD_CARD, number: '4000000000009995' } });
      assert.equal(funds.body.decline_code, 'insufficient_funds');
      const ok = await payHosted(env, s.id);
      assert.equal(ok.body.outcome, 'succeeded');
      const p = await env.db.payment.findUnique({ where: { id: s.payment } });
      assert.equal(p!.status, 'succeeded');
      assert.equal(p!.attemptCount, 3);
    });

    it('two concurrent confirmations charge once: one completes, the other finds the session complete', async () => {
      const s = await created(await hostedSession(m));
      const results = await Promise.all([payHosted(env, s.id), payHosted(env, s.id), payHosted(env, s.id)]);
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 409, 409], results.map((r) => r.text).join('\n'));
      assert.equal(results.find((r) => r.status === 200)!.body.outcome, 'succeeded');
      const p = await env.db.payment.findUnique({ where: { id: s.payment } });
      assert.equal(p!.attemptCount, 1);
      const charges = await env.db.simCharge.count({ where: { idempotencyKey: { startsWith: `${s.payment}:` } } });
      assert.equal(charges, 1);
    });

    it('after 20 attempts a payment takes no more from checkout and the page says it is closed', async () => {
      const s = await created(await hostedSession(m));
      await env.db.payment.update({ where: { id: s.payment }, data: { attemptCount: 20, status: 'failed' } });
      expectError(await payHosted(env, s.id), 409, 'invalid_state', 'payment');
      const res = await page(env, `/checkout/${s.id}`);
      assert.equal(res.status, 410);
      assert.match(res.html, /This payment is closed/);
    });

    it('checks the card server-side too (number, expiry, CVC, email, method)', async () => {
      const s = await created(await hostedSession(m, { enabled_methods: ['card', 'apple_pay'] }));
      const year = new Date().getUTCFullYear();
      expectError(await payHosted(env, s.id, { card: { ...GOOD_CARD, number: '4242 4242 4242 4241' } }), 400, 'validation_failed', 'card.number');
      expectError(await payHosted(env, s.id, { card: { ...GOOD_CARD, number: '4242abcd' } }), 400, 'validation_failed', 'card.number');
      expectError(await payHosted(env, s.id, { card: { ...GOOD_CARD, exp_month: 13 } }), 400, 'validation_failed', 'card.expiry');
      expectError(await payHosted(env, s.id, { card: { ...GOOD_CARD, exp_month: 1, exp_year: year - 1 } }), 400, 'validation_failed', 'card.expiry');
      expectError(await payHosted(env, s.id, { card: { ...GOOD_CARD, cvc: '12' } }), 400, 'validation_failed', 'card.cvc');
      expectError(await payHosted(env, s.id, { card: { ...GOOD_CARD, cvc: null } }), 400, 'validation_failed', 'card.cvc');
      expectError(await payHosted(env, s.id, { card: { ...GOOD_CARD, exp_month: '12' } }), 400, 'validation_failed', 'card.exp_month');
      expectError(await payHosted(env, s.id, { card: undefined }), 400, 'validation_failed', 'card');
      expectError(await payHosted(env, s.id, { email: 'nope' }), 400, 'validation_failed', 'email');
      expectError(await payHosted(env, s.id, { email: null }), 400, 'validation_failed', 'email');
      expectError(await payHosted(env, s.id, { method: 'google_pay' }), 400, 'validation_failed', 'method');
      expectError(await payHosted(env, s.id, { method: 'bitcoin' }), 400, 'validation_failed', 'method');
      // none of these reached the acquirer
      assert.equal((await env.db.payment.findUnique({ where: { id: s.payment } }))!.attemptCount, 0);
      expectError(await payHosted(env, 'ps_unknown'), 404, 'resource_missing', 'session');
    });

    it('refuses calls from other sites', async () => {
      const s = await created(await hostedSession(m));
      expectError(await payHosted(env, s.id, {}, { Origin: 'https://evil.example' }), 403, 'origin_not_allowed', 'Origin');
      expectError(await payHosted(env, s.id, {}, { 'Sec-Fetch-Site': 'cross-site' }), 403, 'origin_not_allowed', 'Origin');
      const ok = await payHosted(env, s.id, {}, { Origin: env.baseUrl, 'Sec-Fetch-Site': 'same-origin' });
      assert.equal(ok.body.outcome, 'succeeded', ok.text);
    });

    it('saves the card for the customer when the session offers it and the customer asks', async () => {
      const cus = await newCustomer(m, 'saver@example.is');
      const s = await created(await hostedSession(m, { customer: cus, save_payment_method: true }));
      const res = await payHosted(env, s.id, { save_payment_method: true });
      assert.equal(res.body.outcome, 'succeeded', res.text);
      const session = (await m.call('GET', `/v1/payment_sessions/${s.id}`)).body;
      assert.match(session.payment_method, /^pm_/);
      const list = (await m.call('GET', `/v1/payment_methods?customer=${cus}`)).body.data;
      assert.equal(list.length, 1);
      assert.equal(list[0].id, session.payment_method);
      assert.equal(list[0].card.last4, '4242');
      assert.equal((await env.db.customer.findUnique({ where: { id: cus } }))!.defaultPaymentMethodId, session.payment_method);

      // Not asked, or not offered: nothing saved.
      const s2 = await created(await hostedSession(m, { customer: cus, save_payment_method: true }));
      assert.equal((await payHosted(env, s2.id)).body.outcome, 'succeeded');
      const s3 = await created(await hostedSession(m, { customer: cus }));
      assert.equal((await payHosted(env, s3.id, { save_payment_method: true })).body.outcome, 'succeeded');
      assert.equal((await m.call('GET', `/v1/payment_methods?customer=${cus}`)).body.data.length, 1);
      assert.equal((await m.call('GET', `/v1/payment_sessions/${s3.id}`)).body.payment_method, null);
    });

    it('pays with a simulated wallet in test mode (no CVC) and saves it as that wallet type', async () => {
      const cus = await newCustomer(m, 'wallet@example.is');
      const s = await created(await hostedSession(m, { customer: cus, save_payment_method: true }));
      const res = await payHosted(env, s.id, {
        method: 'apple_pay',
        card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: null },
        save_payment_method: true,
      });
      assert.equal(res.body.outcome, 'succeeded', res.text);
      const pm = (await m.call('GET', `/v1/payment_methods?customer=${cus}`)).body.data[0];
      assert.equal(pm.type, 'apple_pay');
      const declined = await created(await hostedSession(m));
      const d = await payHosted(env, declined.id, { method: 'google_pay', card: { number: '4000000000009995', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 } });
      assert.equal(d.body.decline_code, 'insufficient_funds');
    });

    it('an expired session cannot be paid; its page says so and links to cancel_url', async () => {
      const s = await created(await hostedSession(m, { cancel_url: CANCEL_URL }));
      await env.db.paymentSession.update({ where: { id: s.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expectError(await payHosted(env, s.id), 409, 'invalid_state', 'session');
      const res = await page(env, `/checkout/${s.id}`);
      assert.equal(res.status, 410);
      assert.match(res.html, /This checkout has expired/);
      assert.ok(res.html.includes(`href="${CANCEL_URL}"`));
      assert.equal((await env.db.payment.findUnique({ where: { id: s.payment } }))!.attemptCount, 0);
    });

    it("a payment canceled through the API closes its session's page", async () => {
      const s = await created(await hostedSession(m));
      assert.equal((await m.call('POST', `/v1/payments/${s.payment}/cancel`)).status, 200);
      expectError(await payHosted(env, s.id), 409, 'invalid_state', 'payment');
      assert.equal((await page(env, `/checkout/${s.id}`)).status, 410);
    });

    it('live mode without a configured acquirer fails clearly (503 adapter_not_configured)', async () => {
      const s = await created(await hostedSession(m, {}, { key: m.liveSecretKey }));
      const html = (await page(env, `/checkout/${s.id}`)).html;
      assert.equal(html.includes('id="test-badge"'), true);
      assert.match(html, /id="test-badge" hidden/);
      assert.equal(html.includes('id="pay-apple_pay"'), false, 'no simulated wallets in live mode');
      expectError(await payHosted(env, s.id), 503, 'adapter_not_configured');
      expectError(await payHosted(env, s.id, { method: 'apple_pay' }), 400, 'validation_failed', 'method');
      assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`, { key: m.liveSecretKey })).body.status, 'open');
    });
  });

  describe('embedded', () => {
    const embedded = async (body: Record<string, unknown> = {}) =>
      created(await m.call('POST', '/v1/payment_sessions', { body: { mode: 'embedded', amount: 2500, origin: SHOP, ...body } }));

    it('the element page is framable only by the declared parent origin and carries no secret', async () => {
      const res = await page(env, `/checkout/embedded?parent_origin=${encodeURIComponent(SHOP)}`);
      assert.equal(res.status, 200);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.ok(csp.includes(`frame-ancestors ${SHOP}`), csp);
      assert.ok(csp.includes("script-src 'self'"));
      assert.equal(res.headers.get('x-frame-options'), null);
      assert.ok(res.html.includes('"parentOrigin":"https://shop.example.is"'));
      for (const bad of ['', 'javascript:alert(1)', 'https://shop.example.is/path', 'https://a.is;script-src *', '*']) {
        const r = await page(env, `/checkout/embedded?parent_origin=${encodeURIComponent(bad)}`);
        assert.equal(r.status, 400, bad);
        assert.match(r.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      }
    });

    it('loads the session by client secret for its own origin only', async () => {
      const s = await embedded({ description: 'Gjafabréf', locale: 'is' });
      const ok = await checkoutCall(env, '/checkout/api/embedded/session', { client_secret: s.client_secret, parent_origin: SHOP });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body.session_id, s.id);
      assert.equal(ok.body.status, 'open');
      assert.equal(ok.body.amount_label, '2.500 kr.');
      assert.equal(ok.body.description, 'Gjafabréf');
      assert.equal(ok.body.locale, 'is');
      assert.equal(ok.body.messages.pay, 'Greiða');
      assert.equal(ok.body.origin, SHOP);
      expectError(
        await checkoutCall(env, '/checkout/api/embedded/session', { client_secret: s.client_secret, parent_origin: 'https://evil.example' }),
        403,
        'origin_not_allowed',
        'parent_origin',
      );
      expectError(
        await checkoutCall(env, '/checkout/api/embedded/session', { client_secret: `pcs_${'a'.repeat(40)}`, parent_origin: SHOP }),
        404,
        'resource_missing',
        'client_secret',
      );
      expectError(await checkoutCall(env, '/checkout/api/embedded/session', { client_secret: s.id, parent_origin: SHOP }), 404, 'resource_missing', 'client_secret');
      expectError(await checkoutCall(env, '/checkout/api/embedded/session', { parent_origin: SHOP }), 400, 'validation_failed', 'client_secret');
      expectError(
        await checkoutCall(env, '/checkout/api/embedded/session', { client_secret: s.client_secret, parent_origin: SHOP }, { Origin: SHOP }),
        403,
        'origin_not_allowed',
        'Origin',
      );
    });

    it('pays by client secret: declined, then complete, no redirect', async () => {
      const s = await embedded();
      const body = { client_secret: s.client_secret, parent_origin: SHOP, method: 'card', email: 'e@example.is' };
      const d = await checkoutCall(env, '/checkout/api/embedded/confirm', { ...body, card: DECLINED_CARD });
      assert.equal(d.body.outcome, 'declined');
      expectError(await checkoutCall(env, '/checkout/api/embedded/confirm', { ...body, parent_origin: 'https://evil.example', card: GOOD_CARD }), 403, 'origin_not_allowed');
      const ok = await checkoutCall(env, '/checkout/api/embedded/confirm', { ...body, card: GOOD_CARD });
      assert.equal(ok.body.outcome, 'succeeded', ok.text);
      assert.equal(ok.body.redirect_url, null);
      assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`)).body.status, 'complete');
      const again = await checkoutCall(env, '/checkout/api/embedded/session', { client_secret: s.client_secret, parent_origin: SHOP });
      assert.equal(again.body.status, 'complete');
    });

    it('the hosted confirm endpoint does not take embedded sessions', async () => {
      const s = await embedded();
      expectError(await payHosted(env, s.id), 404, 'resource_missing', 'session');
    });
  });
});
