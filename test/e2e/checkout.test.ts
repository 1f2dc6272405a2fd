// Checkout in a real browser: headless Chromium (/usr/bin/chromium) driven by playwright-core,
// with a new empty profile. The merchant's shop is a small HTTP server on ANOTHER loopback
// origin (127.0.0.2), which receives the hosted redirect and embeds the embedded element.
//
// Chromium is installed by this suite when missing (apt-get, as root; see the README's "Tests" section), so the
// suite runs unattended in CI. Never `npx playwright install` (it downloads a browser).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { testEnv, type TestEnv } from '../support/env';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '../support/chromium';
import { newMerchant } from '../support/api';
import { created, merchantWithOrigins, newCustomer, type Merchant } from '../api/payment-sessions/fixtures';

const SHOP_HOST = '127.0.0.2';
/** A screenshot of the hosted page, for a human to look at after a run (per-process path: no two runs share it). */
const SCREENSHOT = path.join(os.tmpdir(), `checkout-hosted-${process.pid}.png`);

/** The merchant's shop on its own origin: a return page, a cancel page and a page embedding checkout. */
interface Shop {
  origin: string;
  close(): Promise<void>;
}

function embeddingPage(apiBase: string, merchantId: string, publishableKey: string): string {
  const cfg = JSON.stringify({ api: apiBase, merchant: merchantId, key: publishableKey }).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script src="${apiBase}/checkout/embed.js"></script></head>
<body><h1>Pay for your order</h1><div id="checkout"></div>
<script>
  const cfg = ${cfg};
  window.billingMessages = [];
  window.completed = null;
  // Every message the page receives, with the sender's origin, as a merchant would listen.
  window.addEventListener('message', (e) => window.billingMessages.push({ origin: e.origin, data: e.data }));
  (async () => {
    // The browser creates the embedded session itself, with the publishable key.
    const res = await fetch(cfg.api + '/v1/payment_sessions', {
      method: 'POST',
      headers: { 'Authorization': 'Bearer ' + cfg.key, 'X-Merchant-Id': cfg.merchant, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mode: 'embedded', amount: 3490, currency: 'ISK', origin: window.location.origin, locale: 'en' }),
    });
    const session = await res.json();
    window.createdSession = { status: res.status, body: session };
    BillingCheckout.mount('#checkout', { clientSecret: session.client_secret, onComplete: (d) => { window.completed = d; } });
  })();
