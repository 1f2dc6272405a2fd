// Fixtures for the payments tests: customers, saved test cards, payments and finished refunds.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestEnv } from '../../support/env';
import type { TestMerchant } from '../../support/api';
import { createGateways } from '../../../src/gateways';
import { workflowIds } from '../../../src/temporal/workflow-ids';

export const CARDS = {
  visa: '4242 4242 4242 4242',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  declinesLater: '4000000000000341',
  refundsFail: '4000000000007726',
  transient: '4000000000005126',
} as const;

export const unique = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

export async function createCustomer(m: TestMerchant, body: Record<string, unknown> = {}): Promise<any> {
  const res = await m.call('POST', '/v1/customers', { body: { email: `${unique('c')}@example.is`, ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function attachCard(m: TestMerchant, customerId: string, number: string = CARDS.visa, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await m.call('POST', `/v1/test_helpers/customers/${customerId}/payment_methods`, {
    body: { card_number: number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123', ...extra },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** A customer with a saved card and a succeeded payment of `amount` on it. */
export async function paidPayment(m: TestMerchant, amount = 10_000, card: string = CARDS.visa, body: Record<string, unknown> = {}) {
  const customer = await createCustomer(m);
  const pm = await attachCard(m, customer.id, card);
  const res = await m.call('POST', '/v1/payments', { body: { amount, currency: 'ISK', customer: customer.id, payment_method: pm.id, description: 'Ársáskrift', ...body } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.status, 'succeeded', res.text);
  return { customer, pm, payment: res.body };
}

/** Waits for the refund workflow to finish, then returns the refund as the API shows it. */
export async function settledRefund(env: TestEnv, m: TestMerchant, refundId: string): Promise<any> {
  await env.client.workflow.getHandle(workflowIds.refund(refundId)).result();
  const res = await m.call('GET', `/v1/refunds/${refundId}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export function simulator(env: TestEnv) {
  return createGateways({ mode: 'test', db: env.db }).cardAcquirer;
}
