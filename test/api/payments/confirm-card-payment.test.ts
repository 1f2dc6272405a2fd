// confirmCardPayment with typed card data (the checkout path), called directly as checkout does
// (it runs its own transactions around the acquirer call): save-this-card, wallets, declines,
// attempt keys, states, and a payment left `processing` resumed under its attempt's key.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../../support/env';
import { newMerchant, type TestMerchant } from '../../support/api';
import { scopedDb, type Tenant } from '../../../src/db/tenancy';
import { ApiError } from '../../../src/errors';
import { createPayment } from '../../../src/domain/payments/create-payment';
import { confirmCardPayment, type ConfirmCardPaymentInput } from '../../../src/domain/payments/confirm-card-payment';
import { CARDS, createCustomer, simulator } from './fixtures';

describe('confirmCardPayment (checkout path)', () => {
  let env: TestEnv;
  let m: TestMerchant;
  let tenant: Tenant;
  const year = new Date().getUTCFullYear() + 2;
  const card = (number: string, cvc = '123') => ({ number, expMonth: 11, expYear: year, cvc });

  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    tenant = { merchantId: m.id, mode: 'test' };
  });

  const newPayment = async (amount: number, customerId: string | null = null) =>
    scopedDb(env.db, tenant).$transaction(async (tx) => (await createPayment(tx, tenant, { amount, currency: 'ISK', customerId, description: 'Vara' })).payment);
  const confirm = (input: ConfirmCardPaymentInput) => confirmCardPayment({ db: env.db, acquirer: env.gateways.cardAcquirer('test'), now: new Date() }, tenant, input);

  it('charges typed card data; saving on attaches the card to the customer (default) after the charge', async () => {
    const customer = await createCustomer(m);
    const p = await newPayment(5000);
    const r = await confirm({ paymentId: p.id, source: { card: card(CARDS.visa) }, saveForCustomerId: customer.id });
    assert.equal(r.outcome, 'succeeded');
    assert.deepEqual([r.payment.status, r.payment.customerId, r.payment.paymentMethodId, r.payment.attemptCount], ['succeeded', customer.id, r.paymentMethod!.id, 1]);
    assert.deepEqual(
      r.events.map((e) => e.type),
      ['payment_method.attached', 'payment.succeeded', 'invoice.paid'],
    );
    const pm = (await m.call('GET', `/v1/payment_methods/${r.paymentMethod!.id}`)).body;
    assert.deepEqual([pm.customer, pm.type, pm.card.last4, pm.is_default], [customer.id, 'card', '4242', true]);
    const inv = (await m.call('GET', `/v1/payments/${p.id}`)).body.invoice;
    assert.deepEqual([(await m.call('GET', `/v1/invoices/${inv}`)).body.status, (await m.call('GET', `/v1/invoices/${inv}`)).body.customer], ['paid', customer.id]);
    // Charged once, with the attempt key, by card (not by the saved token).
    const charges = (await simulator(env).listCharges(m.id)).filter((c) => c.idempotencyKey.startsWith(p.id));
    assert.deepEqual(
      charges.map((c) => [c.idempotencyKey, c.token]),
      [[`${p.id}:attempt:1`, null]],
    );
    // A succeeded payment cannot be confirmed again.
    await assert.rejects(confirm({ paymentId: p.id, source: { card: card(CARDS.visa) } }), (e: unknown) => e instanceof ApiError && e.code === 'invalid_state');
  });

  it('a declined card saves nothing; the retry is attempt 2 and succeeds; a wallet payment has no CVC', async () => {
    const customer = await createCustomer(m);
    const p = await newPayment(800, customer.id);
    const declined = await confirm({ paymentId: p.id, source: { card: card(CARDS.insufficientFunds) }, saveForCustomerId: customer.id });
    assert.deepEqual([declined.outcome, declined.declineCode, declined.payment.status, declined.paymentMethod], ['declined', 'insufficient_funds', 'failed', null]);
    assert.equal(typeof declined.declineMessage, 'string');
    assert.deepEqual(
      declined.events.map((e) => e.type),
      ['payment.failed', 'invoice.payment_failed'],
    );
    assert.equal((await m.call('GET', `/v1/payment_methods?customer=${customer.id}`)).body.data.length, 0);
    const ok = await confirm({ paymentId: p.id, source: { card: { number: CARDS.mastercard, expMonth: 1, expYear: year, cvc: '' }, wallet: 'apple_pay' } });
    assert.deepEqual([ok.outcome, ok.payment.attemptCount, ok.payment.failureCode], ['succeeded', 2, null]);
    const charge = (await simulator(env).listCharges(m.id)).find((c) => c.idempotencyKey === `${p.id}:attempt:2`);
    assert.equal(charge!.card.wallet, 'apple_pay');
  });

  it('invalid card data is a decline (invalid_number), not an exception; nothing reaches the acquirer', async () => {
    const p = await newPayment(100);
    const r = await confirm({ paymentId: p.id, source: { card: card('1234 5678') } });
    assert.deepEqual([r.outcome, r.declineCode, r.payment.status], ['declined', 'invalid_number', 'failed']);
  });

  it("a saved method must belong to the payment's customer; save-for must be the payment's customer; unknown payments", async () => {
    const a = await createCustomer(m);
    const b = await createCustomer(m);
    const pmB = (await m.call('POST', `/v1/test_helpers/customers/${b.id}/payment_methods`, { body: { card_number: CARDS.visa, exp_month: 1, exp_year: year, cvc: '123' } })).body;
    const p = await newPayment(100, a.id);
    await assert.rejects(
      confirm({ paymentId: p.id, source: { paymentMethodId: pmB.id } }),
      (e: unknown) => e instanceof ApiError && e.code === 'resource_not_found' && e.param === 'payment_method',
    );
    await assert.rejects(
      confirm({ paymentId: p.id, source: { card: card(CARDS.visa) }, saveForCustomerId: b.id }),
      (e: unknown) => e instanceof ApiError && e.code === 'validation_failed',
    );
    await assert.rejects(
      confirm({ paymentId: 'pay_nope', source: { card: card(CARDS.visa) } }),
      (e: unknown) => e instanceof ApiError && e.code === 'resource_not_found' && e.param === 'payment',
    );
    // Another merchant's payment is unknown here.
    const other = await newMerchant(env);
    const theirs = (await other.call('POST', '/v1/payments', { body: { amount: 100 } })).body;
    await assert.rejects(confirm({ paymentId: theirs.id, source: { card: card(CARDS.visa) } }), (e: unknown) => e instanceof ApiError && e.code === 'resource_not_found');
    assert.equal((await other.call('GET', `/v1/payments/${theirs.id}`)).body.status, 'requires_payment_method');
  });
});
