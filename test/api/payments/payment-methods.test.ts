import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, type TestMerchant, liveMerchant, type LiveMerchant } from '../../support/api';
import { newId } from '../../../src/ids';
import { CARDS, attachCard, createCustomer } from './fixtures';

describe('payment methods and the attach-card test helper', () => {
  let env: TestEnv, m: LiveMerchant, other: TestMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(liveMerchant, newMerchant)));

  const year = new Date().getUTCFullYear() + 2;

  it('attaches a test card: card details, never the token; the first method becomes the default; payment_method.attached', async () => {
    const customer = await createCustomer(m);
    const first = await attachCard(m, customer.id, CARDS.visa);
    assert.match(first.id, /^pm_/);
    assert.deepEqual(
      { ...first, created_at: undefined },
      {
        id: first.id,
        object: 'payment_method',
        customer: customer.id,
        type: 'card',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 },
        is_default: true,
        created_at: undefined,
      },
    );
    const second = await attachCard(m, customer.id, CARDS.mastercard);
    assert.deepEqual([second.card.brand, second.is_default], ['mastercard', false]);
    const row = await env.db.paymentMethod.findUnique({ where: { id: first.id } });
    assert.match(row!.acquirerToken!, /^tok_sim_/);
    assert.equal(JSON.stringify(first).includes('tok_sim_'), false);
    const cust = await env.db.customer.findUnique({ where: { id: customer.id } });
    assert.equal(cust!.defaultPaymentMethodId, first.id);
    const evt = await env.db.event.findFirst({ where: { merchantId: m.id, type: 'payment_method.attached', data: { path: ['id'], equals: first.id } } });
    assert.deepEqual(evt!.data, first);
  });

  it('wallet variants: Apple Pay and Google Pay without a CVC', async () => {
    const customer = await createCustomer(m);
    const apple = await attachCard(m, customer.id, CARDS.visa, { wallet: 'apple_pay', cvc: null });
    const google = await attachCard(m, customer.id, CARDS.mastercard, { wallet: 'google_pay', cvc: undefined });
    assert.deepEqual([apple.type, google.type], ['apple_pay', 'google_pay']);
    assert.equal(apple.card.last4, '4242');
  });

  it('a declined card is 402 card_declined and saves nothing', async () => {
    const customer = await createCustomer(m);
    const res = await m.call('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, {
      body: { card_number: CARDS.insufficientFunds, exp_month: 1, exp_year: year, cvc: '123' },
    });
    const err = expectError(res, 402, 'card_declined', 'card_number');
    assert.match(err.message, /insufficient_funds/);
    expectError(
      await m.call('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, { body: { card_number: '4242424242424241', exp_month: 1, exp_year: year, cvc: '123' } }),
      402,
      'card_declined',
      'card_number',
    );
    expectError(
      await m.call('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, { body: { card_number: CARDS.visa, exp_month: 1, exp_year: year, cvc: '12' } }),
      402,
      'card_declined',
      'cvc',
    );
    expectError(
      await m.call('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, { body: { card_number: CARDS.visa, exp_month: 1, exp_year: 2001, cvc: '123' } }),
      402,
      'card_declined',
      'card_number',
    );
    assert.equal((await m.call('GET', `/v1/payment_methods?customer=${customer.id}`)).body.data.length, 0);
  });

  it('the test helper is refused with live keys (403 test_mode_only), whatever the body', async () => {
    const res = await call(env, 'POST', `/v1/test_helpers/customers/${newId('customer')}/payment_methods`, { key: m.liveSecretKey!, merchant: m.id, body: {} });
    expectError(res, 403, 'test_mode_only');
    expectError(await call(env, 'POST', `/v1/test_helpers/customers/x/payment_methods`, { key: m.publishableKey, merchant: m.id, body: {} }), 403, 'secret_key_required');
  });

  describe('test helper bad input', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing card_number', { exp_month: 1, exp_year: 2040 }, 'card_number'],
      ['card_number as a number', { card_number: 4242424242424242, exp_month: 1, exp_year: 2040 }, 'card_number'],
      ['oversized card_number', { card_number: '4'.repeat(31), exp_month: 1, exp_year: 2040 }, 'card_number'],
      ['missing exp_month', { card_number: CARDS.visa, exp_year: 2040 }, 'exp_month'],
      ['exp_month 13', { card_number: CARDS.visa, exp_month: 13, exp_year: 2040 }, 'exp_month'],
      ['exp_month as a string', { card_number: CARDS.visa, exp_month: '1', exp_year: 2040 }, 'exp_month'],
      ['exp_year as a string', { card_number: CARDS.visa, exp_month: 1, exp_year: '2040' }, 'exp_year'],
      ['oversized cvc', { card_number: CARDS.visa, exp_month: 1, exp_year: 2040, cvc: '12345' }, 'cvc'],
      ['unknown wallet', { card_number: CARDS.visa, exp_month: 1, exp_year: 2040, wallet: 'paypal' }, 'wallet'],
    ];
    for (const [name, body, param] of cases) {
      it(`refuses ${name}`, async () => {
        const customer = await createCustomer(m);
        expectError(await m.call('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, { body }), 400, 'validation_failed', param);
      });
    }

    it('an unknown, foreign or other-mode customer is resource_missing', async () => {
      const theirs = await createCustomer(other);
      const body = { card_number: CARDS.visa, exp_month: 1, exp_year: year, cvc: '123' };
      expectError(await m.call('POST', `/v1/test_helpers/customers/${theirs.id}/payment_methods`, { body }), 404, 'resource_missing', 'id');
      expectError(await m.call('POST', `/v1/test_helpers/customers/${newId('customer')}/payment_methods`, { body }), 404, 'resource_missing', 'id');
      const liveCustomer = (await call(env, 'POST', '/v1/customers', { key: m.liveSecretKey!, merchant: m.id, body: { email: 'l@example.is' } })).body;
      expectError(await m.call('POST', `/v1/test_helpers/customers/${liveCustomer.id}/payment_methods`, { body }), 404, 'resource_missing', 'id');
    });
  });

  it("set_default moves the default; the customer's list shows it", async () => {
    const customer = await createCustomer(m);
    const a = await attachCard(m, customer.id);
    const b = await attachCard(m, customer.id, CARDS.mastercard);
    const res = await m.call('POST', `/v1/payment_methods/${b.id}/set_default`);
    assert.deepEqual([res.status, res.body.id, res.body.is_default], [200, b.id, true]);
    const list = (await m.call('GET', `/v1/payment_methods?customer=${customer.id}`)).body;
    assert.deepEqual(
      list.data.map((pm: any) => [pm.id, pm.is_default]),
      [
        [b.id, true],
        [a.id, false],
      ],
    );
    assert.equal((await m.call('GET', `/v1/payment_methods/${a.id}`)).body.is_default, false);
    assert.equal((await env.db.customer.findUnique({ where: { id: customer.id } }))!.defaultPaymentMethodId, b.id);
  });

  it('detach is irreversible: { id, deleted: true }, gone from list and retrieve, not the default, cannot be set default or charged', async () => {
    const customer = await createCustomer(m);
    const a = await attachCard(m, customer.id);
    const b = await attachCard(m, customer.id, CARDS.mastercard);
    const del = await m.call('DELETE', `/v1/payment_methods/${a.id}`);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { id: a.id, object: 'payment_method', deleted: true });
    expectError(await m.call('GET', `/v1/payment_methods/${a.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('DELETE', `/v1/payment_methods/${a.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('POST', `/v1/payment_methods/${a.id}/set_default`), 404, 'resource_missing', 'id');
    assert.deepEqual(
      (await m.call('GET', `/v1/payment_methods?customer=${customer.id}`)).body.data.map((pm: any) => pm.id),
      [b.id],
    );
    assert.equal((await env.db.customer.findUnique({ where: { id: customer.id } }))!.defaultPaymentMethodId, null);
    expectError(await m.call('POST', '/v1/payments', { body: { amount: 100, payment_method: a.id } }), 404, 'resource_not_found', 'payment_method');
    const p = (await m.call('POST', '/v1/payments', { body: { amount: 100, customer: customer.id } })).body;
    expectError(await m.call('POST', `/v1/payments/${p.id}/confirm`, { body: { payment_method: a.id } }), 404, 'resource_not_found', 'payment_method');
    // The row is kept for the payments that used it.
    assert.ok((await env.db.paymentMethod.findUnique({ where: { id: a.id } }))!.detachedAt);
  });

  it("lists all customers' methods without a filter, newest first, paged", async () => {
    const mm = await newMerchant(env);
    const c1 = await createCustomer(mm);
    const c2 = await createCustomer(mm);
    const ids = [(await attachCard(mm, c1.id)).id, (await attachCard(mm, c2.id)).id, (await attachCard(mm, c1.id, CARDS.mastercard)).id];
    const all = (await mm.call('GET', '/v1/payment_methods')).body;
    assert.deepEqual(
      all.data.map((pm: any) => pm.id),
      [...ids].reverse(),
    );
    const page = (await mm.call('GET', `/v1/payment_methods?limit=1&starting_after=${ids[2]}`)).body;
    assert.deepEqual([page.data.map((pm: any) => pm.id), page.has_more], [[ids[1]], true]);
    expectError(await mm.call('GET', `/v1/payment_methods?customer=${newId('customer')}`), 404, 'resource_not_found', 'customer');
    expectError(await mm.call('GET', '/v1/payment_methods?customer=bad%20id'), 400, 'validation_failed', 'customer');
  });

  it('methods of another merchant or mode are resource_missing everywhere', async () => {
    const theirs = await createCustomer(other);
    const pm = await attachCard(other, theirs.id);
    expectError(await m.call('GET', `/v1/payment_methods/${pm.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('DELETE', `/v1/payment_methods/${pm.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('POST', `/v1/payment_methods/${pm.id}/set_default`), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', `/v1/payment_methods?starting_after=${pm.id}`), 404, 'resource_missing', 'starting_after');
    expectError(await m.call('GET', `/v1/payment_methods?customer=${theirs.id}`), 404, 'resource_not_found', 'customer');
    const mine = await attachCard(m, (await createCustomer(m)).id);
    expectError(await call(env, 'GET', `/v1/payment_methods/${mine.id}`, { key: m.liveSecretKey!, merchant: m.id }), 404, 'resource_missing', 'id');
    assert.ok(await env.db.paymentMethod.findUnique({ where: { id: pm.id } }).then((r) => r && r.detachedAt === null));
  });
});
