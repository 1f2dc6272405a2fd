// Fixtures for the payment-session and checkout tests.
import assert from 'node:assert/strict';
import { insertKey } from '../../../src/domain/merchants/create-merchant';
import { call, newMerchant, type ApiResponse, type CallOptions, type TestMerchant } from '../../support/api';
import type { TestEnv } from '../../support/env';

export type Merchant = TestMerchant & { liveSecretKey?: string };

export const RETURN_URL = 'https://shop.example.is/thanks?order=42';
export const CANCEL_URL = 'https://shop.example.is/cart';

export async function merchantWithOrigins(env: TestEnv, origins: string[], opts: { live?: boolean } = {}) {
  const m = await newMerchant(env, { live: opts.live });
  await env.db.merchant.update({ where: { id: m.id }, data: { allowedOrigins: origins } });
  const livePublishableKey = opts.live ? await insertKey(env.db, m.id, 'publishable', 'live', 'live pk') : undefined;
  return { ...m, livePublishableKey };
}

export async function newCustomer(m: TestMerchant, email = 'anna@example.is', opts: CallOptions = {}): Promise<string> {
  const res = await m.call('POST', '/v1/customers', { body: { email, name: 'Anna Jónsdóttir' }, ...opts });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
}

export async function hostedSession(m: TestMerchant, body: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<ApiResponse> {
  return m.call('POST', '/v1/payment_sessions', { body: { amount: 1990, return_url: RETURN_URL, ...body }, ...opts });
}

export async function created(res: ApiResponse): Promise<any> {
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** Calls the checkout JSON endpoints as the page's script would (same origin). */
export function checkoutCall(env: Pick<TestEnv, 'baseUrl'>, path: string, body: unknown, headers: Record<string, string> = {}) {
  return call(env, 'POST', path, { body, headers });
}

export const GOOD_CARD = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123', name: 'Anna Jónsdóttir' };
export const DECLINED_CARD = { ...GOOD_CARD, number: '4000 0000 0000 0002' };

export function payHosted(env: Pick<TestEnv, 'baseUrl'>, sessionId: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return checkoutCall(env, `/checkout/api/sessions/${sessionId}/confirm`, { method: 'card', email: 'anna@example.is', card: GOOD_CARD, ...extra }, headers);
}
