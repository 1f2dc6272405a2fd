// VAT settings and VAT on invoice lines (docs/vat.md): rate identifiers on products, prices and
// invoice items; prices including VAT (default) or excluding it (VAT added to amount_due).
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError, liveMerchant, type LiveMerchant } from '../../support/api';
import { assertLedgerInvariants } from '../../support/ledger-invariants';
import { attachCard, createCustomer, eventually, ok } from '../subscriptions/fixtures';

describe('VAT settings and VAT on invoices', function () {
  this.timeout(120_000);
  let env: TestEnv, m: LiveMerchant;
  before(async () => ([env, m] = await envAndMerchants(liveMerchant)));

  it('GET shows the defaults: Iceland, standard, prices include VAT, with the rates', async () => {
    const s = await ok(m.call('GET', '/v1/vat_settings'));
    assert.deepEqual(s, {
      object: 'vat_settings',
      country: 'IS',
      default_vat_rate: 'standard',
      prices_include_vat: true,
      rates: [
        { id: 'standard', percent: 24 },
        { id: 'reduced', percent: 11 },
        { id: 'exempt', percent: 0 },
      ],
    });
  });

  it('refuses bad settings with the param named', async () => {
    expectError(await m.call('POST', '/v1/vat_settings', { body: { prices_include_vat: 'no' } }), 400, 'validation_failed', 'prices_include_vat');
    expectError(await m.call('POST', '/v1/vat_settings', { body: { default_vat_rate: 'super' } }), 400, 'validation_failed', 'default_vat_rate');
    expectError(await m.call('POST', '/v1/vat_settings', { body: { country: 'DK' } }), 400, 'validation_failed', 'country');
    expectError(await m.call('POST', '/v1/products', { body: { name: 'x', vat_rate: 'zero' } }), 400, 'validation_failed', 'vat_rate');
    expectError(await m.call('POST', '/v1/invoice_items', { body: { customer: 'cus_x', amount: 1, description: 'x', vat_rate: 24 } }), 400, 'validation_failed', 'vat_rate');
  });

  it('settings are per mode; a payment line always includes VAT, at the default rate', async () => {
    const s = await ok(m.call('POST', '/v1/vat_settings', { body: { default_vat_rate: 'reduced' } }));
    assert.deepEqual([s.default_vat_rate, s.prices_include_vat], ['reduced', true]);
    assert.equal((await ok(m.call('GET', '/v1/vat_settings', { key: m.liveSecretKey! }))).default_vat_rate, 'standard');
    const c = await createCustomer(m);
    const pm = await attachCard(m, c.id);
    const p = await ok(m.call('POST', '/v1/payments', { body: { amount: 11_100, currency: 'ISK', customer: c.id, payment_method: pm.id } }), 201);
    const inv = await ok(m.call('GET', `/v1/invoices/${p.invoice}`));
    assert.deepEqual([inv.total, inv.vat_amount, inv.lines[0].vat_rate, inv.lines[0].vat_percent], [11_100, 1100, 'reduced', 11]);
    await ok(m.call('POST', '/v1/vat_settings', { body: { default_vat_rate: 'standard' } }));
  });

  it('prices excluding VAT: VAT per line (product, price and invoice item rates) is added to amount_due and charged', async () => {
    await ok(m.call('POST', '/v1/vat_settings', { body: { prices_include_vat: false } }));
    try {
      const books = await ok(m.call('POST', '/v1/products', { body: { name: 'Books', vat_rate: 'reduced' } }), 201);
      assert.equal(books.vat_rate, 'reduced');
      const plan = await ok(m.call('POST', '/v1/products', { body: { name: 'Plan' } }), 201);
      const p1 = await ok(
        m.call('POST', '/v1/prices', { body: { product: books.id, type: 'recurring', currency: 'ISK', unit_amount: 1990, recurring: { interval: 'month' } } }),
        201,
      );
      const p2 = await ok(
        m.call('POST', '/v1/prices', {
          body: { product: plan.id, type: 'recurring', currency: 'ISK', unit_amount: 10_000, recurring: { interval: 'month' }, accounting_code: '3010' },
        }),
        201,
      );
      const p3 = await ok(
        m.call('POST', '/v1/prices', { body: { product: plan.id, type: 'recurring', currency: 'ISK', unit_amount: 500, recurring: { interval: 'month' }, vat_rate: 'exempt' } }),
        201,
      );
      assert.equal(p3.vat_rate, 'exempt');
      const c = await createCustomer(m);
      await attachCard(m, c.id);
      const item = await ok(m.call('POST', '/v1/invoice_items', { body: { customer: c.id, amount: 150, description: 'Setup', vat_rate: 'reduced' } }), 201);
      assert.equal(item.vat_rate, 'reduced');
      const sub = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: c.id, items: [{ price: p1.id }, { price: p2.id }, { price: p3.id }] } }), 201);
      const inv = await eventually(async () => {
        const list = (await ok(m.call('GET', `/v1/invoices?subscription=${sub.id}`))).data;
        return list[0]?.status === 'paid' ? ok(m.call('GET', `/v1/invoices/${list[0].id}`)) : undefined;
      }, 'the first invoice paid');
      // 1990 × 11 % = 218.9 → 219; 10000 × 24 % = 2400; 500 exempt; 150 × 11 % = 16.5 → 17
      assert.deepEqual(
        inv.lines.map((l: any) => [l.amount, l.vat_rate, l.vat_amount]),
        [
          [1990, 'reduced', 219],
          [10_000, 'standard', 2400],
          [500, 'exempt', 0],
          [150, 'reduced', 17],
        ],
      );
      assert.deepEqual([inv.subtotal, inv.vat_amount, inv.total, inv.amount_due, inv.amount_paid, inv.prices_include_vat], [12_640, 2636, 15_276, 15_276, 15_276, false]);
      assert.deepEqual(
        inv.vat_breakdown.map((b: any) => [b.vat_rate, b.amount_excluding_vat, b.vat_amount]),
        [
          ['standard', 10_000, 2400],
          ['reduced', 2140, 236],
          ['exempt', 500, 0],
        ],
      );
      const entries = (await ok(m.call('GET', `/v1/ledger_entries?invoice=${inv.id}&limit=100`))).data;
      const fin = Object.fromEntries(entries.filter((e: any) => e.kind === 'invoice_finalized').map((e: any) => [`${e.account}/${e.vat_rate ?? ''}`, e.debit - e.credit]));
      assert.deepEqual(fin, {
        'accounts_receivable/': 15_276,
        'revenue/reduced': -2140,
        'revenue:3010/standard': -10_000,
        'revenue/exempt': -500,
        'vat_payable:reduced/reduced': -236,
        'vat_payable:standard/standard': -2400,
      });
      await assertLedgerInvariants(env.db, m.id);
    } finally {
      await ok(m.call('POST', '/v1/vat_settings', { body: { prices_include_vat: true } }));
    }
  });
});
