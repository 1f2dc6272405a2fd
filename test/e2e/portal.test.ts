// The customer portal in a real browser (headless Chromium through playwright-core): a link
// clicked on another site opens the portal; the next-invoice preview; cancel at period end and
// undo; add a card and make it the default; download an invoice PDF; a screenshot of the HTML
// invoice; single-use, revoked and expired links; merchant A's link never showing merchant B's
// customer. Screenshots are kept in the temp directory for a human to look at.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '../support/chromium';
import { ok } from '../api/subscriptions/fixtures';
import { HEKLA_DETAILS, portalCustomer, portalLink } from '../api/customer-portals/fixtures';
import { pdfText } from '../support/pdf';
import { updateBusinessDetails } from '../../src/domain/merchants/business-details';
import { describeViolations, seriousViolations } from '../support/axe';

const SHOP_HOST = '127.0.0.2';
const shot = (name: string) => path.join(os.tmpdir(), `portal-${name}-${process.pid}.png`);

describe('customer portal in Chromium (e2e)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let m: TestMerchant;
  let browser: Browser;
  let shop: { origin: string; server: Server };
  const contexts: BrowserContext[] = [];

  before(async function () {
    this.timeout(20 * 60_000);
    ensureChromium();
    env = await testEnv();
    m = await newMerchant(env);
    await updateBusinessDetails(env.db, m.id, { ...HEKLA_DETAILS, vatNumber: '98765' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    // The merchant's site on another origin (another site for the browser): the e-mail or page
    // the customer clicks the portal link on.
    const server = createServer((req, res) => {
      const to = new URL(req.url ?? '/', 'http://shop').searchParams.get('to') ?? '';
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>Shop</title><a id="go" href="${to.replace(/"/g, '&quot;')}">Manage billing</a>`);
    });
    await new Promise<void>((resolve) => server.listen(0, SHOP_HOST, () => resolve()));
    shop = { origin: `http://${SHOP_HOST}:${(server.address() as AddressInfo).port}`, server };
  });

  after(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await new Promise<void>((r) => (shop ? shop.server.close(() => r()) : r()));
  });

  async function newPage(locale = 'en-US'): Promise<{ page: Page; csp: string[] }> {
    const context = await browser.newContext({ locale, viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const csp: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) csp.push(msg.text());
    });
    page.on('dialog', (d) => void d.accept());
    return { page, csp };
  }

  /** Opens the link as a customer would: clicking it on the merchant's site (cross-site). */
  async function openFromShop(page: Page, url: string): Promise<void> {
    await page.goto(`${shop.origin}/?to=${encodeURIComponent(url)}`);
    await page.click('#go');
    await page.waitForURL((u) => u.pathname === '/portal');
    await page.locator('#portal').waitFor();
  }

  it('opens from a link on another site, shows the preview, cancels at period end and undoes it', async () => {
    const pc = await portalCustomer(m, { amount: 12_990 });
    const { url } = await portalLink(env, m, pc.customer.id);
    const { page, csp } = await newPage();
    await openFromShop(page, url);
    assert.equal(await page.locator('#merchant-name').textContent(), 'Hekla Hugbúnaður ehf.');
    const preview = page.locator(`#next-invoice-${pc.subscription.id}`);
    assert.match((await preview.textContent()) ?? '', /Next invoice on .*: 12\.990 kr\./);
    assert.equal(await preview.locator('.amount').getAttribute('data-amount'), '12990');
    await page.screenshot({ path: shot('overview'), fullPage: true });

    await page.click(`#cancel-${pc.subscription.id} button`);
    await page.locator(`#cancels-${pc.subscription.id}`).waitFor();
    assert.equal((await page.locator('#notice').textContent())?.includes('end of the current period'), true);
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${pc.subscription.id}`))).cancel_at_period_end, true);
    // Canceled at period end: the final invoice bills nothing in advance, so no invoice follows.
    assert.match((await preview.textContent()) ?? '', /No further invoice/);

    await page.click(`#uncancel-${pc.subscription.id} button`);
    await page.locator(`#cancel-${pc.subscription.id}`).waitFor();
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${pc.subscription.id}`))).cancel_at_period_end, false);
    assert.match((await page.locator(`#next-invoice-${pc.subscription.id}`).textContent()) ?? '', /12\.990 kr\./);
    assert.deepEqual(csp, [], 'the page works under its CSP');
  });

  it('adds a card (a decline first), makes it the default; downloads an invoice PDF; screenshots the HTML invoice', async () => {
    const pc = await portalCustomer(m, { amount: 4990 });
    const { url } = await portalLink(env, m, pc.customer.id);
    const { page, csp } = await newPage('is-IS');
    await openFromShop(page, url);
    assert.equal(await page.locator('html').getAttribute('lang'), 'is');
    const year = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
    await page.click('#add-card summary');
    await page.fill('#card-number', '4000 0000 0000 0002');
    await page.fill('#card-expiry', `12/${year}`);
    await page.fill('#card-cvc', '123');
    await page.click('#save-card');
    await page.locator('#card-form-error').waitFor();
    assert.match((await page.locator('#card-form-error').textContent()) ?? '', /declined/i);
    await page.fill('#card-number', '5555 5555 5555 4444');
    await page.fill('#card-name', 'Guðrún Ósk');
    await page.click('#save-card');
    await page.locator('#notice:not([hidden])').waitFor();
    const methods = (await ok(m.call('GET', `/v1/payment_methods?customer=${pc.customer.id}`))).data;
    const mc = methods.find((x: any) => x.card.last4 === '4444');
    assert.ok(mc, 'the card is saved');
    const row = page.locator(`#pm-${mc.id}`);
    assert.equal(await row.getAttribute('data-default'), 'true');
    assert.match((await row.textContent()) ?? '', /MASTERCARD •••• 4444/);
    assert.equal((await env.db.customer.findUnique({ where: { id: pc.customer.id } }))!.defaultPaymentMethodId, mc.id);

    const inv = (await ok(m.call('GET', `/v1/invoices?subscription=${pc.subscription.id}`))).data[0];
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#invoice-${inv.id} a.pdf`)]);
    const file = await download.path();
    const text = await pdfText(readFileSync(file!));
    assert.ok(text.includes('Reikningur') && text.includes(inv.number) && text.includes('4.990 kr.') && text.includes('Hekla Hugbúnaður ehf.'), text);

    const doc = await page.context().newPage();
    const res = await doc.goto(`${env.baseUrl}/portal/invoices/${inv.id}`);
    assert.equal(res?.status(), 200);
    assert.equal(await doc.locator('#total-total td.num').textContent(), '4.990 kr.');
    assert.equal(await doc.locator('#buyer .name').textContent(), 'Guðrún Ósk Þórðardóttir');
    const png = await doc.screenshot({ path: shot('invoice'), fullPage: true });
    assert.ok(png.length > 10_000, 'a rendered page');
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.deepEqual(csp, []);
  });

  it('a single-use link opened twice: the second opening says it was used', async () => {
    const pc = await portalCustomer(m);
    const { url } = await portalLink(env, m, pc.customer.id, { reusable: false });
    const first = await newPage();
    await openFromShop(first.page, url);
    const second = await newPage();
    const res = await second.page.goto(url);
    assert.equal(res?.status(), 410);
    assert.equal(await second.page.locator('#portal-status').getAttribute('data-kind'), 'consumed');
    assert.equal((await second.page.content()).includes('Guðrún'), false);
    // The first session goes on.
    await first.page.reload();
    await first.page.locator('#portal').waitFor();
  });

  it('a link revoked while its session is open: the next request shows it was withdrawn', async () => {
    const pc = await portalCustomer(m);
    const { link, url } = await portalLink(env, m, pc.customer.id);
    const { page } = await newPage();
    await openFromShop(page, url);
    await ok(m.call('DELETE', `/v1/customer_portals/${link.id}`));
    await page.click(`#cancel-${pc.subscription.id} button`);
    await page.locator(`#cancel-${pc.subscription.id} .form-error:not([hidden])`).waitFor();
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${pc.subscription.id}`))).cancel_at_period_end, false, 'refused');
    const res = await page.reload();
    assert.equal(res?.status(), 410);
    assert.equal(await page.locator('#portal-status').getAttribute('data-kind'), 'revoked');
    assert.equal((await page.content()).includes('Guðrún'), false);
  });

  it('an expired link shows that it expired', async () => {
    const pc = await portalCustomer(m);
    const { link, url } = await portalLink(env, m, pc.customer.id, { expires_in: 60 });
    await env.db.customerPortalLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const { page } = await newPage();
    const res = await page.goto(url);
    assert.equal(res?.status(), 410);
    assert.equal(await page.locator('#portal-status').getAttribute('data-kind'), 'expired');
    assert.match((await page.locator('h1').textContent()) ?? '', /expired/);
  });

  it("merchant A's link never shows merchant B's customer", async () => {
    const b = await newMerchant(env);
    const theirs = await portalCustomer(b, { name: 'Bjarni Bé' });
    const mine = await portalCustomer(m, { name: 'Anna A' });
    const { url } = await portalLink(env, m, mine.customer.id);
    const { page } = await newPage();
    await openFromShop(page, url);
    assert.match((await page.locator('h1').textContent()) ?? '', /Anna A/);
    assert.equal((await page.content()).includes('Bjarni'), false);
    const theirInvoice = (await ok(b.call('GET', `/v1/invoices?subscription=${theirs.subscription.id}`))).data[0];
    const res = await page.goto(`${env.baseUrl}/portal/invoices/${theirInvoice.id}`);
    assert.equal(res?.status(), 404);
    assert.equal((await page.content()).includes('Bjarni'), false);
  });

  it('axe-core: no serious or critical violation on the portal, in Icelandic and English, at laptop and phone widths; amounts under right-aligned headers, stacked rows labelled', async () => {
    const pc = await portalCustomer(m, { amount: 4990 });
    const { url } = await portalLink(env, m, pc.customer.id);
    const { page } = await newPage();
    await openFromShop(page, url);
    const found: string[] = [];
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      for (const lang of ['is', 'en']) {
        await page.goto(`${env.baseUrl}/portal?lang=${lang}`);
        await page.locator('#invoice-list').waitFor();
        const vs = await seriousViolations(page);
        if (vs.length) found.push(describeViolations(`/portal?lang=${lang} at ${viewport.width}px`, vs));
        if (viewport.width > 640) {
          // The "Total" and "Due" headers sit over their right-aligned amounts.
          const aligns = await page.$$eval('#invoice-list th.num', (ths) => ths.map((th) => getComputedStyle(th).textAlign));
          assert.deepEqual(aligns, ['right', 'right'], lang);
        } else {
          // Stacked rows say what each value is.
          const labels = await page.$$eval('#invoice-list tbody tr:first-child td[data-label]:not(:empty)', (tds) => tds.map((td) => getComputedStyle(td, '::before').content));
          assert.ok(labels.length >= 4 && labels.every((c) => c !== 'none' && c !== ''), `${lang}: ${labels.join(' | ')}`);
        }
        await page.screenshot({ path: shot(`axe-${lang}-${viewport.width}`), fullPage: true });
      }
    }
    const status = await newPage();
    await status.page.goto(`${env.baseUrl}/portal`);
    const vs = await seriousViolations(status.page);
    if (vs.length) found.push(describeViolations('/portal without a session', vs));
    assert.deepEqual(found, [], found.join('\n'));
  });
});
