// The dashboard's search (src/domain/customers/search-customers.ts, listInvoices' `search` in
// src/domain/invoices/find-invoices.ts) against a real database: customers by name, e-mail,
// kennitala (with or without its hyphen) and external id; invoices by number or by their
// customer; one merchant and mode only; text that looks like SQL is only text.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase, migrate } from '../../src/db/migrate';
import { scopedDb, type Tenant } from '../../src/db/tenancy';
import { searchCustomers } from '../../src/domain/customers/search-customers';
import { listInvoices } from '../../src/domain/invoices/find-invoices';

describe('dashboard search on a real database', function () {
  this.timeout(120_000);
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/billing_search_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = base.toString();
  let db: Db;
  const A = 'merch_searchA';
  const B = 'merch_searchB';
  const tenant: Tenant = { merchantId: A, mode: 'test' };
  let seq = 0;

  async function customer(merchantId: string, mode: 'test' | 'live', id: string, data: { name: string; email: string; kennitala?: string; externalId?: string }) {
    await db.customer.create({ data: { id, merchantId, mode, ...data, createdAt: new Date(Date.UTC(2026, 0, 1, 0, ++seq)) } });
    return id;
  }

  async function invoice(merchantId: string, mode: 'test' | 'live', id: string, customerId: string | null, number: string | null) {
    await db.invoice.create({
      data: {
        id,
        merchantId,
        mode,
        customerId,
        number,
        status: number ? 'open' : 'draft',
        billingReason: 'manual',
        currency: 'ISK',
        periodStart: new Date('2026-01-01T00:00:00.000Z'),
        periodEnd: new Date('2026-01-01T00:00:00.000Z'),
        createdAt: new Date(Date.UTC(2026, 0, 2, 0, ++seq)),
      },
    });
  }

  before(async () => {
    await ensureDatabase(url);
    await migrate(url);
    db = createDb(url, { poolSize: 2 });
    for (const m of [A, B]) await db.merchant.create({ data: { id: m, name: m, defaultCurrency: 'ISK' } });
    await customer(A, 'test', 'cus_jon', { name: 'Jón Jónsson', email: 'jon@example.is', kennitala: '0102694009', externalId: 'crm-17' });
    await customer(A, 'test', 'cus_gudrun', { name: 'Guðrún Ósk Þórsdóttir', email: 'gudrun@dæmi.is', kennitala: '1203872219' });
    await customer(A, 'live', 'cus_jon_live', { name: 'Jón Live', email: 'jon.live@example.is', kennitala: '0102694009' });
    await customer(B, 'test', 'cus_jon_b', { name: 'Jón hjá B', email: 'jon@b.is', kennitala: '0102694009' });
    await invoice(A, 'test', 'in_jon1', 'cus_jon', 'INV-000001');
    await invoice(A, 'test', 'in_gudrun', 'cus_gudrun', 'INV-000002');
    await invoice(A, 'test', 'in_jon2', 'cus_jon', 'INV-000042');
    await invoice(A, 'test', 'in_draft', 'cus_gudrun', null);
    await invoice(A, 'live', 'in_live', 'cus_jon_live', 'INV-000042');
    await invoice(B, 'test', 'in_b', 'cus_jon_b', 'INV-000042');
  });

  after(async () => {
    await db?.$disconnect();
    await dropDatabase(url);
  });

  const customers = async (q: string) => (await searchCustomers(scopedDb(db, tenant), q, { limit: 25 })).data.map((c) => c.id);
  const invoices = async (q: string, t: Tenant = tenant) => (await listInvoices(scopedDb(db, t), { search: q }, { limit: 25 })).data.map((i) => i.id);

  it('customers: by name (any case, Icelandic letters), e-mail, kennitala with or without hyphen, external id; this merchant and mode only', async () => {
    assert.deepEqual(await customers('jón'), ['cus_jon']);
    assert.deepEqual(await customers('ÞÓRSDÓTTIR'), ['cus_gudrun']);
    assert.deepEqual(await customers('gudrun@dæmi'), ['cus_gudrun']);
    assert.deepEqual(await customers('010269-4009'), ['cus_jon']);
    assert.deepEqual(await customers('1203872219'), ['cus_gudrun']);
    assert.deepEqual(await customers('CRM-17'), ['cus_jon']);
    assert.deepEqual(await customers('  '), ['cus_gudrun', 'cus_jon'], 'empty search: every customer, newest first');
    assert.deepEqual(await customers('nobody'), []);
  });

  it('invoices: by number (part of it, any case) or by the customer’s name, e-mail or kennitala; newest first; this merchant and mode only', async () => {
    assert.deepEqual(await invoices('inv-000042'), ['in_jon2']);
    assert.deepEqual(await invoices('0000'), ['in_jon2', 'in_gudrun', 'in_jon1']);
    assert.deepEqual(await invoices('Jón Jónsson'), ['in_jon2', 'in_jon1']);
    assert.deepEqual(await invoices('gudrun@'), ['in_draft', 'in_gudrun']);
    assert.deepEqual(await invoices('010269-4009'), ['in_jon2', 'in_jon1']);
    assert.deepEqual(await invoices('INV-000042', { merchantId: A, mode: 'live' }), ['in_live']);
    assert.deepEqual(await invoices('INV-000042', { merchantId: B, mode: 'test' }), ['in_b']);
  });

  it('pages a search with the cursor, and treats quotes, percent signs and SQL as text', async () => {
    const first = await listInvoices(scopedDb(db, tenant), { search: 'inv-' }, { limit: 2 });
    assert.deepEqual([first.data.map((i) => i.id), first.hasMore], [['in_jon2', 'in_gudrun'], true]);
    const second = await listInvoices(scopedDb(db, tenant), { search: 'inv-' }, { limit: 2, startingAfter: 'in_gudrun' });
    assert.deepEqual([second.data.map((i) => i.id), second.hasMore], [['in_jon1'], false]);
    for (const q of ["' OR 1=1 --", '%', '_', "jón'); DROP TABLE invoices; --"]) {
      assert.deepEqual(await invoices(q), [], q);
      assert.deepEqual(await customers(q), [], q);
    }
    assert.equal(await db.invoice.count(), 6, 'still there');
    await customer(A, 'test', 'cus_percent', { name: '100% Ísbúð_ehf', email: 'pct@example.is' });
    assert.deepEqual(await customers('100%'), ['cus_percent'], 'a percent sign is found as itself');
    assert.deepEqual(await customers('ð_e'), ['cus_percent'], 'an underscore too');
  });
});
