// Shared fixtures for the catalog API tests.
import assert from 'node:assert/strict';
import { type TestMerchant, twoModeMerchant, uniqueName, type TwoModeMerchant } from '../../support/api';

export type CatalogMerchant = TwoModeMerchant;
export const catalogMerchant = twoModeMerchant;
export const unique = uniqueName;

export async function createCustomer(m: TestMerchant, body: Record<string, unknown> = {}): Promise<any> {
  const res = await m.call('POST', '/v1/customers', { body: { email: `${unique('c')}@example.is`, ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function createProduct(m: TestMerchant, body: Record<string, unknown> = {}): Promise<any> {
  const res = await m.call('POST', '/v1/products', { body: { name: 'Widget', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function createMeter(m: TestMerchant, body: Record<string, unknown> = {}): Promise<any> {
  const res = await m.call('POST', '/v1/meters', { body: { name: 'API calls', event_name: unique('ev'), aggregate_type: 'count', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}
