// The OAuth connect flow in a real browser: headless Chromium (/usr/bin/chromium, playwright-core)
// follows the redirect_url to the sandbox provider's authorization page, clicks Allow (by
// keyboard), is sent back to the service's callback and sees the link connected; Deny connects
// nothing. Then the sync books a paid invoice in the provider.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { testEnv, type TestEnv } from '../support/env';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '../support/chromium';
import { newMerchant, type TestMerchant } from '../support/api';
import { paidPayment } from '../api/payments/fixtures';
import { settled } from '../api/accounting/fixtures';

describe('accounting OAuth connect in Chromium (e2e)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let context: BrowserContext;
  let profileDir: string;

  before(async function () {
    ensureChromium();
    env = await testEnv();
    profileDir = mkdtempSync(path.join(os.tmpdir(), 'accounting-e2e-profile-'));
    context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, locale: 'en-US' });
  });

  after(async () => {
    await context?.close();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  });

  async function connectUrl(m: TestMerchant): Promise<string> {
    const res = await m.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth', mode: 'test' } });
    assert.equal(res.status, 200, res.text);
    return res.body.redirect_url;
  }

  it('Allow on the provider’s page connects the link through the callback; the sync then books invoices there', async () => {
    const m = await newMerchant(env);
    const page = await context.newPage();
    await page.goto(await connectUrl(m));
    assert.equal(await page.title(), 'Authorize access');
    assert.match(await page.locator('main').innerText(), /Sandbox ehf\./);
    const allow = page.getByRole('button', { name: 'Allow' });
    await allow.focus();
    await Promise.all([page.waitForURL(/\/v1\/accounting_link\/callback\/sandbox_oauth/), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('h1').innerText(), 'Accounting connected');
    const linkId = await page.locator('#link').innerText();
    assert.equal(await page.locator('#status').innerText(), 'active');
    // Reloading the callback (the state is single use) is refused and changes nothing.
    const again = await page.reload();
    assert.equal(again?.status(), 400);
    await page.close();

    const link = (await m.call('GET', '/v1/accounting_link')).body;
    assert.deepEqual([link.id, link.provider, link.status], [linkId, 'sandbox_oauth', 'active']);
    const s = await m.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: '3010', vat_code_mapping: { standard: 'OUTPUT24' } } });
    assert.equal(s.status, 200, s.text);
    await paidPayment(m, 6200);
    const records = await settled(m, 2);
    assert.deepEqual(
      records.map((r) => r.status),
      ['synced', 'synced'],
    );
    const books = env.sandboxes.oauth.records().filter((r) => records.some((x) => x.posting === r.reference));
    assert.deepEqual(books.map((b) => b.type).sort(), ['invoice', 'payment']);
    assert.deepEqual(
      (books.find((b) => b.type === 'invoice')!.body.lines as any[]).map((l) => [l.account_code, l.vat_code, l.net_amount, l.vat_amount]),
      [['3010', 'OUTPUT24', 5000, 1200]],
    );
  });

  it('Deny connects nothing', async () => {
    const m = await newMerchant(env);
    const page = await context.newPage();
    await page.goto(await connectUrl(m));
    const [response] = await Promise.all([page.waitForResponse(/\/v1\/accounting_link\/callback\//), page.getByRole('button', { name: 'Deny' }).click()]);
    assert.equal(response.status(), 400);
    assert.equal((await response.json()).error.code, 'oauth_state_invalid');
    await page.close();
    assert.equal((await m.call('GET', '/v1/accounting_link')).status, 404);
  });
});
