// A merchant backend in TypeScript, as the README shows it: openapi-fetch with the types that
// openapi-typescript generated from the OpenAPI document (clients/typescript/schema.d.ts), against
// a running app. Customer → card → product → price → subscription → its first invoice, paid. Every
// response also goes through the contract check (test/support/openapi-contract.ts).
import assert from 'node:assert/strict';
import createClient from 'openapi-fetch';
import type { paths } from '../../clients/typescript/schema';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, uniqueName } from '../support/api';
import { assertMatchesContract } from '../support/openapi-contract';

describe('typed TypeScript client (openapi-fetch over the generated types)', () => {
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('creates a customer, product, price and subscription, and reads its paid invoice', async () => {
    const m = await newMerchant(env);
    const client = createClient<paths>({
      baseUrl: env.baseUrl,
      headers: { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': m.id },
      // The same contract check as the shared API helper: a response off the document fails here.
      fetch: async (request: Request) => {
        const res = await fetch(request);
        const text = await res.clone().text();
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        assertMatchesContract(request.method, request.url, { status: res.status, headers: res.headers, body, text });
        return res;
      },
    });

    const customer = await client.POST('/v1/customers', { body: { email: `${uniqueName('typed')}@example.is`, name: 'Typed Client ehf.' } });
    assert.equal(customer.response.status, 201, JSON.stringify(customer.error));
    const customerId = customer.data!.id;

    const card = await client.POST('/v1/test_helpers/customers/{id}/payment_methods', {
      params: { path: { id: customerId } },
      body: { card_number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' },
    });
    assert.equal(card.response.status, 201, JSON.stringify(card.error));
    assert.equal(card.data!.is_default, true);

    const product = await client.POST('/v1/products', { body: { name: 'Typed plan' } });
    assert.equal(product.response.status, 201, JSON.stringify(product.error));
    const price = await client.POST('/v1/prices', {
      body: { product: product.data!.id, type: 'recurring', currency: 'ISK', unit_amount: 4900, recurring: { interval: 'month' } },
    });
    assert.equal(price.response.status, 201, JSON.stringify(price.error));
    assert.equal(price.data!.recurring?.interval, 'month');

    const key = uniqueName('typed-sub');
    const sub = await client.POST('/v1/subscriptions', {
      params: { header: { 'Idempotency-Key': key } },
      body: { customer: customerId, items: [{ price: price.data!.id, quantity: 2 }] },
    });
    assert.equal(sub.response.status, 201, JSON.stringify(sub.error));
    assert.equal(sub.data!.customer, customerId);
    assert.equal(sub.data!.items[0]!.quantity, 2);

    // A retry with the same Idempotency-Key answers the same subscription.
    const again = await client.POST('/v1/subscriptions', {
      params: { header: { 'Idempotency-Key': key } },
      body: { customer: customerId, items: [{ price: price.data!.id, quantity: 2 }] },
    });
    assert.equal(again.data!.id, sub.data!.id);
    assert.equal(again.response.headers.get('Idempotent-Replayed'), 'true');

    const read = await client.GET('/v1/subscriptions/{id}', { params: { path: { id: sub.data!.id } } });
    assert.equal(read.data!.status, 'active');

    // Its first invoice (created and charged as the subscription starts), through a typed list call.
    let invoices: NonNullable<Awaited<ReturnType<typeof listInvoices>>['data']>['data'] = [];
    const listInvoices = () => client.GET('/v1/invoices', { params: { query: { subscription: sub.data!.id, limit: 10 } } });
    for (let i = 0; i < 60 && !invoices.some((inv) => inv.status === 'paid'); i++) {
      invoices = (await listInvoices()).data!.data;
      if (!invoices.some((inv) => inv.status === 'paid')) await new Promise((r) => setTimeout(r, 250));
    }
    const paid = invoices.find((inv) => inv.status === 'paid');
    assert.ok(paid, `no paid invoice: ${JSON.stringify(invoices.map((inv) => inv.status))}`);
    assert.equal(paid.subtotal, 9800, 'two of the 4900 ISK price');
    assert.equal(paid.amount_paid, paid.total);

    // An error comes back typed as the envelope.
    const missing = await client.GET('/v1/customers/{id}', { params: { path: { id: 'cus_missing' } } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.error?.error.code, 'resource_missing');
  });
});
