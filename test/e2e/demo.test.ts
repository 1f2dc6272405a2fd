// `billing demo` against the test env, reduced (--customers 16 --months 2 keeps it short): every
// subscription state exists afterwards, customers carry valid kennitölur, there is usage, a
// refund and its credit note; a second run finds the demo's mark and adds nothing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import { validateKennitala } from '../../src/validation/kennitala';
import { demoKennitala } from '../../boot/developer/demo';

const root = path.resolve(__dirname, '..', '..', '..');

async function cli(env: TestEnv, key: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'billing.js'), ...args, '--api-url', env.baseUrl], {
    env: { ...process.env, BILLING_API_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const code = await new Promise<number | null>((res) => child.on('exit', res));
  return { code, out };
}

describe('billing demo', function () {
  this.timeout(240_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('generates kennitölur that pass the check digit', () => {
    for (let i = 0; i < 60; i++) assert.equal(validateKennitala(demoKennitala(i), { checkDigit: 'enforce' }).ok, true, demoKennitala(i));
  });

  it('fills a test merchant with every subscription state, and a second run adds nothing', async () => {
    const m = await newMerchant(env);
    const first = await cli(env, m.secretKey, ['demo', '--customers', '16', '--months', '2']);
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, /month 2\/2/);

    const subs = (await m.call('GET', '/v1/subscriptions?limit=100')).body.data as any[];
    const states = new Set(subs.map((s) => s.status));
    for (const state of ['trialing', 'active', 'past_due', 'paused', 'canceled']) assert.ok(states.has(state), `a ${state} subscription: ${[...states].join(', ')}`);
    assert.ok(
      subs.some((s) => s.collection_method === 'send_invoice'),
      'a subscription collected by bank claim',
    );
    const customers = (await m.call('GET', '/v1/customers?limit=100')).body.data as any[];
    assert.equal(customers.length, 16);
    assert.ok(customers.every((c) => typeof c.kennitala === 'string' && c.kennitala.length >= 10));
    const invoices = (await m.call('GET', '/v1/invoices?status=paid&limit=100')).body.data as any[];
    assert.ok(invoices.length >= 16, `paid invoices: ${invoices.length}`);
    const refunds = (await m.call('GET', '/v1/refunds')).body.data as any[];
    assert.equal(refunds.length, 1);
    // The refund workflow settles the refund and issues its credit note.
    for (let i = 0; i < 300 && (await m.call('GET', '/v1/credit_notes')).body.data.length === 0; i++) await new Promise((res) => setTimeout(res, 200));
    const creditNotes = (await m.call('GET', '/v1/credit_notes')).body.data as any[];
    assert.equal(creditNotes.length, 1, 'the refund issued a credit note');
    const usage = (await m.call('GET', '/v1/events?limit=100')).body.data as any[];
    assert.ok(usage.length >= 2, `usage events: ${usage.length}`);
    const prices = (await m.call('GET', '/v1/prices?limit=100')).body.data as any[];
    assert.ok(prices.some((p) => p.recurring?.usage_type === 'metered'));
    assert.deepEqual(new Set(prices.map((p) => p.vat_rate)), new Set(['standard', 'reduced']));

    const counts = async () => ({
      customers: (await m.call('GET', '/v1/customers?limit=100')).body.data.length,
      subscriptions: (await m.call('GET', '/v1/subscriptions?limit=100')).body.data.length,
      products: (await m.call('GET', '/v1/products?limit=100')).body.data.length,
      clocks: (await m.call('GET', '/v1/test_helpers/test_clocks?limit=100')).body.data.length,
      payments: (await m.call('GET', '/v1/payments?limit=100')).body.data.length,
      refunds: (await m.call('GET', '/v1/refunds?limit=100')).body.data.length,
      usage: (await m.call('GET', '/v1/events?limit=100')).body.data.length,
    });
    const before = await counts();
    const second = await cli(env, m.secretKey, ['demo', '--customers', '16', '--months', '2']);
    assert.equal(second.code, 0, second.out);
    assert.match(second.out, /already present/);
    assert.deepEqual(await counts(), before);
  });
});
