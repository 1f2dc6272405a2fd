// The merchant dashboard in a real browser: headless Chromium driven by playwright-core against
// the real API, database and Temporal. Screenshots of every page (laptop and phone widths) are
// kept in test-artifacts/dashboard/ (or DASHBOARD_SCREENSHOT_DIR) for a person to look at.
import assert from 'node:assert/strict';
import { TOTP, Secret } from 'otpauth';
import { testEnv, type TestEnv } from '../support/env';
import { call, newMerchant, expectError, type TestMerchant } from '../support/api';
import { dashboardBrowser, newDashboardUser, signInHttp, LAPTOP, PHONE, SCREENSHOT_DIR, TEST_PASSWORD, type DashboardBrowser } from '../support/dashboard';
import { attachCard, createCustomer, eventually, monthlyPrice, ok, TEST_CARDS } from '../api/subscriptions/fixtures';
import { receiverVerifies, startHarness, startReceiver } from '../api/webhooks/harness';

type User = Awaited<ReturnType<typeof newDashboardUser>>;

describe('merchant dashboard in Chromium (e2e)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let a: TestMerchant;
  let b: TestMerchant;
  let ownerA: User;
  let developerA: User;
  let financeA: User;
  let readOnlyA: User;
  let ownerB: User;
  let browser: DashboardBrowser;
  let freshPage: DashboardBrowser['freshPage'];
  let signIn: DashboardBrowser['signIn'];
  let shot: DashboardBrowser['shot'];

  before(async function () {
    this.timeout(20 * 60_000);
    env = await testEnv();
    a = await newMerchant(env);
    b = await newMerchant(env);
    ownerA = await newDashboardUser(env, a.id, 'owner');
    developerA = await newDashboardUser(env, a.id, 'developer');
    financeA = await newDashboardUser(env, a.id, 'finance');
    readOnlyA = await newDashboardUser(env, a.id, 'read_only');
    ownerB = await newDashboardUser(env, b.id, 'owner');
    browser = dashboardBrowser(env);
    ({ freshPage, signIn, shot } = browser);
  });

  it('signs in, shows the home page with its charts, and signs out', async () => {
    const { page, close } = await freshPage();
    const res = await page.goto(`${env.baseUrl}/dashboard`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in', 'not signed in: sent to sign-in');
    assert.equal(res?.status(), 200);
    const csp = res?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    await shot(page, 'sign-in');
    await signIn(page, ownerA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    assert.equal(await page.locator('#user-email').textContent(), ownerA.email);
    assert.equal(await page.locator('#merchant-name').textContent(), (await env.db.merchant.findUnique({ where: { id: a.id } }))!.name);
    await page.locator('#chart-revenue').waitFor();
    // Chart.js (served by the service) drew on the canvas.
    await page.waitForFunction(() => typeof (window as unknown as { Chart?: unknown }).Chart === 'function');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'billing_dashboard')!;
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    await page.click('#sign-out');
    await page.waitForURL(/\/dashboard\/sign-in/);
    assert.match((await page.locator('#notice').textContent()) ?? '', /signed out/);
    const back = await page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in', 'the old session no longer works');
    assert.equal(back?.status(), 200);
    await close();
  });

  it('a wrong password is shown beside the field; five failures lock the e-mail with a clear message', async () => {
    const victim = await newDashboardUser(env, a.id, 'finance');
    const { page, close } = await freshPage();
    for (let i = 1; i <= 4; i++) {
      await signIn(page, victim, 'wrong password!');
      await page.locator('.field-error[data-field="password"]').waitFor();
      assert.match((await page.locator('.field-error[data-field="password"]').textContent()) ?? '', /Wrong e-mail or password/);
    }
    assert.match((await page.locator('.field-error[data-field="password"]').textContent()) ?? '', /One more failed attempt locks this e-mail for 15 minutes/);
    await signIn(page, victim, 'wrong password!');
    await page.locator('.field-error[data-field="email"]').waitFor();
    const locked = (await page.locator('.field-error[data-field="email"]').textContent()) ?? '';
    assert.match(locked, /Too many failed sign-ins for this e-mail: it is locked for 15 minutes, until \d\d:\d\d UTC/);
    await shot(page, 'sign-in-locked');
    // Locked means locked: even the right password is refused now.
    await signIn(page, victim);
    await page.locator('.field-error[data-field="email"]').waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in');
    const audit = await env.db.dashboardAuditEntry.findMany({ where: { merchantId: a.id, objectId: victim.id, action: 'session.sign_in' } });
    // Four plain failures, then the fifth (which locked) and the right password while locked.
    assert.equal(audit.filter((e) => e.outcome === 'failed').length, 4);
    assert.equal(audit.filter((e) => e.outcome === 'denied').length, 2);
    assert.equal(await env.db.dashboardSignInAttempt.count({ where: { email: victim.email, succeeded: false } }), 5);
    await close();
  });

  it('a developer creates a key (shown once, works at once) and rotates it (the old value stops)', async () => {
    const { page, close } = await freshPage();
    await signIn(page, developerA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    await page.fill('#f-label', 'e2e backend');
    await page.click('#create-key-button');
    await page.locator('#shown-key').waitFor();
    const key = ((await page.locator('#shown-key').textContent()) ?? '').trim();
    assert.match(key, /^sk_test_[0-9A-Za-z]{32}$/);
    await shot(page, 'api-keys-created');
    const ok = await call(env, 'GET', '/v1/customers', { key, merchant: a.id });
    assert.equal(ok.status, 200, ok.text);
    // Reloading does not show it again.
    await page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    assert.equal(await page.locator('#shown-key').count(), 0);
    assert.equal((await page.content()).includes(key), false);

    const row = await env.db.apiKey.findFirstOrThrow({ where: { merchantId: a.id, label: 'e2e backend' } });
    await page.click(`#rotate-${row.id}`);
    await page.locator('#shown-key').waitFor();
    const rotated = ((await page.locator('#shown-key').textContent()) ?? '').trim();
    assert.notEqual(rotated, key);
    expectError(await call(env, 'GET', '/v1/customers', { key, merchant: a.id }), 401, 'unauthorized');
    assert.equal((await call(env, 'GET', '/v1/customers', { key: rotated, merchant: a.id })).status, 200);
    await close();
  });

  it('a read-only user sees no action buttons, and the server refuses a forged action too', async () => {
    const { page, close } = await freshPage();
    await signIn(page, readOnlyA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    assert.equal(await page.locator('#create-key-form').count(), 0);
    assert.equal(await page.locator('[id^="revoke-"]').count(), 0);
    await shot(page, 'api-keys-read-only');
    const before = await env.db.apiKey.count({ where: { merchantId: a.id } });
    // The same form a developer gets, submitted from this page with this session's CSRF token.
    const status = await page.evaluate(async () => {
      const token = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
      const res = await fetch('/dashboard/developers/api-keys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: token, label: 'sneaky', type: 'secret' }),
      });
      return { status: res.status, text: await res.text() };
    });
    assert.equal(status.status, 403);
    assert.match(status.text, /does not allow this action/);
    assert.equal(await env.db.apiKey.count({ where: { merchantId: a.id } }), before);
    const denied = await env.db.dashboardAuditEntry.findFirst({ where: { actorUserId: readOnlyA.id, action: 'api_key.create' } });
    assert.equal(denied?.outcome, 'denied');
    await close();
  });

  it('a state change without the CSRF token, or from another origin, is refused', async () => {
    const { page, close } = await freshPage();
    await signIn(page, ownerA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    const before = await env.db.apiKey.count({ where: { merchantId: a.id } });
    const noToken = await page.evaluate(async () => {
      const res = await fetch('/dashboard/developers/api-keys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ label: 'no token', type: 'secret' }),
      });
      return { status: res.status, text: await res.text() };
    });
    assert.equal(noToken.status, 403);
    assert.match(noToken.text, /did not come from the dashboard/);
    const wrongToken = await page.evaluate(async () => {
      const res = await fetch('/dashboard/developers/api-keys', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: 'x'.repeat(43), label: 'bad token', type: 'secret' }),
      });
      return res.status;
    });
    assert.equal(wrongToken, 403);
    assert.equal(await env.db.apiKey.count({ where: { merchantId: a.id } }), before);
    // Outside the browser: the session cookie with a foreign Origin is refused even with the token.
    const http = await signInHttp(env, ownerA.email);
    const foreign = await fetch(`${env.baseUrl}/dashboard/developers/api-keys`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: http.cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
      body: new URLSearchParams({ _csrf: http.csrf, label: 'foreign', type: 'secret' }).toString(),
    });
    assert.equal(foreign.status, 403);
    assert.match(await foreign.text(), /came from another site/);
    assert.equal(await env.db.apiKey.count({ where: { merchantId: a.id } }), before);
    await close();
  });

  it("merchant A's session never sees merchant B's objects", async () => {
    const bKey = await b.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', label: 'only-b-key' } });
    assert.equal(bKey.status, 201);
    const bEndpoint = await env.db.webhookEndpoint.create({
      data: { id: `we_b${Date.now()}`, merchantId: b.id, mode: 'test', url: 'https://b.example.com/hook', events: ['*'], secret: 'whsec_b' },
    });
    const { page, close } = await freshPage();
    await signIn(page, ownerA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    assert.equal((await page.content()).includes('only-b-key'), false);
    const res = await page.goto(`${env.baseUrl}/dashboard/developers/webhooks/${bEndpoint.id}`);
    assert.equal(res?.status(), 404);
    assert.equal(await page.locator('#error-message').getAttribute('data-code'), 'resource_missing');
    await page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    // Forged actions on B's objects fail the same way and change nothing.
    const rotate = await page.evaluate(async (id) => {
      const token = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
      const r = await fetch(`/dashboard/developers/api-keys/${id}/rotate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: token }),
      });
      return r.status;
    }, bKey.body.id);
    assert.equal(rotate, 404);
    assert.equal((await env.db.apiKey.findUnique({ where: { id: bKey.body.id } }))!.rotatedAt, null);
    await close();
    // And B's owner sees B's key, not A's.
    const other = await freshPage();
    await signIn(other.page, ownerB);
    await other.page.waitForURL(`${env.baseUrl}/dashboard`);
    await other.page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    assert.ok((await other.page.content()).includes('only-b-key'));
    assert.equal((await other.page.content()).includes('e2e backend'), false);
    await other.close();
  });

  it('two-step sign-in: set up with an authenticator code, then asked for a code at sign-in', async () => {
    const user = await newDashboardUser(env, a.id, 'developer');
    const { page, close } = await freshPage();
    await signIn(page, user);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await page.goto(`${env.baseUrl}/dashboard/account`);
    await page.click('#totp-setup');
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').trim();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    await page.fill('#f-code', '000000');
    await page.click('#totp-confirm-form button[type=submit]');
    await page.locator('.field-error[data-field="code"]').waitFor();
    await page.fill('#f-code', totp.generate());
    await page.click('#totp-confirm-form button[type=submit]');
    await page.locator('#totp-status').waitFor();
    assert.match((await page.locator('#totp-status').textContent()) ?? '', /^On since/);
    await page.click('#sign-out');
    await page.waitForURL(/sign-in/);
    await signIn(page, user);
    await page.waitForURL(/\/dashboard\/sign-in\/two-step/);
    // Nothing else works before the code.
    await page.goto(`${env.baseUrl}/dashboard/developers/api-keys`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in/two-step');
    await shot(page, 'sign-in-two-step');
    // The code used to turn it on cannot be replayed; wait for the next step.
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    await page.fill('#f-code', next);
    await page.click('#two-step-button');
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await close();
  });

  it('sign out everywhere ends every session of the user', async () => {
    const first = await freshPage();
    const second = await freshPage();
    await signIn(first.page, financeA);
    await first.page.waitForURL(`${env.baseUrl}/dashboard`);
    await signIn(second.page, financeA);
    await second.page.waitForURL(`${env.baseUrl}/dashboard`);
    await first.page.goto(`${env.baseUrl}/dashboard/account`);
    await first.page.click('#sign-out-everywhere');
    await first.page.waitForURL(/sign-in/);
    await second.page.goto(`${env.baseUrl}/dashboard/developers/webhooks`);
    assert.equal(new URL(second.page.url()).pathname, '/dashboard/sign-in');
    await first.close();
    await second.close();
  });

  it('the owner reads the audit log of the actions above; other roles cannot', async () => {
    const { page, close } = await freshPage();
    await signIn(page, ownerA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await page.goto(`${env.baseUrl}/dashboard/audit`);
    const text = (await page.locator('#audit').textContent()) ?? '';
    for (const action of ['api_key.create', 'api_key.rotate', 'session.sign_in']) assert.ok(text.includes(action), `${action} in the audit log`);
    assert.ok(text.includes(developerA.email));
    await shot(page, 'audit-log');
    await close();
    const dev = await freshPage();
    await signIn(dev.page, developerA);
    await dev.page.waitForURL(`${env.baseUrl}/dashboard`);
    const res = await dev.page.goto(`${env.baseUrl}/dashboard/audit`);
    assert.equal(res?.status(), 403);
    await dev.close();
    // The log is append-only in the database itself.
    await assert.rejects(env.db.$executeRawUnsafe(`UPDATE dashboard_audit_log SET action = 'x' WHERE merchant_id = '${a.id}'`), /append-only/);
    await assert.rejects(env.db.$executeRawUnsafe(`DELETE FROM dashboard_audit_log WHERE merchant_id = '${a.id}'`), /append-only/);
  });

  /** A subscription whose first invoice failed to charge (a card that saves but is always declined). */
  async function failedSubscriptionInvoice(): Promise<{ customer: any; subscription: any; invoice: any }> {
    const customer = await createCustomer(a);
    await attachCard(a, customer.id, TEST_CARDS.alwaysDeclines);
    const price = await monthlyPrice(a, 4900);
    const subscription = await ok(a.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    const invoice = await eventually(async () => {
      const list = await ok(a.call('GET', `/v1/invoices?subscription=${subscription.id}`));
      const inv = list.data[0];
      const row = inv ? await env.db.invoice.findUnique({ where: { id: inv.id } }) : null;
      return inv && inv.status === 'open' && row!.attemptCount >= 1 ? inv : undefined;
    }, 'the first invoice to fail');
    return { customer, subscription, invoice };
  }

  it('finance retries a failed invoice and sees it paid, and voids another (read-only cannot)', async () => {
    const first = await failedSubscriptionInvoice();
    const second = await failedSubscriptionInvoice();
    // The customer fixes the card: a good one becomes the default.
    const good = await attachCard(a, first.customer.id, TEST_CARDS.visa);
    await ok(a.call('POST', `/v1/payment_methods/${good.id}/set_default`));

    const ro = await freshPage();
    await signIn(ro.page, readOnlyA);
    await ro.page.waitForURL(`${env.baseUrl}/dashboard`);
    await ro.page.goto(`${env.baseUrl}/dashboard/invoices/${first.invoice.id}`);
    assert.equal(await ro.page.locator('#invoice-pay').count(), 0);
    const forged = await ro.page.evaluate(async (id) => {
      const token = (document.querySelector('input[name=_csrf]') as HTMLInputElement).value;
      return (
        await fetch(`/dashboard/invoices/${id}/pay`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: token }),
        })
      ).status;
    }, first.invoice.id);
    assert.equal(forged, 403);
    assert.equal((await ok(a.call('GET', `/v1/invoices/${first.invoice.id}`))).status, 'open');
    await ro.close();

    const { page, close } = await freshPage();
    await signIn(page, financeA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await page.goto(`${env.baseUrl}/dashboard/invoices?status=open`);
    assert.ok((await page.locator('#invoices').textContent())?.includes(first.invoice.number));
    await shot(page, 'invoices-open');
    await page.goto(`${env.baseUrl}/dashboard/invoices/${first.invoice.id}`);
    assert.equal((await page.locator('#invoice-status').textContent())?.trim(), 'open');
    await shot(page, 'invoice-failed');
    await page.click('#invoice-pay');
    await page.waitForURL(/notice=invoice_paid/);
    assert.equal((await page.locator('#invoice-status').textContent())?.trim(), 'paid');
    await shot(page, 'invoice-paid');
    assert.equal((await ok(a.call('GET', `/v1/invoices/${first.invoice.id}`))).status, 'paid');

    await page.goto(`${env.baseUrl}/dashboard/invoices/${second.invoice.id}`);
    await page.click('#invoice-void');
    await page.waitForURL(/notice=invoice_voided/);
    assert.equal((await page.locator('#invoice-status').textContent())?.trim(), 'void');
    assert.equal((await ok(a.call('GET', `/v1/invoices/${second.invoice.id}`))).status, 'void');
    // A void invoice offers nothing more.
    assert.equal(await page.locator('#invoice-actions').count(), 0);

    // The subscription page: items, the next invoice preview, the workflow link; pause through the command path.
    await page.goto(`${env.baseUrl}/dashboard/subscriptions/${first.subscription.id}`);
    assert.match((await page.locator('#workflow-link').getAttribute('href')) ?? '', /subscription%2Fsub_/);
    assert.match((await page.locator('#preview-total').textContent()) ?? '', /4\.900/);
    await shot(page, 'subscription');
    await page.click('#sub-pause');
    await page.waitForURL(/notice=subscription_changed/);
    assert.equal((await page.locator('#subscription-status').textContent())?.trim(), 'paused');
    assert.equal((await ok(a.call('GET', `/v1/subscriptions/${first.subscription.id}`))).status, 'paused');
    await page.click('#sub-resume');
    await page.waitForURL(/notice=subscription_changed/);
    assert.equal((await page.locator('#subscription-status').textContent())?.trim(), 'active');

    // Customers: search by e-mail finds the customer, with its invoices.
    await page.goto(`${env.baseUrl}/dashboard/customers?q=${encodeURIComponent(first.customer.email.toUpperCase())}`);
    await page.click(`a[href="/dashboard/customers/${first.customer.id}"]`);
    assert.ok((await page.locator('#customer-invoices').textContent())?.includes(first.invoice.number));
    await shot(page, 'customer');
    const audit = await env.db.dashboardAuditEntry.findMany({ where: { actorUserId: financeA.id, action: { in: ['invoice.pay', 'invoice.void'] } } });
    assert.deepEqual(audit.map((e) => [e.action, e.objectId, e.outcome]).sort(), [
      ['invoice.pay', first.invoice.id, 'succeeded'],
      ['invoice.void', second.invoice.id, 'succeeded'],
    ]);
    await close();
  });

  it('finance refunds part of a payment (a too-large amount is shown beside the field) and creates a portal link', async () => {
    const customer = await createCustomer(a, { name: 'Refund Test' });
    const card = await attachCard(a, customer.id, TEST_CARDS.visa);
    const payment = await ok(
      a.call('POST', '/v1/payments', { body: { amount: 5000, currency: 'ISK', customer: customer.id, payment_method: card.id, description: 'Peysa' } }),
      201,
    );
    assert.equal(payment.status, 'succeeded');
    const { page, close } = await freshPage();
    await signIn(page, financeA);
    await page.waitForURL(`${env.baseUrl}/dashboard`);
    await page.goto(`${env.baseUrl}/dashboard/payments/${payment.id}`);
    await page.fill('#f-amount', '9000');
    await page.click('#refund-button');
    await page.locator('.field-error[data-field="amount"]').waitFor();
    assert.match((await page.locator('.field-error[data-field="amount"]').textContent()) ?? '', /exceeds the 5000 left to refund/);
    await shot(page, 'payment-refund-error');
    await page.fill('#f-amount', '2000');
    await page.fill('#f-reason', 'Wrong size');
    await page.click('#refund-button');
    await page.waitForURL(/notice=refund_created/);
    const refunds = await ok(a.call('GET', `/v1/refunds?payment=${payment.id}`));
    assert.deepEqual(
      refunds.data.map((r: { amount: number }) => r.amount),
      [2000],
    );
    await eventually(async () => ((await ok(a.call('GET', `/v1/payments/${payment.id}`))).status === 'partially_refunded' ? true : undefined), 'the refund to succeed');
    await page.reload();
    assert.equal((await page.locator('#payment-status').textContent())?.trim(), 'partially refunded');
    await shot(page, 'payment-refunded');

    await page.goto(`${env.baseUrl}/dashboard/customers/${customer.id}`);
    await page.click('#create-portal-link');
    await page.locator('#portal-link').waitFor();
    const url = ((await page.locator('#portal-link').textContent()) ?? '').trim();
    assert.match(url, /^http/);
    assert.equal(await env.db.customerPortalLink.count({ where: { customerId: customer.id } }), 1);
    await close();
  });

  it('a developer adds a webhook endpoint (secret shown once) and retries a failed delivery', async () => {
    // An API + worker allowed to deliver to a loopback HTTPS receiver, with one attempt and no automatic retry.
    const h = await startHarness(env, { retryDelaysMs: [] });
    const receiver = await startReceiver((n) => (n === 1 ? 500 : 200));
    try {
      const { page, close } = await freshPage();
      await page.goto(`${h.baseUrl}/dashboard/sign-in`);
      await page.fill('#f-email', developerA.email);
      await page.fill('#f-password', TEST_PASSWORD);
      await page.click('#sign-in-button');
      await page.waitForURL(`${h.baseUrl}/dashboard`);
      await page.goto(`${h.baseUrl}/dashboard/developers/webhooks`);
      // An error from the API is shown beside its field.
      await page.fill('#f-url', 'http://example.com/hook');
      await page.check('input[name=events][value="customer.created"]');
      await page.click('#add-endpoint-form button[type=submit]');
      await page.locator('.field-error[data-field="url"]').waitFor();
      await shot(page, 'webhooks-url-error');
      await page.fill('#f-url', receiver.url('/hook'));
      await page.click('#add-endpoint-form button[type=submit]');
      await page.locator('#shown-secret').waitFor();
      const secret = ((await page.locator('#shown-secret').textContent()) ?? '').trim();
      assert.match(secret, /^whsec_/);
      await shot(page, 'webhook-endpoint-created');
      const endpoint = await env.db.webhookEndpoint.findFirstOrThrow({ where: { merchantId: a.id, url: receiver.url('/hook') } });

      await ok(h.call(a, 'POST', '/v1/customers', { body: { email: 'webhook-e2e@example.is' } }), 201);
      await receiver.waitFor(1);
      const delivery = await eventually(async () => {
        const d = await env.db.webhookDelivery.findFirst({ where: { merchantId: a.id, eventType: 'customer.created', status: 'failed' } });
        return d ?? undefined;
      }, 'the failed delivery');
      await page.goto(`${h.baseUrl}/dashboard/developers/deliveries/${delivery.id}`);
      assert.equal((await page.locator('#delivery-status').textContent())?.trim(), 'failed');
      await page.click('#retry-delivery');
      await page.waitForURL(/notice=delivery_retried/);
      await receiver.waitFor(2);
      await eventually(
        async () => ((await env.db.webhookDelivery.findUnique({ where: { id: delivery.id } }))?.status === 'succeeded' ? true : undefined),
        'the retried delivery to succeed',
      );
      await page.reload();
      assert.equal((await page.locator('#delivery-status').textContent())?.trim(), 'succeeded');
      assert.equal(await page.locator('#attempts tbody tr').count(), 2);
      await shot(page, 'delivery-retried');
      const second = receiver.requests[1]!;
      assert.ok(receiverVerifies(secret, second.headers, second.body), 'signed with the secret the page showed');
      assert.equal(second.json.type, 'customer.created');

      // The secret is not shown again; rotating shows a new one, which signs from then on.
      await page.goto(`${h.baseUrl}/dashboard/developers/webhooks/${endpoint.id}`);
      assert.equal((await page.content()).includes(secret), false);
      await page.click('#rotate-secret');
      await page.locator('#shown-secret').waitFor();
      assert.notEqual(((await page.locator('#shown-secret').textContent()) ?? '').trim(), secret);
      await page.click('#disable-endpoint');
      await page.waitForURL(/notice=endpoint_updated/);
      assert.equal((await page.locator('#endpoint-status').textContent())?.trim(), 'disabled');
      await close();
    } finally {
      await receiver.close();
      await h.close();
    }
  });

  const PAGES = [
    ['home', '/dashboard'],
    ['customers', '/dashboard/customers'],
    ['subscriptions', '/dashboard/subscriptions'],
    ['invoices', '/dashboard/invoices'],
    ['credit-notes', '/dashboard/credit-notes'],
    ['payments', '/dashboard/payments'],
    ['refunds', '/dashboard/refunds'],
    ['usage', '/dashboard/usage'],
    ['api-keys', '/dashboard/developers/api-keys'],
    ['webhooks', '/dashboard/developers/webhooks'],
    ['deliveries', '/dashboard/developers/deliveries'],
    ['events', '/dashboard/developers/events'],
    ['settings', '/dashboard/settings'],
    ['team', '/dashboard/team'],
    ['audit', '/dashboard/audit'],
    ['account', '/dashboard/account'],
  ] as const;

  it('every page renders for the owner at laptop and phone widths, under its CSP (screenshots kept)', async () => {
    for (const [label, viewport] of [
      ['laptop', LAPTOP],
      ['phone', PHONE],
    ] as const) {
      const { page, close } = await freshPage(viewport);
      await signIn(page, ownerA);
      await page.waitForURL(`${env.baseUrl}/dashboard`);
      for (const [name, url] of PAGES) {
        const res = await page.goto(`${env.baseUrl}${url}`);
        assert.equal(res?.status(), 200, `${url}: ${res?.status()}`);
        assert.equal(await page.locator('h1').count(), 1, `${url} has one heading`);
        await shot(page, `${label}-${name}`);
      }
      await close();
    }
    assert.deepEqual(browser.cspViolations, []);
    console.log(`      screenshots: ${SCREENSHOT_DIR}`);
  });
});
