// A tour of the /v1 API, one readable call after another, as a new integrator would make them:
// catalog, a customer on a test clock with a card, subscriptions through their states, invoices,
// payments and refunds, usage, portals and webhooks. Run with RECORD_OPENAPI_EXAMPLES=1 it is what
// produces docs/openapi-examples.json (the first successful call per operation; the recorder is
// test/support/example-recorder.ts); without it, it is an ordinary test that every step works.
// It reaches every /v1 operation (test/unit/openapi-examples.test.ts fails on one without an
// example): with an API key, with a signed-in dashboard session (the dashboard-only settings), the
// accounting sandboxes' OAuth round trip, the documents and exports (PDF, HTML, CSV, ZIP), the CORS
// preflight and the document itself, and finally one refusal per operation and status (an unknown
// id, a body of the wrong type, a missing query) so every listed error has a real example.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, newMerchant, type ApiResponse, type CallOptions, type TestMerchant } from '../support/api';
import { newDashboardUser, signInHttp, type HttpSession } from '../support/dashboard';
import { nameAddress } from '../support/example-recorder';
import { openApiDocument } from '../../api/openapi/app-document';
import { authorizeOAuth } from './accounting/fixtures';
import { CARDS, paidPayment } from './payments/fixtures';
import { eventually } from './subscriptions/fixtures';
import { startHarness, startReceiver } from './webhooks/harness';

