// Shared fixtures for the subscription, test-clock and scenario tests.
import assert from 'node:assert/strict';
import { type ApiResponse, type TestMerchant, twoModeMerchant, uniqueName, type TwoModeMerchant } from '../../support/api';
import type { TestEnv } from '../../support/env';

export type SubMerchant = TwoModeMerchant;
export const subMerchant = twoModeMerchant;
/** A subscription merchant whose currency is ISK. */
export const iskSubMerchant = (env: TestEnv): Promise<SubMerchant> => subMerchant(env, { currency: 'ISK' });
export const unique = uniqueName;

export async function ok(res: Promise<ApiResponse>, status = 200): Promise<any> {
  const r = await res;
  assert.equal(r.status, status, r.text);
  return r.body;
}

/** Polls `probe` until it returns a value other than undefined; fails after `attempts` tries (never a timed assertion on duration). */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, attempts = 600, intervalMs = 100): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`gave up waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

export const TEST_CARDS = {
  visa: '4242424242424242',
  /** Saves fine, declined (insufficient_funds) until setCardBehaviour succeed. */
  recovering: '4000000000000259',
  /** Saves fine, every later charge declined. */
  alwaysDeclines: '4000000000000341',
} as const;

export async function createCustomer(m: TestMerchant, body: Record<string, unknown> = {}): Promise<any> {
  return ok(m.call('POST', '/v1/customers', { body: { email: `${unique('c')}@example.is`, ...body } }), 201);
}

/** Saves a test card for the customer (the first becomes the default payment method). */
export async function attachCard(m: TestMerchant, customerId: string, card: string = TEST_CARDS.visa): Promise<any> {
  return ok(
    m.call('POST', `/v1/test_helpers/customers/${customerId}/payment_methods`, {
      body: { card_number: card, exp_month: 12, exp_year: new Date().getUTCFullYear() + 5, cvc: '123' },
    }),
    201,
  );
}

export async function createProduct(m: TestMerchant, name = 'Plan'): Promise<any> {
  return ok(m.call('POST', '/v1/products', { body: { name } }), 201);
}

export async function createPrice(m: TestMerchant, body: Record<string, unknown>): Promise<any> {
  const product = body.product ?? (await createProduct(m)).id;
  return ok(m.call('POST', '/v1/prices', { body: { product, ...body } }), 201);
}

export async function monthlyPrice(m: TestMerchant, unitAmount: number, extra: Record<string, unknown> = {}): Promise<any> {
  return createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: unitAmount, recurring: { interval: 'month' }, ...extra });
}

export async function createClock(m: TestMerchant, frozenTime: string, name?: string): Promise<any> {
  return ok(m.call('POST', '/v1/test_helpers/test_clocks', { body: { frozen_time: frozenTime, ...(name ? { name } : {}) } }), 201);
}

export async function attachToClock(m: TestMerchant, clockId: string, customerId: string): Promise<any> {
  return ok(m.call('POST', `/v1/test_helpers/test_clocks/${clockId}/customers`, { body: { customer: customerId } }));
}

/**
 * A test clock frozen at `frozenTime` and a customer on it (`customer`: its fields), with `card`
 * saved as its default payment method (the visa when not given; none when null).
 */
export async function clockCustomer(m: TestMerchant, frozenTime: string, opts: { card?: string | null; customer?: Record<string, unknown> } = {}) {
  const clock = await createClock(m, frozenTime);
  const customer = await createCustomer(m, opts.customer);
  await attachToClock(m, clock.id, customer.id);
  const pm = opts.card === null ? null : await attachCard(m, customer.id, opts.card);
  return { clock, customer, pm };
}

/** Advances the clock and waits until it is ready again (every subscription caught up). */
export async function advanceClock(m: TestMerchant, clockId: string, frozenTime: string): Promise<any> {
  const r = await ok(m.call('POST', `/v1/test_helpers/test_clocks/${clockId}/advance`, { body: { frozen_time: frozenTime } }));
  assert.equal(r.frozen_time, new Date(frozenTime).toISOString());
  return eventually(
    async () => {
      const c = await ok(m.call('GET', `/v1/test_helpers/test_clocks/${clockId}`));
      return c.status === 'ready' ? c : undefined;
    },
    `clock ${clockId} ready at ${frozenTime}`,
    1200,
  );
}

/**
 * A customer named `name` with `card`, subscribed to a new ISK 4,990 monthly price, once the first
 * invoice has been charged: paid, or open after its first attempt.
 */
export async function subscribedAndCharged(m: TestMerchant, name: string, card: string) {
  const customer = await createCustomer(m, { name, kennitala: '0102694009' });
  await attachCard(m, customer.id, card);
  const price = await monthlyPrice(m, 4990);
  const subscription = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
  const invoice = await eventually(async () => {
    const inv = (await ok(m.call('GET', `/v1/invoices?subscription=${subscription.id}`))).data[0];
    if (!inv) return undefined;
    // The API's own attempt_count: reading the row separately raced the charge (the row counted
    // the attempt after the API had answered `open` with 0).
    return inv.status === 'paid' || (inv.status === 'open' && inv.attempt_count >= 1) ? inv : undefined;
  }, `${name}'s first invoice to be charged`);
  return { customer, subscription, invoice };
}

/**
 * The billing history the dashboard tests read: Jón Jónsson paid (then refunded 1,000 with its
 * credit note), Guðrún Ósk Þórsdóttir declined, Þórður Árnason declined and his invoice voided.
 */
export async function paidDeclinedVoidedRefunded(env: TestEnv, m: TestMerchant) {
  const paid = await subscribedAndCharged(m, 'Jón Jónsson', TEST_CARDS.visa);
  const declined = await subscribedAndCharged(m, 'Guðrún Ósk Þórsdóttir', TEST_CARDS.alwaysDeclines);
  const toVoid = await subscribedAndCharged(m, 'Þórður Árnason', TEST_CARDS.alwaysDeclines);
  await ok(m.call('POST', `/v1/invoices/${toVoid.invoice.id}/void`));
  const payment = (await ok(m.call('GET', `/v1/payments?customer=${paid.customer.id}`))).data[0];
  await ok(m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 1000 } }), 201);
  await eventually(async () => ((await env.db.creditNote.count({ where: { merchantId: m.id } })) > 0 ? true : undefined), 'the refund’s credit note');
  return { paid, declined, toVoid, payment };
}
