// Hot paths lock a row and read it with one raw `SELECT * … FOR UPDATE` (src/db/raw-rows.ts):
// the row mapped by camelRow must equal what the model query gives, field for field and type
// for type, for every model read that way. A column added later with a name that is not the
// snake_case of its field fails here.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { Prisma } from '../../src/generated/prisma/client';
import { camelRow, jsonRows, type JsonModel } from '../../src/db/raw-rows';
import { invoiceNumberSql, formatInvoiceNumber } from '../../src/domain/invoices/invoice-number';
import { lockedSubscription } from '../../src/domain/subscriptions/lock-subscription';
import { scopedDb } from '../../src/db/tenancy';
import { attachCard, createCustomer, monthlyPrice, ok, subMerchant } from '../api/subscriptions/fixtures';

describe('raw rows in the shape of the models', function () {
  this.timeout(120_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('SELECT * mapped by camelRow equals the model query (subscriptions, invoices)', async () => {
    const m = await subMerchant(env, { currency: 'ISK' });
    const customer = await createCustomer(m);
    await attachCard(m, customer.id);
    const price = await monthlyPrice(m, 1500);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }], metadata: { plan: 'gold' } } }), 201);
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const scoped = scopedDb(env.db, tenant);

    // Each pair is read in one transaction with the row locked: the subscription's workflow is
    // finalizing and charging the first invoice meanwhile, and must not change it between the reads.
    const [sub, model] = await scoped.$transaction(async (tx) => [await lockedSubscription(tx, tenant, s.id), await tx.subscription.findFirst({ where: { id: s.id } })]);
    assert.deepEqual(sub, model);
    assert.equal(await scoped.$transaction((tx) => lockedSubscription(tx, { merchantId: m.id, mode: 'live' }, s.id)), null, 'the other mode');

    const { id: invoiceId } = await env.db.invoice.findFirstOrThrow({ where: { subscriptionId: s.id }, select: { id: true } });
    const [raw, invoice] = await env.db.$transaction(async (tx) => [
      (await tx.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM invoices WHERE id = ${invoiceId} FOR UPDATE`)[0]!,
      await tx.invoice.findUniqueOrThrow({ where: { id: invoiceId } }),
    ]);
    assert.deepEqual(camelRow(raw), invoice);
    assert.equal(typeof invoice.amountDue, 'bigint');
  });

  it('rows read as JSON (to_jsonb) mapped by jsonRows equal the model queries, for every model read that way', async () => {
    const m = await subMerchant(env, { currency: 'ISK' });
    const customer = await createCustomer(m);
    await attachCard(m, customer.id);
    await ok(m.call('POST', '/v1/vat_settings', { body: { prices_include_vat: false } }));
    await ok(m.call('POST', '/v1/meters', { body: { name: 'Calls', event_name: `calls_${m.id}`, aggregate_type: 'count' } }), 201);
    const price = await monthlyPrice(m, 1500);
    await ok(m.call('POST', '/v1/invoice_items', { body: { customer: customer.id, amount: 250, currency: 'ISK', description: 'setup' } }), 201);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    await ok(m.call('POST', '/v1/invoice_items', { body: { customer: customer.id, amount: 100, currency: 'ISK', description: 'pending' } }), 201);
    const where = { merchantId: m.id, mode: 'test' as const };
    // Waits until the first invoice is paid (the workflow is done with it), so no row moves between the reads.
    for (let i = 0; ; i++) {
      const paid = await env.db.invoice.count({ where: { ...where, subscriptionId: s.id, status: 'paid' } });
      if (paid > 0) break;
      if (i > 600) throw new Error('first invoice not paid');
      await new Promise((r) => setTimeout(r, 100));
    }
    const cases: Array<[JsonModel, string, () => Promise<unknown[]>]> = [
      ['Invoice', 'invoices', () => env.db.invoice.findMany({ where, orderBy: { id: 'asc' } })],
      ['InvoiceLine', 'invoice_lines', () => env.db.invoiceLine.findMany({ where, orderBy: { id: 'asc' } })],
      ['InvoiceItem', 'invoice_items', () => env.db.invoiceItem.findMany({ where, orderBy: { id: 'asc' } })],
      ['Payment', 'payments', () => env.db.payment.findMany({ where, orderBy: { id: 'asc' } })],
      ['Subscription', 'subscriptions', () => env.db.subscription.findMany({ where, orderBy: { id: 'asc' } })],
      ['SubscriptionItem', 'subscription_items', () => env.db.subscriptionItem.findMany({ where, orderBy: { id: 'asc' } })],
      ['Price', 'prices', () => env.db.price.findMany({ where, orderBy: { id: 'asc' } })],
      ['Product', 'products', () => env.db.product.findMany({ where, orderBy: { id: 'asc' } })],
      ['Meter', 'meters', () => env.db.meter.findMany({ where, orderBy: { id: 'asc' } })],
      ['VatSettings', 'vat_settings', () => env.db.vatSettings.findMany({ where, orderBy: { merchantId: 'asc' } })],
    ];
    for (const [model, table, query] of cases) {
      const [raw] = await env.db.$queryRaw<Array<{ rows: Array<Record<string, unknown>> | null }>>`
        SELECT json_agg(to_jsonb(t) ORDER BY t.merchant_id, ${Prisma.raw(model === 'VatSettings' ? 't.mode' : 't.id')}) AS rows
        FROM ${Prisma.raw(table)} t WHERE t.merchant_id = ${m.id} AND t.mode = 'test'`;
      const expected = await query();
      assert.ok(expected.length > 0, `${model}: rows to compare`);
      assert.deepEqual(jsonRows(model, raw!.rows), expected, model);
    }
  });

  it('invoice numbers formatted in SQL equal formatInvoiceNumber', async () => {
    for (const n of [1, 42, 999_999, 1_000_000, 12_345_678]) {
      const [row] = await env.db.$queryRaw<Array<{ number: string }>>`SELECT ${invoiceNumberSql(Prisma.sql`${n}::bigint`)} AS number`;
      assert.equal(row!.number, formatInvoiceNumber(n));
    }
  });
});