</script></body></html>`;
}

async function startShop(env: TestEnv, embed: { merchantId: string; publishableKey: string }): Promise<Shop> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (url.pathname === '/thanks') return res.end('<!doctype html><title>Thanks</title><h1 id="thanks">Thank you for your order</h1>');
    if (url.pathname === '/cart') return res.end('<!doctype html><title>Cart</title><h1 id="cart">Your cart</h1>');
    if (url.pathname === '/embedded') return res.end(embeddingPage(env.baseUrl, embed.merchantId, embed.publishableKey));
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, SHOP_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { origin: `http://${SHOP_HOST}:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('checkout in Chromium (e2e)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let m: Merchant;
  let embedder: Awaited<ReturnType<typeof merchantWithOrigins>>;
  let shop: Shop;
  let context: BrowserContext;
  let profileDir: string;

  before(async function () {
    this.timeout(20 * 60_000);
    ensureChromium();
    env = await testEnv();
    m = await newMerchant(env);
    embedder = await merchantWithOrigins(env, []);
    shop = await startShop(env, { merchantId: embedder.id, publishableKey: embedder.publishableKey });
    await env.db.merchant.update({ where: { id: embedder.id }, data: { allowedOrigins: [shop.origin] } });
    profileDir = mkdtempSync(path.join(os.tmpdir(), 'checkout-e2e-profile-'));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      locale: 'en-US',
      viewport: { width: 1100, height: 820 },
    });
  });

  after(async () => {
    await context?.close();
    await shop?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  /** The session's hosted page, on this test's API instance (the configured public base URL is a placeholder here). */
  const hostedUrl = (s: { url: string }) => `${env.baseUrl}${new URL(s.url).pathname}`;

  async function newHostedSession(body: Record<string, unknown> = {}) {
    return created(
      await m.call('POST', '/v1/payment_sessions', {
        body: { amount: 12990, currency: 'ISK', description: 'Lopapeysa, stærð M', return_url: `${shop.origin}/thanks?order=17`, cancel_url: `${shop.origin}/cart`, ...body },
      }),
    );
  }

  async function fillCard(page: Page, number: string, opts: { email?: string } = {}) {
    if (opts.email !== undefined) await page.fill('#email', opts.email);
    await page.fill('#card-number', number);
    await page.fill('#card-expiry', `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`);
    await page.fill('#card-cvc', '123');
    await page.fill('#card-name', 'Anna Jónsdóttir');
  }

  it('hosted: a success card redirects to return_url with session_id; session complete, payment succeeded', async () => {
    const s = await newHostedSession({ customer_email: 'anna@example.is' });
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
    const response = await page.goto(hostedUrl(s));
    assert.equal(response?.status(), 200);
    await page.locator('#card-form').waitFor();
    assert.equal(await page.locator('#merchant-name').textContent(), (await env.db.merchant.findUnique({ where: { id: m.id } }))!.name);
    assert.equal(await page.locator('#amount').textContent(), '12.990 kr.');
    assert.equal(await page.inputValue('#email'), 'anna@example.is');
    assert.ok(await page.locator('#pay-apple_pay').isVisible());
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await fillCard(page, '4242424242424242');
    assert.equal(await page.inputValue('#card-number'), '4242 4242 4242 4242', 'formatted while typing');
    await page.click('#pay-button');
    await page.waitForURL((u) => u.origin === shop.origin && u.pathname === '/thanks');
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('session_id'), s.id);
    assert.equal(landed.searchParams.get('order'), '17');
    assert.equal(page.url().includes('pcs_'), false);
    await page.locator('#thanks').waitFor();

    // The redirect proves nothing: the merchant checks server-side (docs/checkout.md).
    const session = (await m.call('GET', `/v1/payment_sessions/${s.id}`)).body;
    assert.equal(session.status, 'complete');
    assert.equal((await m.call('GET', `/v1/payments/${session.payment}`)).body.status, 'succeeded');
    assert.deepEqual(cspViolations, [], 'the page works under its own CSP');
    await page.close();
  });

  it('hosted: a declined card shows the reason (Icelandic), then a good card succeeds', async () => {
    const s = await newHostedSession({ locale: 'is' });
    const page = await context.newPage();
    await page.goto(hostedUrl(s));
    assert.equal(await page.locator('html').getAttribute('lang'), 'is');
    // Client-side checks first: a number failing Luhn never reaches the service.
    await fillCard(page, '4242 4242 4242 4241', { email: 'jon@example.is' });
    await page.click('#pay-button');
    await page.locator('#card-number-error').waitFor();
    assert.equal(await page.locator('#card-number-error').textContent(), 'Sláðu inn gilt kortanúmer.');
    assert.equal((await env.db.payment.findUnique({ where: { id: s.payment } }))!.attemptCount, 0);

    await fillCard(page, '4000 0000 0000 0002');
    await page.click('#pay-button');
    await page.locator('#form-error').waitFor();
    assert.equal(await page.locator('#form-error').textContent(), 'Kortinu var hafnað. Reyndu annað kort.');
    assert.equal((await m.call('GET', `/v1/payments/${s.payment}`)).body.status, 'failed');
    assert.equal(await page.locator('#pay-button').isEnabled(), true, 'the customer may try again');

    await fillCard(page, '4242 4242 4242 4242');
    await page.click('#pay-button');
    await page.waitForURL((u) => u.origin === shop.origin && u.pathname === '/thanks');
    assert.equal(new URL(page.url()).searchParams.get('session_id'), s.id);
    assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`)).body.status, 'complete');
    assert.equal((await m.call('GET', `/v1/payments/${s.payment}`)).body.status, 'succeeded');
    await page.close();
  });

  it('hosted: with "save this card" on, the card is listed as the customer\'s payment method', async () => {
    const cus = await newCustomer(m, 'saver@example.is');
    const s = await newHostedSession({ customer: cus, save_payment_method: true });
    const page = await context.newPage();
    await page.goto(hostedUrl(s));
    assert.equal(await page.inputValue('#email'), 'saver@example.is');
    await fillCard(page, '5555 5555 5555 4444');
    await page.check('#save-card');
    await page.click('#pay-button');
    await page.waitForURL((u) => u.origin === shop.origin && u.pathname === '/thanks');
    const methods = (await m.call('GET', `/v1/payment_methods?customer=${cus}`)).body.data;
    assert.equal(methods.length, 1);
    assert.equal(methods[0].card.brand, 'mastercard');
    assert.equal(methods[0].card.last4, '4444');
    assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`)).body.payment_method, methods[0].id);
    await page.close();
  });

  it('hosted: a simulated Apple Pay payment in test mode, and the cancel link goes to cancel_url', async () => {
    const s = await newHostedSession();
    const page = await context.newPage();
    await page.goto(hostedUrl(s));
    await page.fill('#email', 'wallet@example.is');
    await page.click('#pay-apple_pay');
    await page.locator('#wallet-sheet').waitFor();
    await page.selectOption('#wallet-card', '4242424242424242');
    await page.click('#wallet-confirm');
    await page.waitForURL((u) => u.origin === shop.origin && u.pathname === '/thanks');
    assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`)).body.status, 'complete');

    const other = await newHostedSession();
    await page.goto(hostedUrl(other));
    await page.click('#cancel-link');
    await page.waitForURL((u) => u.origin === shop.origin && u.pathname === '/cart');
    assert.equal((await m.call('GET', `/v1/payment_sessions/${other.id}`)).body.status, 'open');
    await page.close();
  });

  it('embedded: mounted from a page on another loopback origin, it reports completion to that origin by postMessage', async () => {
    const page = await context.newPage();
    await page.goto(`${shop.origin}/embedded`);
    const frame = page.frameLocator('#checkout iframe');
    await frame.locator('#card-form').waitFor();
    const createdSession = await page.evaluate(() => (globalThis as any).createdSession);
    assert.equal(createdSession.status, 201, JSON.stringify(createdSession));
    const sessionId = createdSession.body.id as string;
    assert.equal(await frame.locator('#amount').textContent(), '3.490 kr.');
    const iframeSrc = await page.locator('#checkout iframe').getAttribute('src');
    assert.equal(iframeSrc?.includes('pcs_'), false, 'the client secret is not in the frame URL');

    await frame.locator('#email').fill('embedded@example.is');
    await frame.locator('#card-number').fill('4242 4242 4242 4242');
    await frame.locator('#card-expiry').fill('12/39');
    await frame.locator('#card-cvc').fill('123');
    await frame.locator('#pay-button').click();
    await page.waitForFunction(() => (globalThis as any).completed !== null);

    const completed = await page.evaluate(() => (globalThis as any).completed);
    assert.equal(completed.sessionId, sessionId);
    assert.equal(completed.status, 'complete');
    assert.equal(completed.paymentStatus, 'succeeded');
    const messages = (await page.evaluate(() => (globalThis as any).billingMessages)) as Array<{ origin: string; data: any }>;
    const done = messages.filter((x) => x.data?.type === 'billing.checkout.complete');
    assert.equal(done.length, 1);
    assert.equal(done[0]!.origin, env.baseUrl, 'sent by the checkout frame at the service origin');
    assert.equal(done[0]!.data.session_id, sessionId);

    const session = (await embedder.call('GET', `/v1/payment_sessions/${sessionId}`)).body;
    assert.equal(session.status, 'complete');
    assert.equal(session.origin, shop.origin);
    assert.equal((await embedder.call('GET', `/v1/payments/${session.payment}`)).body.status, 'succeeded');
    await page.close();
  });

  it("embedded: the element refuses to work for a page that is not the session's origin", async () => {
    // A session created (server-side) for another origin, mounted on the shop page: the frame loads
    // but the service refuses the secret for this parent, so no form is shown.
    const s = await created(await embedder.call('POST', '/v1/payment_sessions', { body: { mode: 'embedded', amount: 100, origin: 'https://elsewhere.example' } }));
    const page = await context.newPage();
    await page.goto(`${shop.origin}/cart`);
    await page.addScriptTag({ url: `${env.baseUrl}/checkout/embed.js` });
    await page.evaluate((secret) => {
      const doc = (globalThis as any).document;
      const div = doc.createElement('div');
      div.id = 'mount';
      doc.body.appendChild(div);
      (globalThis as any).BillingCheckout.mount('#mount', { clientSecret: secret });
    }, s.client_secret);
    const frame = page.frameLocator('#mount iframe');
    await frame.locator('#notice').waitFor();
    assert.equal(await frame.locator('#notice-title').textContent(), 'Checkout not found');
    assert.equal(await frame.locator('#content').isHidden(), true);
    assert.equal((await embedder.call('GET', `/v1/payment_sessions/${s.id}`)).body.status, 'open');
    await page.close();
  });
});