describe('API tour (the source of the documented examples)', function () {
  this.timeout(300_000);
  let env: TestEnv, m: TestMerchant;
  let session: HttpSession;
  before(async () => {
    [env, m] = await envAndMerchants(newMerchant);
    // The OAuth sandbox's random loopback port, as a provider's address in the examples.
    nameAddress(env.sandboxes.oauth.url, 'https://sandbox-books.example');
    session = await signInHttp(env, (await newDashboardUser(env, m.id, 'owner')).email);
  });
  /** As the signed-in dashboard user (cookie; the CSRF token on writes). */
  const dashboard = (method: string, path: string, body?: unknown) =>
    call(env, method, path, { headers: { Cookie: session.cookie, ...(method === 'GET' ? {} : { 'X-CSRF-Token': session.csrf }) }, ...(body === undefined ? {} : { body }) });

  const ok = async <T = any>(p: Promise<ApiResponse<T>>, status?: number): Promise<T> => {
    const res = await p;
    assert.ok(res.status >= 200 && res.status < 300, `${res.status} ${res.text.slice(0, 400)}`);
    if (status !== undefined) assert.equal(res.status, status, res.text.slice(0, 400));
    return res.body;
  };
  const post = <T = any>(path: string, body?: unknown) => ok<T>(m.call('POST', path, body === undefined ? {} : { body }));
  const get = <T = any>(path: string) => ok<T>(m.call('GET', path));
  const waitFor = async <T>(what: string, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 240; i++) {
      const v = await read();
      if (done(v)) return v;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it('walks every area of the API', async () => {
    // The merchant and its keys.
    await get('/v1/merchants/current');
    const key = await post('/v1/api_keys', { type: 'secret', mode: 'test', label: 'backend' });
    await get('/v1/api_keys');
    await post(`/v1/api_keys/${key.id}/rotate`);
    await ok(m.call('DELETE', `/v1/api_keys/${key.id}`), 204);
    await post('/v1/vat_settings', { country: 'IS', default_vat_rate: 'standard', prices_include_vat: true });
    await get('/v1/vat_settings');

    // The catalog: a product with a monthly price, a meter and a metered price.
    const product = await post('/v1/products', { name: 'Streymi', description: 'Streaming, monthly', metadata: { tier: 'standard' } });
    await get('/v1/products');
    await get(`/v1/products/${product.id}`);
    await ok(m.call('PATCH', `/v1/products/${product.id}`, { body: { description: 'Streaming in HD, monthly' } }));
    const price = await post('/v1/prices', { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: 4990, recurring: { interval: 'month' } });
    await get('/v1/prices');
    await get(`/v1/prices/${price.id}`);
    await ok(m.call('PATCH', `/v1/prices/${price.id}`, { body: { metadata: { plan: 'standard' } } }));
    const extra = await post('/v1/prices', { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: 990, recurring: { interval: 'month' } });
    const meter = await post('/v1/meters', { name: 'Storage', event_name: 'storage_gb', aggregate_type: 'sum', aggregate_property: 'gb', unit_label: 'GB' });
    await get('/v1/meters');
    await get(`/v1/meters/${meter.id}`);
    const metered = await post('/v1/prices', {
      product: (await post('/v1/products', { name: 'Skýjageymsla' })).id,
      type: 'recurring',
      currency: 'ISK',
      unit_amount: 15,
      recurring: { interval: 'month', usage_type: 'metered' },
      meter: meter.id,
    });

    // A customer on a test clock, with a card.
    const clock = await post('/v1/test_helpers/test_clocks', { frozen_time: '2026-01-01T12:00:00Z', name: 'Tour' });
    await get('/v1/test_helpers/test_clocks');
    await get(`/v1/test_helpers/test_clocks/${clock.id}`);
    const customer = await post('/v1/customers', {
      email: 'anna@example.is',
      name: 'Anna Jónsdóttir',
      kennitala: '1201743399',
      test_clock: clock.id,
      metadata: { crm_id: '42' },
    });
    await get('/v1/customers');
    await get(`/v1/customers/${customer.id}`);
    await ok(
      m.call('PATCH', `/v1/customers/${customer.id}`, {
        body: { phone: '+3545551234', billing_address_line1: 'Laugavegur 1', billing_city: 'Reykjavík', billing_postal_code: '101', billing_country: 'IS' },
      }),
    );
    const card = await post(`/v1/test_helpers/customers/${customer.id}/payment_methods`, { card_number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' });
    const second = await post(`/v1/test_helpers/customers/${customer.id}/payment_methods`, { card_number: '5555555555554444', exp_month: 6, exp_year: 2031, cvc: '321' });
    await get(`/v1/payment_methods?customer=${customer.id}`);
    await get(`/v1/payment_methods/${card.id}`);
    await post(`/v1/payment_methods/${second.id}/set_default`);
    await post(`/v1/payment_methods/${card.id}/set_default`);
    await ok(m.call('DELETE', `/v1/payment_methods/${second.id}`));
    const other = await post('/v1/customers', { email: 'jon@example.is', name: 'Jón Sigurðsson' });
    await post(`/v1/test_helpers/test_clocks/${clock.id}/customers`, { customer: other.id });

    // A subscription, its items and its states.
    const sub = await post('/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }], metadata: { order: 'A-1001' } });
    await get('/v1/subscriptions');
    await get(`/v1/subscriptions/${sub.id}`);
    await post(`/v1/subscriptions/${sub.id}`, { metadata: { order: 'A-1001', channel: 'web' } });
    const item = await post('/v1/subscription_items', { subscription: sub.id, price: extra.id, quantity: 2 });
    await get(`/v1/subscription_items/${item.id}`);
    await post(`/v1/subscription_items/${item.id}`, { quantity: 3 });
    await ok(m.call('DELETE', `/v1/subscription_items/${item.id}`));
    const meteredItem = await post('/v1/subscription_items', { subscription: sub.id, price: metered.id });
    assert.ok(meteredItem.id);
    await post(`/v1/subscriptions/${sub.id}/pause`);
    await post(`/v1/subscriptions/${sub.id}/resume`);
    await post(`/v1/subscriptions/${sub.id}/cancel`, { at_period_end: true });
    await post(`/v1/subscriptions/${sub.id}/uncancel`);

    // Usage for the metered item.
    await post('/v1/events', { event_name: 'storage_gb', customer: customer.id, timestamp: '2026-01-01T12:00:00Z', idempotency_key: 'tour-1', value: 12, metadata: { gb: 12 } });
    await post('/v1/events/batch', {
      events: [
        { event_name: 'storage_gb', customer: customer.id, timestamp: '2026-01-01T12:00:00Z', idempotency_key: 'tour-2', metadata: { gb: 3 } },
        { event_name: 'storage_gb', customer: customer.id, timestamp: '2026-01-01T12:00:00Z', idempotency_key: 'tour-3', metadata: { gb: 5 } },
      ],
    });
    await get(`/v1/events?customer=${customer.id}`);
    await get(`/v1/meters/${meter.id}/quantities?customer=${customer.id}&period_start=2026-01-01T00:00:00Z&period_end=2026-02-01T00:00:00Z`);

    // A pending invoice item, then a month later: the renewal invoice.
    const invoiceItem = await post('/v1/invoice_items', { customer: customer.id, amount: 1500, currency: 'ISK', description: 'Setup fee', subscription: sub.id });
    await get(`/v1/invoice_items?customer=${customer.id}`);
    await get(`/v1/invoice_items/${invoiceItem.id}`);
    await post(`/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: '2026-02-01T13:00:00Z' });
    await waitFor(
      'the clock',
      () => get(`/v1/test_helpers/test_clocks/${clock.id}`),
      (c: any) => c.status === 'ready',
    );
    const invoices = await waitFor(
      'the renewal invoice',
      () => get(`/v1/invoices?subscription=${sub.id}`),
      (l: any) => l.data.length >= 2,
    );
    await get(`/v1/invoices/${invoices.data[0].id}`);

    // Invoices paid by bank claim, paid on request and voided.
    const claimCustomer = await post('/v1/customers', { email: 'gudrun@example.is', name: 'Guðrún Helgadóttir', kennitala: '0101302989' });
    const claimSub = await post('/v1/subscriptions', { customer: claimCustomer.id, collection_method: 'send_invoice', days_until_due: 14, items: [{ price: price.id }] });
    const claimInvoice = await waitFor(
      'the claim invoice',
      () => get(`/v1/invoices?subscription=${claimSub.id}`),
      (l: any) => l.data.some((i: any) => i.status === 'open'),
    );
    // The claim is issued to the bank right after the invoice is finalized (a workflow activity).
    await waitFor(
      'the issued claim to be paid',
      () => m.call('POST', `/v1/test_helpers/invoices/${claimInvoice.data[0].id}/pay_bank_claim`, { body: {} }),
      (r) => r.status !== 409,
    ).then((r) => assert.equal(r.status, 200, r.text));
    const toPay = await post('/v1/subscriptions', { customer: claimCustomer.id, collection_method: 'send_invoice', days_until_due: 14, items: [{ price: extra.id }] });
    const payable = await waitFor(
      'an open invoice',
      () => get(`/v1/invoices?subscription=${toPay.id}`),
      (l: any) => l.data.some((i: any) => i.status === 'open'),
    );
    await post(`/v1/test_helpers/customers/${claimCustomer.id}/payment_methods`, { card_number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' });
    await post(`/v1/invoices/${payable.data[0].id}/pay`);
    const toVoid = await post('/v1/subscriptions', { customer: claimCustomer.id, collection_method: 'send_invoice', days_until_due: 14, items: [{ price: price.id }] });
    const voidable = await waitFor(
      'an open invoice',
      () => get(`/v1/invoices?subscription=${toVoid.id}`),
      (l: any) => l.data.some((i: any) => i.status === 'open'),
    );
    await post(`/v1/invoices/${voidable.data[0].id}/void`);

    // One-off payments, a refund and its credit note.
    const payment = await post('/v1/payments', {
      amount: 12900,
      currency: 'ISK',
      description: 'Annual pass',
      customer: customer.id,
      payment_method: card.id,
      confirm: true,
      metadata: { order: 'B-7' },
    });
    await get('/v1/payments');
    await get(`/v1/payments/${payment.id}`);
    const unconfirmed = await post('/v1/payments', { amount: 2500, currency: 'ISK', customer: customer.id });
    await post(`/v1/payments/${unconfirmed.id}/confirm`, { payment_method: card.id });
    const canceled = await post('/v1/payments', { amount: 990, currency: 'ISK', customer: customer.id });
    await post(`/v1/payments/${canceled.id}/cancel`);
    const refund = await post('/v1/refunds', { payment: payment.id, amount: 2900, reason: 'requested_by_customer' });
    await get('/v1/refunds');
    await get(`/v1/refunds/${refund.id}`);
    // A refund of an invoice's payment issues a credit note against the invoice.
    const paidInvoice = await get(`/v1/invoices/${invoices.data[0].id}`);
    assert.ok(paidInvoice.payment, 'the renewal invoice was paid by card');
    await post('/v1/refunds', { payment: paidInvoice.payment, amount: 1000, reason: 'order_change' });
    const notes = await waitFor(
      'the credit note',
      () => get('/v1/credit_notes'),
      (l: any) => l.data.length > 0,
    );
    await get(`/v1/credit_notes/${notes.data[0].id}`);
    await get('/v1/ledger_entries');
    await get('/v1/trial_balance');

    // The documents (HTML and PDF) and the accountant's exports (CSV, a ZIP of invoice PDFs).
    const text = async (path: string, type: string) => {
      const res = await m.call('GET', path);
      assert.equal(res.status, 200, res.text.slice(0, 400));
      assert.equal((res.headers.get('content-type') ?? '').split(';')[0], type);
      return res;
    };
    await text(`/v1/invoices/${paidInvoice.id}/html`, 'text/html');
    assert.match((await text(`/v1/invoices/${paidInvoice.id}/pdf?locale=is`, 'application/pdf')).text, /^%PDF-/);
    await text(`/v1/credit_notes/${notes.data[0].id}/html`, 'text/html');
    assert.match((await text(`/v1/credit_notes/${notes.data[0].id}/pdf`, 'application/pdf')).text, /^%PDF-/);
    const period = 'from=2026-01-01&to=2026-12-31';
    for (const kind of ['invoices', 'payments', 'refunds', 'credit_notes', 'ledger_entries', 'trial_balance']) {
      const csv = await text(`/v1/exports/${kind}.csv?${period}`, 'text/csv');
      assert.ok(csv.text.split('\r\n').length > 2, `${kind}: a header and rows`);
    }
    assert.match((await text(`/v1/exports/invoice_documents.zip?${period}&locale=en`, 'application/zip')).text, /^PK/);

    // Checkout and the customer portal.
    const session = await post('/v1/payment_sessions', {
      amount: 4990,
      currency: 'ISK',
      description: 'Streymi',
      customer: customer.id,
      return_url: 'https://shop.example.is/thanks',
      cancel_url: 'https://shop.example.is/cart',
    });
    await get(`/v1/payment_sessions/${session.id}`);
    const portal = await post('/v1/customer_portals', { customer: customer.id, expires_in: 3600 });
    await get('/v1/customer_portals');
    await get(`/v1/customer_portals/${portal.id}`);
    await ok(m.call('DELETE', `/v1/customer_portals/${portal.id}`));

    // Webhooks.
    const endpoint = await post('/v1/webhook_endpoints', {
      url: 'https://hooks.example.com/billing',
      events: ['invoice.paid', 'invoice.payment_failed'],
      description: 'Accounting system',
    });
    await get('/v1/webhook_endpoints');
    await get(`/v1/webhook_endpoints/${endpoint.id}`);
    await ok(m.call('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, { body: { events: ['invoice.paid'] } }));
    await post(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { expires_in: 3600 });
    const events = await get('/v1/webhook_events?type=invoice.paid');
    await get(`/v1/webhook_events/${events.data[0].id}`);
    await get('/v1/test_helpers/event_feed?wait=0');
    await ok(m.call('DELETE', `/v1/webhook_endpoints/${endpoint.id}`));

    // The subscription ends; the clock is removed.
    await post(`/v1/subscriptions/${sub.id}/cancel`);
    await ok(m.call('DELETE', `/v1/meters/${meter.id}`));
    await ok(m.call('DELETE', `/v1/test_helpers/test_clocks/${clock.id}`));
  });

  it('webhook deliveries: a real event delivered to a receiving endpoint, listed, read and retried', async () => {
    // Registered endpoints must be public HTTPS; the webhook harness composes an app and worker
    // whose test-only options accept a loopback HTTPS receiver (docs/webhooks.md "Test-only settings").
    const h = await startHarness(env, { retryDelaysMs: [], attemptTimeoutMs: 5000 });
    const receiver = await startReceiver();
    try {
      const as = (method: string, path: string, body?: unknown) => ok(h.call(m, method, path, body === undefined ? {} : { body }));
      const endpoint = await as('POST', '/v1/webhook_endpoints', { url: receiver.url(), events: ['customer.created'] });
      const customer = await as('POST', '/v1/customers', { email: 'olafur@example.is', name: 'Ólafur Ragnarsson' });
      const list = await waitFor(
        'the delivery',
        () => as('GET', `/v1/webhook_deliveries?endpoint=${endpoint.id}`),
        (l: any) => l.data.some((d: any) => d.status === 'succeeded'),
      );
      const delivery = list.data[0];
      assert.equal((await as('GET', `/v1/webhook_events/${delivery.event}`)).data.id, customer.id);
      await as('GET', `/v1/webhook_deliveries/${delivery.id}`);
      await as('POST', `/v1/webhook_deliveries/${delivery.id}/retry`);
    } finally {
      await receiver.close();
      await h.close();
    }
  });

  it('the dashboard-only settings, with a signed-in dashboard session', async () => {
    const okd = (p: Promise<ApiResponse>) => ok(p);
    await okd(dashboard('GET', '/v1/allowed_origins'));
    await okd(dashboard('PUT', '/v1/allowed_origins', { origins: ['https://shop.example.is'] }));
    await okd(dashboard('GET', '/v1/redirect_domains'));
    await okd(dashboard('PUT', '/v1/redirect_domains', { domains: ['shop.example.is', 'pay.example.com'] }));
    await okd(dashboard('GET', '/v1/bank_invoice_settings'));
    // Service-wide in this version: the change is always refused (409 invalid_state), which is its example.
    const refused = await dashboard('PUT', '/v1/bank_invoice_settings', { claim_expiry_days: 60 });
    assert.deepEqual([refused.status, refused.body.error.code], [409, 'invalid_state'], refused.text);
    await okd(dashboard('PATCH', '/v1/merchants/current', { name: 'Streymi ehf.', default_currency: 'ISK' }));
    await okd(dashboard('POST', '/v1/merchants/current/go_live'));
  });

  it('the accounting link: providers, the OAuth round trip, settings, the sync log and a re-sync, the form provider, disconnect', async () => {
    const a = await newMerchant(env);
    await ok(a.call('GET', '/v1/accounting_link/providers'));
    const connect = await ok(a.call('POST', '/v1/accounting_link/connect', { body: { provider: 'sandbox_oauth', mode: 'test' } }));
    // The user allows access on the provider's page; the provider redirects the browser back.
    const { callback } = await authorizeOAuth(connect.redirect_url);
    const link = await ok(call(env, 'GET', new URL(callback).pathname + new URL(callback).search));
    assert.equal(link.status, 'active');
    await ok(a.call('GET', '/v1/accounting_link'));
    // The provider refuses one request: the API answers 502 accounting_provider_error.
    env.sandboxes.oauth.injectFaults({ status: 422, count: 1 });
    const refused = await a.call('GET', '/v1/accounting_link/chart_of_accounts');
    assert.deepEqual([refused.status, refused.body.error?.code], [502, 'accounting_provider_error'], refused.text);
    await ok(a.call('GET', '/v1/accounting_link/chart_of_accounts'));
    await ok(a.call('GET', '/v1/accounting_link/vat_codes'));
    // No VAT code for the standard rate yet: the invoice fails to sync until it is mapped, then re-syncs.
    await ok(a.call('POST', '/v1/accounting_link/settings', { body: { default_gl_account: '3000', vat_code_mapping: { exempt: 'EXEMPTOUTPUT' } } }));
    await paidPayment(a, 12_400);
    const failed = await eventually(
      async () => {
        const l = await ok(a.call('GET', '/v1/accounting_link/sync_records?limit=10'));
        return l.data.find((r: any) => r.kind === 'invoice_finalized' && r.status === 'failed');
      },
      'the failed invoice record',
      600,
      100,
    );
    await ok(a.call('POST', '/v1/accounting_link/settings', { body: { vat_code_mapping: { standard: 'OUTPUT24', reduced: 'OUTPUT11', exempt: 'EXEMPTOUTPUT' } } }));
    assert.equal((await ok(a.call('POST', `/v1/accounting_link/sync_records/${failed.id}/resync`))).status, 'pending');
    // A provider with an API token instead of OAuth: complete replaces the OAuth link.
    const company = env.sandboxes.form.createCompany('Streymi ehf.');
    await ok(a.call('POST', '/v1/accounting_link/complete', { body: { provider: 'sandbox_form', credentials: { api_token: company.apiToken, company_id: company.id } } }), 201);
    await ok(a.call('DELETE', '/v1/accounting_link'), 204);
    // Live mode names real providers; without their credentials configured the service answers 503.
    const live = await newMerchant(env, { live: true });
    const unconfigured = [
      await live.call('POST', '/v1/accounting_link/connect', { key: live.liveSecretKey!, body: { provider: 'xero' } }),
      await live.call('POST', '/v1/accounting_link/complete', {
        key: live.liveSecretKey!,
        body: { provider: 'dk', credentials: { api_token: 'dk-token', company_id: 'dk-company' } },
      }),
    ];
    assert.deepEqual(
      unconfigured.map((r) => [r.status, r.body.error?.code]),
      [
        [503, 'adapter_not_configured'],
        [503, 'adapter_not_configured'],
      ],
    );
  });

  it('the CORS preflight and the document itself', async () => {
    const pre = await call(env, 'OPTIONS', '/v1/payment_sessions', { headers: { Origin: 'https://shop.example.is', 'Access-Control-Request-Method': 'POST' } });
    assert.equal(pre.status, 204, pre.text);
    assert.equal(pre.headers.get('access-control-allow-origin'), 'https://shop.example.is');
    const doc = await ok(call(env, 'GET', '/v1/openapi.json'));
    assert.equal(doc.openapi, '3.1.0');
  });

  it('refusals: an error answer per operation and status, all in the envelope the document lists', async () => {
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, any>> };
    const mismatches: string[] = [];
    const refusals: string[] = [];
    const attempt = async (method: string, path: string, opts: CallOptions, how: 'key' | 'dashboard' | 'none') => {
      try {
        const res =
          how === 'key'
            ? await m.call(method, path, opts)
            : await call(env, method, path, { ...opts, ...(how === 'dashboard' ? { headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf, ...opts.headers } } : {}) });
        if (res.status >= 400) {
          assert.ok(res.body?.error?.code, `${method} ${path}: ${res.status} not in the envelope`);
          refusals.push(`${method} ${path} ${res.status}`);
        }
      } catch (err) {
        mismatches.push((err as Error).message.split('\n')[0]!);
      }
    };
    /** A value of the wrong type for a property of this schema (a string for a number, a number for a string). */
    const wrongBody = (schema: any): Record<string, unknown> | undefined => {
      const props = Object.entries<any>(schema?.properties ?? {}).filter(([, p]) => p.type !== undefined);
      const [name, prop] = props.find(([n]) => (schema.required ?? []).includes(n)) ?? props[0] ?? [];
      if (!name) return undefined;
      const types = [prop.type].flat();
      return { [name]: types.includes('string') ? 12345 : 'not-a-number' };
    };
    for (const [template, item] of Object.entries(doc.paths)) {
      if (!template.startsWith('/v1/')) continue;
      for (const [lower, op] of Object.entries(item)) {
        const method = lower.toUpperCase();
        const how = op.security.length === 0 ? 'none' : op.security[0].dashboardSession ? 'dashboard' : 'key';
        const schema = op.requestBody?.content?.['application/json']?.schema;
        const hasBody = !['GET', 'DELETE', 'OPTIONS'].includes(method);
        const unknown = template.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'provider' ? 'nobody' : 'xx_0000000000000000000000'));
        // An unknown id: 404.
        if (template.includes('{')) await attempt(method, unknown, hasBody ? { body: {} } : {}, how);
        // A body of the wrong type: 400 validation_failed naming the field.
        const wrong = schema && wrongBody(schema);
        if (wrong) await attempt(method, unknown, { body: wrong }, how);
        // A required query parameter left out: 400.
        const required = (op.parameters ?? []).some((p: any) => p.in === 'query' && p.required);
        if (required && !template.includes('{')) await attempt(method, template, {}, how);
      }
    }
    // The refusals every keyed operation shares: no key, a publishable key, a body too large or not JSON.
    await attempt('GET', '/v1/customers', { key: null }, 'key');
    await attempt('GET', '/v1/customers', { key: m.publishableKey }, 'key');
    await attempt('POST', '/v1/customers', { rawBody: JSON.stringify({ name: 'x'.repeat(2_000_000) }), headers: { 'Content-Type': 'application/json' } }, 'key');
    await attempt('POST', '/v1/customers', { rawBody: 'name=Anna', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }, 'key');
    // A declined card (402) and an action the object's state does not allow (409).
    const buyer = await ok(m.call('POST', '/v1/customers', { body: { email: 'declined@example.is' } }));
    await attempt(
      'POST',
      `/v1/test_helpers/customers/${buyer.id}/payment_methods`,
      { body: { card_number: CARDS.insufficientFunds, exp_month: 12, exp_year: 2030, cvc: '123' } },
      'key',
    );
    const { payment } = await paidPayment(m, 990);
    await attempt('POST', `/v1/payments/${payment.id}/cancel`, {}, 'key');
    // Without the CSRF token a dashboard write is refused (403).
    await attempt('PUT', '/v1/allowed_origins', { body: { origins: [] }, headers: { 'X-CSRF-Token': 'forged' } }, 'dashboard');
    assert.deepEqual(mismatches, [], 'answers off the document');
    assert.ok(refusals.length >= 100, `only ${refusals.length} refusals`);
  });

  it('too many failed authentications from one address: 429 (an instance with a budget of one)', async () => {
    const baseUrl = await env.startApp({ authFailureLimit: 1, authFailureWindowSeconds: 60 });
    const first = await call(env, 'GET', '/v1/customers', { baseUrl, key: `sk_test_${'A'.repeat(32)}`, merchant: m.id });
    assert.equal(first.status, 401, first.text);
    const blocked = await call(env, 'GET', '/v1/customers', { baseUrl, key: `sk_test_${'B'.repeat(32)}`, merchant: m.id });
    assert.deepEqual([blocked.status, blocked.body.error.code], [429, 'rate_limited'], blocked.text);
  });
});
