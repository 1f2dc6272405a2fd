import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, type TestMerchant, liveMerchant, type LiveMerchant } from '../../support/api';
import { newId } from '../../../src/ids';
import { CARDS, attachCard, createCustomer, paidPayment, simulator, unique } from './fixtures';

describe('payments', () => {
  let env: TestEnv, m: LiveMerchant, other: TestMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(liveMerchant, newMerchant)));

  it('creates a payment without a payment method: requires_payment_method, with an open numbered invoice', async () => {
    const customer = await createCustomer(m);
    const res = await m.call('POST', '/v1/payments', {
      body: { amount: 1990, currency: 'ISK', description: 'Ársáskrift', customer: customer.id, external_reference: 'order-1', metadata: { order: 'A-1' } },
    });
    assert.equal(res.status, 201, res.text);
    const p = res.body;
    assert.match(p.id, /^pay_/);
    assert.deepEqual(
      [p.object, p.status, p.amount, p.amount_refunded, p.currency, p.customer, p.description, p.payment_method, p.external_reference, p.failure_code],
      ['payment', 'requires_payment_method', 1990, 0, 'ISK', customer.id, 'Ársáskrift', null, 'order-1', null],
    );
    assert.deepEqual(p.metadata, { order: 'A-1' });
    assert.match(p.invoice, /^inv_/);
    const inv = (await m.call('GET', `/v1/invoices/${p.invoice}`)).body;
    assert.deepEqual(
      [inv.status, inv.payment, inv.customer, inv.subscription, inv.amount_due, inv.amount_paid, inv.total, inv.currency, inv.billing_reason],
      ['open', p.id, customer.id, null, 1990, 0, 1990, 'ISK', 'payment'],
    );
    assert.match(inv.number, /^INV-\d{6}$/);
    assert.equal(inv.lines.length, 1);
    assert.deepEqual([inv.lines[0].description, inv.lines[0].amount, inv.lines[0].quantity], ['Ársáskrift', 1990, 1]);
    assert.deepEqual((await m.call('GET', `/v1/payments/${p.id}`)).body, p);
  });

  it("defaults the currency to the merchant's and needs no customer; currency in any case", async () => {
    const eur = await newMerchant(env, { currency: 'EUR' });
    const res = await eur.call('POST', '/v1/payments', { body: { amount: 500 } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.currency, res.body.customer, res.body.description], ['EUR', null, null]);
    const lower = await m.call('POST', '/v1/payments', { body: { amount: 500, currency: 'usd' } });
    assert.equal(lower.body.currency, 'USD');
    const inv = (await eur.call('GET', `/v1/invoices/${res.body.invoice}`)).body;
    assert.equal(inv.lines[0].description, `Payment ${res.body.id}`);
  });

  it('charges a saved payment method at once (confirm defaults to true): succeeded, invoice paid, events recorded', async () => {
    const { customer, pm, payment } = await paidPayment(m, 4900);
    assert.deepEqual([payment.status, payment.payment_method, payment.customer, payment.amount], ['succeeded', pm.id, customer.id, 4900]);
    assert.ok(payment.succeeded_at);
    const inv = (await m.call('GET', `/v1/invoices/${payment.invoice}`)).body;
    assert.deepEqual([inv.status, inv.amount_paid, inv.amount_remaining], ['paid', 4900, 0]);
    assert.ok(inv.paid_at);
    const types = (await env.db.event.findMany({ where: { merchantId: m.id, mode: 'test' }, orderBy: { createdAt: 'asc' } }))
      .filter((e) => JSON.stringify(e.data).includes(payment.id))
      .map((e) => e.type);
    assert.deepEqual(types, ['invoice.finalized', 'payment.succeeded', 'invoice.paid']);
    const evt = await env.db.event.findFirst({ where: { merchantId: m.id, type: 'payment.succeeded', data: { path: ['id'], equals: payment.id } } });
    assert.deepEqual(evt!.data, payment);
    // Dispatched after commit, before the response was sent.
    assert.ok(evt!.dispatchedAt);
  });

  it("the customer may be omitted with a payment method: the method's customer is used", async () => {
    const customer = await createCustomer(m);
    const pm = await attachCard(m, customer.id);
    const res = await m.call('POST', '/v1/payments', { body: { amount: 100, payment_method: pm.id } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.status, res.body.customer], ['succeeded', customer.id]);
  });

  it('a declined charge is a failed payment (201), not an error; payment.failed and invoice.payment_failed; it can be retried', async () => {
    const customer = await createCustomer(m);
    const bad = await attachCard(m, customer.id, CARDS.declinesLater);
    const res = await m.call('POST', '/v1/payments', { body: { amount: 2500, customer: customer.id, payment_method: bad.id } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.status, res.body.failure_code], ['failed', 'card_declined']);
    assert.equal(typeof res.body.failure_message, 'string');
    const inv = (await m.call('GET', `/v1/invoices/${res.body.invoice}`)).body;
    assert.equal(inv.status, 'open');
    const failed = await env.db.event.findMany({ where: { merchantId: m.id, type: { in: ['payment.failed', 'invoice.payment_failed'] } } });
    assert.ok(failed.some((e) => e.type === 'payment.failed' && (e.data as any).id === res.body.id));
    assert.ok(failed.some((e) => e.type === 'invoice.payment_failed' && (e.data as any).id === inv.id));
    // Retry with another card: attempt 2, a new acquirer key.
    const good = await attachCard(m, customer.id);
    const retried = await m.call('POST', `/v1/payments/${res.body.id}/confirm`, { body: { payment_method: good.id } });
    assert.equal(retried.status, 200, retried.text);
    assert.deepEqual([retried.body.status, retried.body.payment_method, retried.body.failure_code], ['succeeded', good.id, null]);
    const keys = (await simulator(env).listCharges(m.id))
      .filter((c) => c.idempotencyKey.startsWith(res.body.id))
      .map((c) => c.idempotencyKey)
      .sort();
    assert.deepEqual(keys, [`${res.body.id}:attempt:1`, `${res.body.id}:attempt:2`]);
    expectError(await m.call('POST', `/v1/payments/${res.body.id}/confirm`, { body: { payment_method: good.id } }), 409, 'invalid_state', 'payment');
  });

  it('confirm: false keeps the payment waiting; confirm later uses the remembered method', async () => {
    const customer = await createCustomer(m);
    const pm = await attachCard(m, customer.id);
    const res = await m.call('POST', '/v1/payments', { body: { amount: 700, customer: customer.id, payment_method: pm.id, confirm: false } });
    assert.deepEqual([res.status, res.body.status, res.body.payment_method], [201, 'requires_payment_method', pm.id]);
    const confirmed = await m.call('POST', `/v1/payments/${res.body.id}/confirm`);
    assert.deepEqual([confirmed.status, confirmed.body.status], [200, 'succeeded']);
    const none = (await m.call('POST', '/v1/payments', { body: { amount: 700 } })).body;
    expectError(await m.call('POST', `/v1/payments/${none.id}/confirm`), 400, 'validation_failed', 'payment_method');
    expectError(await m.call('POST', '/v1/payments', { body: { amount: 700, confirm: true } }), 400, 'validation_failed', 'confirm');
  });

  it('a transient acquirer timeout is 503 and rolls back; the retry with the same key charges once', async () => {
    const customer = await createCustomer(m);
    const pm = await attachCard(m, customer.id, CARDS.transient);
    const key = unique('idem');
    const first = await m.call('POST', '/v1/payments', { idempotencyKey: key, body: { amount: 300, customer: customer.id, payment_method: pm.id } });
    expectError(first, 503, 'service_unavailable');
    const second = await m.call('POST', '/v1/payments', { idempotencyKey: key, body: { amount: 300, customer: customer.id, payment_method: pm.id } });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.status, 'succeeded');
    assert.equal(await env.db.payment.count({ where: { merchantId: m.id, customerId: customer.id } }), 1);
    const charges = (await simulator(env).listCharges(m.id)).filter((c) => c.idempotencyKey.startsWith(second.body.id));
    assert.deepEqual(
      charges.map((c) => [c.idempotencyKey, c.status]),
      [[`${second.body.id}:attempt:1`, 'succeeded']],
    );
  });

  it('the same Idempotency-Key makes one payment and one charge, also when sent concurrently', async () => {
    const customer = await createCustomer(m);
    const pm = await attachCard(m, customer.id);
    const key = unique('idem');
    const body = { amount: 1234, customer: customer.id, payment_method: pm.id };
    const responses = await Promise.all([1, 2, 3].map(() => m.call('POST', '/v1/payments', { idempotencyKey: key, body })));
    for (const r of responses) assert.equal(r.status, 201, r.text);
    assert.equal(new Set(responses.map((r) => r.body.id)).size, 1);
    const later = await m.call('POST', '/v1/payments', { idempotencyKey: key, body: { ...body, amount: 1 } });
    assert.equal(later.body.id, responses[0]!.body.id);
    assert.equal(later.headers.get('idempotent-replayed'), 'true');
    assert.equal(await env.db.payment.count({ where: { merchantId: m.id, customerId: customer.id } }), 1);
    const charges = (await simulator(env).listCharges(m.id)).filter((c) => c.idempotencyKey.startsWith(responses[0]!.body.id));
    assert.equal(charges.length, 1);
    assert.equal(charges[0]!.amount, 1234);
  });

  describe('bad input', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing amount', {}, 'amount'],
      ['amount as a string', { amount: '100' }, 'amount'],
      ['amount zero', { amount: 0 }, 'amount'],
      ['negative amount', { amount: -5 }, 'amount'],
      ['fractional amount', { amount: 10.5 }, 'amount'],
      ['amount beyond safe integers', { amount: 2 ** 60 }, 'amount'],
      ['unsupported currency', { amount: 100, currency: 'XYZ' }, 'currency'],
      ['currency of the wrong type', { amount: 100, currency: 352 }, 'currency'],
      ['oversized description', { amount: 100, description: 'x'.repeat(1001) }, 'description'],
      ['description with NUL', { amount: 100, description: 'a\u0000b' }, 'description'],
      ['description of the wrong type', { amount: 100, description: 5 }, 'description'],
      ['customer of the wrong type', { amount: 100, customer: 5 }, 'customer'],
      ['customer that is not an id', { amount: 100, customer: 'cus x' }, 'customer'],
      ['payment_method of the wrong type', { amount: 100, payment_method: ['pm_1'] }, 'payment_method'],
      ['confirm as a string', { amount: 100, confirm: 'yes' }, 'confirm'],
      ['oversized external_reference', { amount: 100, external_reference: 'r'.repeat(256) }, 'external_reference'],
      ['metadata not an object', { amount: 100, metadata: 'x' }, 'metadata'],
      ['metadata with a number value', { amount: 100, metadata: { a: 1 } }, 'metadata.a'],
      ['metadata with an oversized value', { amount: 100, metadata: { a: 'v'.repeat(501) } }, 'metadata.a'],
    ];
    for (const [name, body, param] of cases) {
      it(`refuses ${name}`, async () => {
        expectError(await m.call('POST', '/v1/payments', { body }), 400, 'validation_failed', param);
      });
    }

    it('ignores unknown fields and refuses a body that is not an object', async () => {
      const res = await m.call('POST', '/v1/payments', { body: { amount: 100, status: 'succeeded', amount_refunded: 100, surprise: true } });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual([res.body.status, res.body.amount_refunded, res.body.surprise], ['requires_payment_method', 0, undefined]);
      expectError(await m.call('POST', '/v1/payments', { body: [1, 2] }), 400, 'validation_failed');
      expectError(await m.call('POST', '/v1/payments', { rawBody: '{"amount":', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_json');
    });
  });

  describe('unknown, foreign and other-mode ids', () => {
    it('a customer or payment method of another merchant is resource_not_found, like an unknown one', async () => {
      const theirs = await createCustomer(other);
      const theirPm = await attachCard(other, theirs.id);
      expectError(await m.call('POST', '/v1/payments', { body: { amount: 100, customer: theirs.id } }), 404, 'resource_not_found', 'customer');
      expectError(await m.call('POST', '/v1/payments', { body: { amount: 100, customer: newId('customer') } }), 404, 'resource_not_found', 'customer');
      expectError(await m.call('POST', '/v1/payments', { body: { amount: 100, payment_method: theirPm.id } }), 404, 'resource_not_found', 'payment_method');
      expectError(await m.call('POST', '/v1/payments', { body: { amount: 100, payment_method: newId('paymentMethod') } }), 404, 'resource_not_found', 'payment_method');
    });

    it('a payment method of another customer of the same merchant is resource_not_found', async () => {
      const a = await createCustomer(m);
      const b = await createCustomer(m);
      const pmB = await attachCard(m, b.id);
      expectError(await m.call('POST', '/v1/payments', { body: { amount: 100, customer: a.id, payment_method: pmB.id } }), 404, 'resource_not_found', 'payment_method');
    });

    it('payments of another merchant or of live mode are resource_missing', async () => {
      const mine = (await m.call('POST', '/v1/payments', { body: { amount: 100 } })).body;
      expectError(await other.call('GET', `/v1/payments/${mine.id}`), 404, 'resource_missing', 'id');
      expectError(await other.call('POST', `/v1/payments/${mine.id}/cancel`), 404, 'resource_missing', 'id');
      expectError(await other.call('POST', `/v1/payments/${mine.id}/confirm`), 404, 'resource_missing', 'id');
      const live = await call(env, 'GET', `/v1/payments/${mine.id}`, { key: m.liveSecretKey!, merchant: m.id });
      expectError(live, 404, 'resource_missing', 'id');
      expectError(await m.call('GET', '/v1/payments/pay_unknown'), 404, 'resource_missing', 'id');
      expectError(await m.call('GET', `/v1/payments/${'x'.repeat(300)}`), 404, 'resource_missing', 'id');
      expectError(await other.call('GET', `/v1/payments?starting_after=${mine.id}`), 404, 'resource_missing', 'starting_after');
    });
  });

  it('live mode: a payment without a method is fine; charging needs an acquirer (503 adapter_not_configured, nothing kept)', async () => {
    const live = (path: string, body?: unknown) => call(env, 'POST', path, { key: m.liveSecretKey!, merchant: m.id, body });
    const customer = (await call(env, 'POST', '/v1/customers', { key: m.liveSecretKey!, merchant: m.id, body: { email: 'live@example.is' } })).body;
    const plain = await live('/v1/payments', { amount: 100, customer: customer.id });
    assert.equal(plain.status, 201, plain.text);
    // No live card can be saved without an acquirer: put a method in the table directly.
    const pmId = newId('paymentMethod');
    await env.db.paymentMethod.create({
      data: {
        id: pmId,
        merchantId: m.id,
        mode: 'live',
        customerId: customer.id,
        type: 'card',
        brand: 'visa',
        last4: '4242',
        expMonth: 1,
        expYear: 2040,
        acquirerToken: 'tok_live_x',
      },
    });
    const before = await env.db.payment.count({ where: { merchantId: m.id, mode: 'live' } });
    expectError(await live('/v1/payments', { amount: 100, customer: customer.id, payment_method: pmId }), 503, 'adapter_not_configured');
    assert.equal(await env.db.payment.count({ where: { merchantId: m.id, mode: 'live' } }), before);
  });

  it('cancel: an unpaid payment becomes canceled and its invoice void; repeating is harmless; a paid one cannot', async () => {
    const p = (await m.call('POST', '/v1/payments', { body: { amount: 100 } })).body;
    const canceled = await m.call('POST', `/v1/payments/${p.id}/cancel`);
    assert.deepEqual([canceled.status, canceled.body.status], [200, 'canceled']);
    assert.ok(canceled.body.canceled_at);
    assert.equal((await m.call('GET', `/v1/invoices/${p.invoice}`)).body.status, 'void');
    assert.equal((await m.call('POST', `/v1/payments/${p.id}/cancel`)).body.status, 'canceled');
    const customer = await createCustomer(m);
    const pm = await attachCard(m, customer.id);
    expectError(await m.call('POST', `/v1/payments/${p.id}/confirm`, { body: { payment_method: pm.id } }), 409, 'invalid_state', 'payment');
    const { payment } = await paidPayment(m);
    expectError(await m.call('POST', `/v1/payments/${payment.id}/cancel`), 409, 'invalid_state', 'id');
  });

  it('a detached payment method cannot be charged', async () => {
    const customer = await createCustomer(m);
    const pm = await attachCard(m, customer.id);
    assert.equal((await m.call('DELETE', `/v1/payment_methods/${pm.id}`)).status, 200);
    expectError(await m.call('POST', '/v1/payments', { body: { amount: 100, customer: customer.id, payment_method: pm.id } }), 404, 'resource_not_found', 'payment_method');
  });

  it('lists newest first with status and customer filters and paging', async () => {
    const mm = await newMerchant(env);
    const customer = await createCustomer(mm);
    const pm = await attachCard(mm, customer.id);
    const waiting = [];
    for (let i = 0; i < 3; i++) waiting.push((await mm.call('POST', '/v1/payments', { body: { amount: 100 + i } })).body);
    const paid = (await mm.call('POST', '/v1/payments', { body: { amount: 999, customer: customer.id, payment_method: pm.id } })).body;
    const all = (await mm.call('GET', '/v1/payments')).body;
    assert.deepEqual(
      all.data.map((p: any) => p.id),
      [paid.id, ...waiting.map((p) => p.id).reverse()],
    );
    assert.equal(all.has_more, false);
    const page1 = (await mm.call('GET', '/v1/payments?limit=2')).body;
    assert.deepEqual([page1.data.length, page1.has_more], [2, true]);
    const page2 = (await mm.call('GET', `/v1/payments?limit=2&starting_after=${page1.data[1].id}`)).body;
    assert.deepEqual(
      page2.data.map((p: any) => p.id),
      [waiting[1]!.id, waiting[0]!.id],
    );
    assert.equal(page2.has_more, false);
    const succeeded = (await mm.call('GET', '/v1/payments?status=succeeded')).body;
    assert.deepEqual(
      succeeded.data.map((p: any) => p.id),
      [paid.id],
    );
    assert.deepEqual(
      (await mm.call('GET', `/v1/payments?customer=${customer.id}`)).body.data.map((p: any) => p.id),
      [paid.id],
    );
    assert.ok(all.data.every((p: any) => typeof p.invoice === 'string'));
    expectError(await mm.call('GET', '/v1/payments?status=done'), 400, 'validation_failed', 'status');
    expectError(await mm.call('GET', '/v1/payments?limit=abc'), 400, 'validation_failed', 'limit');
    expectError(await mm.call('GET', `/v1/payments?customer=${newId('customer')}`), 404, 'resource_not_found', 'customer');
    expectError(await mm.call('GET', '/v1/payments?status=paid&status=open'), 400, 'validation_failed', 'status');
  });

  it('publishable keys are refused', async () => {
    expectError(await call(env, 'POST', '/v1/payments', { key: m.publishableKey, merchant: m.id, body: { amount: 100 } }), 403, 'secret_key_required');
    expectError(await call(env, 'GET', '/v1/payments', { key: m.publishableKey, merchant: m.id }), 403, 'secret_key_required');
  });
});
