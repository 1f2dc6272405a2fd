// The dashboard's Settings (accounting connection, business details, portal settings), invoice
// and credit note documents, and the paged Team lists, in headless Chromium against the real API,
// database, Temporal and accounting sandboxes. Each test has its own merchant.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { dashboardBrowser, newDashboardUser, PHONE, type DashboardBrowser } from '../support/dashboard';
import { pdfText } from '../support/pdf';
import { eventually, ok } from '../api/subscriptions/fixtures';
import { paidPayment, settledRefund } from '../api/payments/fixtures';
import { settled } from '../api/accounting/fixtures';
import { createInvitation } from '../../src/domain/dashboard-users/invitations';
import { getBusinessDetails } from '../../src/domain/merchants/business-details';
import { getPortalSettings } from '../../src/domain/customer-portals/portal-settings';

describe('dashboard settings, documents and team lists in Chromium (e2e)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let browser: DashboardBrowser;

  before(async function () {
    this.timeout(20 * 60_000);
    env = await testEnv();
    browser = dashboardBrowser(env);
  });

  after(() => {
    assert.deepEqual(browser.cspViolations, []);
  });

  const settingsUrl = () => `${env.baseUrl}/dashboard/settings`;

  /** A forged form post from a page of the session (its own CSRF token): the server's answer. */
  async function forgedPost(page: import('playwright-core').Page, path: string, body: Record<string, string> = {}): Promise<number> {
    return page.evaluate(
      async ([p, b]) => {
        const token = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
        return (await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: token, ...b }) })).status;
      },
      [path, body] as const,
    );
  }

  it('finance connects the form sandbox (errors beside the field and above the form), watches a sync run, re-syncs a refused record, and disconnects', async () => {
    const m = await newMerchant(env);
    const finance = await newDashboardUser(env, m.id, 'finance');
    const company = env.sandboxes.form.createCompany(`Company of ${m.id}`);
    const { page, close } = await browser.signedIn(finance);
    await page.goto(settingsUrl());
    assert.match((await page.locator('#accounting-status').textContent()) ?? '', /No accounting software is connected in test mode/);

    // A missing API token: the API's message beside that field.
    await page.fill('#f-credentials-company_id', company.id);
    await page.click('#connect-sandbox_form-button');
    await page.locator('.field-error[data-field="credentials.api_token"]').waitFor();
    assert.match((await page.locator('.field-error[data-field="credentials.api_token"]').textContent()) ?? '', /credentials\.api_token is required/);
    assert.equal(await page.inputValue('#f-credentials-company_id'), company.id, 'the form keeps what was typed');
    // Credentials the provider refuses: above the form (they name no single field).
    await page.fill('#f-credentials-api_token', 'not-the-token');
    await page.click('#connect-sandbox_form-button');
    await page.locator('#form-error').waitFor();
    assert.match((await page.locator('#form-error').textContent()) ?? '', /refused the credentials/);
    assert.equal(await page.inputValue('#f-credentials-api_token'), '', 'a token is never sent back to the page');
    await browser.shot(page, 'settings-accounting-error');

    await page.fill('#f-credentials-api_token', company.apiToken);
    await page.fill('#f-credentials-company_id', company.id);
    await page.click('#connect-sandbox_form-button');
    await page.waitForURL(/notice=accounting_connected/);
    assert.equal(await page.locator('#accounting-status').getAttribute('data-status'), 'active');
    assert.equal(await page.locator('#accounting-provider').textContent(), 'Sandbox Bókhald (API token)');
    const link = await ok(m.call('GET', '/v1/accounting_link'));
    assert.deepEqual([link.provider, link.status], ['sandbox_form', 'active']);
    // No VAT code for the standard rate yet: the invoice's record will be refused (our message).
    await ok(m.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: '3000', vat_code_mapping: { exempt: 'S0' } } }));

    // The provider fails the first pushes (the sync retries with backoff): the page shows the
    // records waiting, then, polling on its own, the records sent or refused — without a reload.
    env.sandboxes.form.injectFaults({ status: 503, count: 4 });
    await paidPayment(m, 6200);
    // Both records exist and at least one still waits (the one refused for its VAT code may
    // already have been settled: how soon depends on the machine).
    await eventually(async () => {
      const [all, pending] = await Promise.all([
        env.db.accountingSyncRecord.count({ where: { linkId: link.id } }),
        env.db.accountingSyncRecord.count({ where: { linkId: link.id, status: 'pending' } }),
      ]);
      return all >= 2 && pending >= 1 ? true : undefined;
    }, 'records waiting');
    await page.goto(settingsUrl());
    const waiting = Number(await page.locator('#sync-pending').textContent());
    assert.ok(waiting >= 1, `records waiting on the page: ${waiting}`);
    assert.equal(await page.locator('#accounting-progress').getAttribute('data-running'), '1');
    await browser.shot(page, 'settings-accounting-syncing');
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await page.waitForFunction(() => document.querySelector('#sync-pending')?.textContent === '0', undefined, { timeout: 120_000 });
    assert.equal(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), true);
    assert.deepEqual([await page.locator('#sync-synced').textContent(), await page.locator('#sync-failed').textContent()], ['1', '1']);
    assert.equal(await page.locator('#accounting-progress').getAttribute('data-running'), '0', 'the poll stops when nothing is waiting');
    const progress = await page.evaluate(async () => (await fetch('/dashboard/settings/accounting/progress')).json());
    assert.deepEqual([progress.status, progress.pending, progress.synced, progress.failed], ['active', 0, 1, 1]);

    // The refused record is listed with the reason; after the mapping is fixed, Re-sync sends it.
    await page.reload();
    const refused = await env.db.accountingSyncRecord.findFirstOrThrow({ where: { linkId: link.id, status: 'failed' } });
    assert.match((await page.locator('#accounting').textContent()) ?? '', /No VAT code is mapped for the rate 'standard'/);
    await browser.shot(page, 'settings-accounting-refused');
    await ok(m.call('POST', '/v1/accounting_link/settings', { body: { vat_code_mapping: { standard: 'S24', exempt: 'S0' } } }));
    await page.click(`#resync-${refused.id}`);
    await page.waitForURL(/notice=accounting_resynced/);
    const records = await settled(m, 2);
    assert.deepEqual(
      records.map((r) => r.status),
      ['synced', 'synced'],
    );
    await page.reload();
    assert.deepEqual(
      [await page.locator('#sync-synced').textContent(), await page.locator('#sync-failed').textContent(), await page.locator('#sync-pending').textContent()],
      ['2', '0', '0'],
    );
    await browser.shot(page, 'settings-accounting-synced');

    await page.click('#accounting-disconnect');
    await page.waitForURL(/notice=accounting_disconnected/);
    assert.equal(await page.locator('#accounting-status').getAttribute('data-status'), 'disconnected');
    assert.match((await page.locator('#connect-sandbox_form-button').textContent()) ?? '', /Reconnect/);
    assert.equal((await ok(m.call('GET', '/v1/accounting_link'))).status, 'disconnected');
    const audit = await env.db.dashboardAuditEntry.findMany({
      where: { merchantId: m.id, actorUserId: finance.id, action: { startsWith: 'accounting_link.' } },
      orderBy: { createdAt: 'asc' },
    });
    assert.deepEqual(
      audit.map((e) => [e.action, e.outcome]),
      [
        ['accounting_link.complete', 'failed'],
        ['accounting_link.complete', 'failed'],
        ['accounting_link.complete', 'succeeded'],
        ['accounting_link.disconnect', 'succeeded'],
      ],
    );
    assert.equal((await env.db.dashboardAuditEntry.findFirstOrThrow({ where: { actorUserId: finance.id, action: 'accounting_sync_record.resync' } })).objectId, refused.id);
    await close();
  });

  it('an owner connects the OAuth sandbox from Settings; a read-only user sees the link but is refused a disconnect', async () => {
    const m = await newMerchant(env);
    const owner = await newDashboardUser(env, m.id, 'owner');
    const readOnly = await newDashboardUser(env, m.id, 'read_only');
    const { page, close } = await browser.signedIn(owner);
    await page.goto(settingsUrl());
    await page.click('#connect-sandbox_oauth-button');
    await page.locator('#accounting-authorize').waitFor();
    await browser.shot(page, 'settings-accounting-authorize');
    await page.click('#accounting-authorize');
    assert.equal(await page.title(), 'Authorize access');
    await Promise.all([page.waitForURL(/\/v1\/accounting_link\/callback\/sandbox_oauth/), page.getByRole('button', { name: 'Allow' }).click()]);
    assert.equal(await page.locator('#status').innerText(), 'active');
    // The way back: the callback page links to the dashboard's accounting settings.
    await Promise.all([page.waitForURL(/\/dashboard\/settings#accounting$/), page.click('#back-to-dashboard')]);
    assert.equal(await page.locator('#accounting-status').getAttribute('data-status'), 'active');
    assert.equal(await page.locator('#accounting-provider').textContent(), 'Sandbox Books (OAuth)');
    assert.equal(await page.locator('#accounting-disconnect').count(), 1);

    // The default account and VAT codes, checked against the provider's chart as the API does.
    await page.fill('#f-default_gl_account', '9999');
    await page.fill('#f-vat_code_mapping-standard', 'OUTPUT24');
    await page.click('#accounting-mapping-save');
    await page.locator('.field-error[data-field="default_gl_account"]').waitFor();
    assert.match((await page.locator('.field-error[data-field="default_gl_account"]').textContent()) ?? '', /not an account in the provider's chart/);
    await page.fill('#f-default_gl_account', '3000');
    await page.fill('#f-vat_code_mapping-reduced', 'NOPE');
    await page.click('#accounting-mapping-save');
    await page.locator('.field-error[data-field="vat_code_mapping.reduced"]').waitFor();
    await page.fill('#f-vat_code_mapping-reduced', 'OUTPUT11');
    await page.click('#accounting-mapping-save');
    await page.waitForURL(/\/dashboard\/settings/);
    assert.equal(await page.inputValue('#f-default_gl_account'), '3000');
    const settings = await env.db.accountingLink.findFirstOrThrow({ where: { merchantId: m.id, status: 'active' } });
    assert.deepEqual([settings.defaultGlAccount, settings.vatCodeMapping], ['3000', { standard: 'OUTPUT24', reduced: 'OUTPUT11' }]);
    const audit = await env.db.dashboardAuditEntry.findMany({ where: { merchantId: m.id, action: 'accounting_link.settings' }, orderBy: { createdAt: 'asc' } });
    assert.deepEqual(
      audit.map((e) => e.outcome),
      ['failed', 'failed', 'succeeded'],
    );
    await close();

    const ro = await browser.signedIn(readOnly);
    await ro.page.goto(settingsUrl());
    assert.equal(await ro.page.locator('#accounting-status').getAttribute('data-status'), 'active');
    assert.equal(await ro.page.locator('#accounting-disconnect').count(), 0);
    assert.equal(await ro.page.locator('#business-details-form').count(), 0);
    assert.equal(await forgedPost(ro.page, '/dashboard/settings/accounting/disconnect'), 403);
    assert.equal(await ro.page.locator('#accounting-mapping').count(), 0, 'read-only sees the codes, not the form');
    assert.equal(await forgedPost(ro.page, '/dashboard/settings/accounting/mapping', { default_gl_account: '3001' }), 403);
    assert.equal((await env.db.accountingLink.findFirstOrThrow({ where: { merchantId: m.id, status: 'active' } })).defaultGlAccount, '3000');
    assert.equal((await ok(m.call('GET', '/v1/accounting_link'))).status, 'active');
    await ro.close();
  });

  it('an owner sets the business details and portal settings (errors beside their fields); the invoice document prints them', async () => {
    const m = await newMerchant(env);
    const owner = await newDashboardUser(env, m.id, 'owner');
    const { page, close } = await browser.signedIn(owner);
    await page.goto(settingsUrl());
    await page.fill('#f-legal_name', 'Hekla ehf.');
    await page.fill('#f-kennitala', '123');
    await page.fill('#f-city', 'Reykjavík');
    await page.click('#business-details-save');
    await page.locator('.field-error[data-field="kennitala"]').waitFor();
    assert.equal(await page.locator('.field-error').count(), 1);
    assert.equal(await page.inputValue('#f-legal_name'), 'Hekla ehf.');
    await browser.shot(page, 'settings-business-error');
    assert.equal((await getBusinessDetails(env.db, m.id)).legalName, null, 'nothing saved');
    await page.fill('#f-kennitala', '590269-7199');
    await page.fill('#f-vat_number', '123456');
    await page.fill('#f-country', 'is');
    await page.click('#business-details-save');
    await page.waitForURL(/notice=settings_saved/);
    const details = await getBusinessDetails(env.db, m.id);
    assert.deepEqual([details.legalName, details.kennitala, details.vatNumber, details.city, details.country], ['Hekla ehf.', '5902697199', '123456', 'Reykjavík', 'IS']);
    assert.equal(await page.inputValue('#f-legal_name'), 'Hekla ehf.');

    await page.uncheck('#f-allow_cancel');
    await page.fill('#f-return_url', 'ftp://shop.example.is/account');
    await page.click('#portal-save');
    await page.locator('.field-error[data-field="return_url"]').waitFor();
    assert.equal(await page.isChecked('#f-allow_cancel'), false, 'the form keeps the unticked box');
    assert.equal((await getPortalSettings(env.db, m.id)).allowCancel, true, 'nothing saved');
    await page.fill('#f-return_url', 'https://shop.example.is/account');
    await page.click('#portal-save');
    await page.waitForURL(/notice=settings_saved/);
    const portal = await getPortalSettings(env.db, m.id);
    assert.deepEqual([portal.allowCancel, portal.allowPayInvoices, portal.returnUrl], [false, true, 'https://shop.example.is/account']);
    assert.equal(await page.isChecked('#f-allow_cancel'), false);

    // The document of an invoice prints the seller as set here.
    const { payment } = await paidPayment(m, 5000);
    const inv = await ok(m.call('GET', `/v1/invoices/${payment.invoice}`));
    const html = await page.goto(`${env.baseUrl}/dashboard/invoices/${inv.id}/document.html`);
    assert.equal(html?.status(), 200);
    const text = await page.locator('body').innerText();
    for (const expected of ['Hekla ehf.', '590269-7199', inv.number]) assert.ok(text.includes(expected), `the document shows ${expected}`);
    const audit = await env.db.dashboardAuditEntry.findMany({ where: { actorUserId: owner.id, action: { in: ['business_details.update', 'portal_settings.update'] } } });
    assert.deepEqual(audit.map((e) => `${e.action} ${e.outcome}`).sort(), [
      'business_details.update failed',
      'business_details.update succeeded',
      'portal_settings.update failed',
      'portal_settings.update succeeded',
    ]);
    await close();
  });

  it("finance downloads an invoice's and a credit note's documents; merchant B's session never gets A's", async () => {
    const m: TestMerchant = await newMerchant(env);
    const other = await newMerchant(env);
    const finance = await newDashboardUser(env, m.id, 'finance');
    const ownerB = await newDashboardUser(env, other.id, 'owner');
    const { payment } = await paidPayment(m, 10_000);
    const refund = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 2500, reason: 'requested_by_customer' } })).body;
    await settledRefund(env, m, refund.id);
    const inv = await ok(m.call('GET', `/v1/invoices/${payment.invoice}`));
    const cn = (await ok(m.call('GET', `/v1/credit_notes?invoice=${inv.id}`))).data[0];

    const { page, close } = await browser.signedIn(finance);
    await page.goto(`${env.baseUrl}/dashboard/invoices/${inv.id}`);
    await browser.shot(page, 'invoice-documents');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#document-pdf-en')]);
    assert.equal(download.suggestedFilename(), `invoice-${inv.number}.pdf`);
    const pdf = readFileSync((await download.path())!);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.ok((await pdfText(pdf)).includes(inv.number));
    // Keyboard: the HTML link is reachable and opens the document in a new tab.
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.locator('#document-html-is').press('Enter')]);
    await tab.waitForLoadState();
    assert.ok((await tab.locator('body').innerText()).includes(inv.number));
    await tab.close();

    await page.goto(`${env.baseUrl}/dashboard/credit-notes?invoice=${inv.id}`);
    const cnLink = page.locator(`a[href="/dashboard/credit-notes/${cn.id}/document.pdf?locale=en"]`);
    const [cnDownload] = await Promise.all([page.waitForEvent('download'), cnLink.click()]);
    assert.ok((await pdfText(readFileSync((await cnDownload.path())!))).includes(cn.id));
    await close();

    const b = await browser.signedIn(ownerB);
    for (const url of [
      `/dashboard/invoices/${inv.id}/document.pdf`,
      `/dashboard/invoices/${inv.id}/document.html`,
      `/dashboard/credit-notes/${cn.id}/document.pdf`,
      `/dashboard/credit-notes/${cn.id}/document.html`,
    ]) {
      const res = await b.page.request.get(`${env.baseUrl}${url}`);
      assert.equal(res.status(), 404, url);
      assert.equal(res.headers()['content-type']?.startsWith('text/html'), true, `${url}: the dashboard's error page, not a document`);
    }
    await b.close();
    // No session at all: sent to sign in.
    const anonymous = await fetch(`${env.baseUrl}/dashboard/invoices/${inv.id}/document.pdf`, { redirect: 'manual' });
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get('location') ?? '', /\/dashboard\/sign-in/);
  });

  it('the Team lists page 25 at a time: every user and every open invitation is reachable', async () => {
    const m = await newMerchant(env);
    const owner = await newDashboardUser(env, m.id, 'owner');
    const users = [owner];
    for (let i = 0; i < 27; i++) users.push(await newDashboardUser(env, m.id, 'read_only'));
    const invited: string[] = [];
    for (let i = 0; i < 26; i++) {
      const r = await createInvitation(env.db, { merchantId: m.id, email: `invitee-${i}-${m.id.toLowerCase()}@example.is`, role: 'finance', invitedBy: owner.id, now: new Date() });
      invited.push(r.invitation.email);
    }
    const { page, close } = await browser.signedIn(owner);
    await page.goto(`${env.baseUrl}/dashboard/team`);
    /** Follows a list's "Next page" links from the Team page; the first column of every row seen. */
    const everyRow = async (list: '#users' | '#invitations') => {
      await page.goto(`${env.baseUrl}/dashboard/team`);
      const seen: string[] = [];
      for (;;) {
        assert.ok((await page.locator(`${list} tbody tr`).count()) <= 25);
        seen.push(...(await page.locator(`${list} tbody tr td:first-child`).allInnerTexts()));
        const next = page.locator(`${list} nav.pager a[rel=next]`);
        if ((await next.count()) === 0) return seen;
        await next.click();
      }
    };
    const seenUsers = await everyRow('#users');
    const seenInvitations = await everyRow('#invitations');
    await browser.shot(page, 'team-paged');
    assert.deepEqual([...seenUsers].sort(), users.map((u) => u.email).sort());
    assert.deepEqual([...seenInvitations].sort(), [...invited].sort());
    await close();
    const phone = await browser.signedIn(owner, PHONE);
    await phone.page.goto(settingsUrl());
    await browser.shot(phone.page, 'phone-settings-full');
    await phone.close();
  });
});
