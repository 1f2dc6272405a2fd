// A tour of the /v1 API, one readable call after another, as a new integrator would make them:
// catalog, a customer on a test clock with a card, subscriptions through their states, invoices,
// payments and refunds, usage, portals and webhooks. Run with RECORD_OPENAPI_EXAMPLES=1 it is what
// produces docs/openapi-examples.json (the first successful call per operation; the recorder is
// test/support/example-recorder.ts); without it, it is an ordinary test that every step works.
// Operations the tour does not reach are listed in test/api/openapi-examples.test.ts.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type ApiResponse, type TestMerchant } from '../support/api';
import { startHarness, startReceiver } from './webhooks/harness';

describe('API tour (the source of the documented examples)', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let m: TestMerchant;
  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
  });

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
});
