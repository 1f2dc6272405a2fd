// The home page's numbers (src/domain/dashboard-metrics/billing-overview.ts, docs/dashboard.md)
// against a real, migrated database: known subscriptions, invoices and payments are written
// directly, and every figure is asserted exactly — MRR with day/week/year prices scaled to a
// month and rounded once, paused/canceled/unpaid left out, trialing and past-due counted, metered
// prices left out, deleted items ignored, currencies, modes and merchants kept apart.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase, migrate } from '../../src/db/migrate';
import { scopedDb, type Tenant } from '../../src/db/tenancy';
import { billingOverview } from '../../src/domain/dashboard-metrics/billing-overview';
import { needsAttention } from '../../src/domain/dashboard-metrics/needs-attention';
import { invoiceDueDateSql, pastDueSql } from '../../src/domain/invoices/past-due-sql';
import { amountRemaining } from '../../src/billing/invoice-amounts';
import { invoiceDueDate, isPastDue } from '../../src/billing/invoice-due';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const DAY = 86_400_000;

describe('dashboard metrics on a real database', function () {
  this.timeout(120_000);
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/billing_metrics_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = base.toString();
  let db: Db;
  let seq = 0;
  const id = (prefix: string) => `${prefix}_metrics${String(++seq).padStart(4, '0')}`;
  const M = 'merch_metricsA';
  const OTHER = 'merch_metricsB';

  async function customer(merchantId: string, mode: 'test' | 'live') {
    return db.customer.create({ data: { id: id('cus'), merchantId, mode, email: `c${seq}@example.is` } });
  }

  async function price(
    merchantId: string,
    mode: 'test' | 'live',
    currency: string,
    unitAmount: number | null,
    opts: { metered?: boolean; interval?: 'day' | 'week' | 'month' | 'year'; count?: number } = {},
  ) {
    const product = await db.product.create({ data: { id: id('prod'), merchantId, mode, name: `Plan ${seq}` } });
    return db.price.create({
      data: {
        id: id('price'),
        merchantId,
        mode,
        productId: product.id,
        currency,
        type: 'recurring',
        unitAmount: unitAmount === null ? null : BigInt(unitAmount),
        recurringInterval: opts.interval ?? 'month',
        recurringIntervalCount: opts.count ?? 1,
        recurringUsageType: opts.metered ? 'metered' : 'licensed',
      },
    });
  }

  /** A subscription with one item per [unit amount, quantity] (a `deleted` item is removed). */
  async function subscription(
    status: 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'paused',
    items: Array<{ amount: number | null; quantity?: number; metered?: boolean; deleted?: boolean }>,
    opts: {
      currency?: string;
      interval?: 'day' | 'week' | 'month' | 'year';
      count?: number;
      merchantId?: string;
      mode?: 'test' | 'live';
      createdAt?: Date;
      canceledAt?: Date;
    } = {},
  ) {
    const merchantId = opts.merchantId ?? M;
    const mode = opts.mode ?? 'test';
    const currency = opts.currency ?? 'ISK';
    const c = await customer(merchantId, mode);
    const start = new Date('2026-06-01T00:00:00.000Z');
    const sub = await db.subscription.create({
      data: {
        id: id('sub'),
        merchantId,
        mode,
        customerId: c.id,
        status,
        collectionMethod: 'charge_automatically',
        currency,
        interval: opts.interval ?? 'month',
        intervalCount: opts.count ?? 1,
        billingCycleAnchor: start,
        startDate: start,
        currentPeriodStart: start,
        currentPeriodEnd: new Date('2026-07-01T00:00:00.000Z'),
        createdAt: opts.createdAt ?? new Date('2026-06-01T00:00:00.000Z'),
        canceledAt: opts.canceledAt ?? null,
      },
    });
    for (const it of items) {
      const p = await price(merchantId, mode, currency, it.amount, { metered: it.metered, interval: opts.interval, count: opts.count });
      await db.subscriptionItem.create({
        data: {
          id: id('si'),
          merchantId,
          mode,
          subscriptionId: sub.id,
          priceId: p.id,
          quantity: it.quantity ?? 1,
          deletedAt: it.deleted ? new Date('2026-06-05T00:00:00.000Z') : null,
        },
      });
    }
    return sub;
  }

  async function invoice(
    status: 'open' | 'paid' | 'void' | 'uncollectible',
    amounts: { due: number; paid?: number },
    opts: {
      currency?: string;
      paidAt?: Date;
      dueDate?: Date;
      merchantId?: string;
      mode?: 'test' | 'live';
      /** A bank claim (send_invoice) unless `card`. */
      card?: { finalizedAt: Date; attempts: number };
    } = {},
  ) {
    return db.invoice.create({
      data: {
        id: id('in'),
        merchantId: opts.merchantId ?? M,
        mode: opts.mode ?? 'test',
        billingReason: 'manual',
        collectionMethod: opts.card ? 'charge_automatically' : 'send_invoice',
        currency: opts.currency ?? 'ISK',
        status,
        periodStart: new Date('2026-01-01T00:00:00.000Z'),
        periodEnd: new Date('2026-01-01T00:00:00.000Z'),
        subtotal: BigInt(amounts.due),
        total: BigInt(amounts.due),
        amountDue: BigInt(amounts.due),
        amountPaid: BigInt(amounts.paid ?? 0),
        paidAt: opts.paidAt ?? null,
        dueDate: opts.dueDate ?? null,
        finalizedAt: opts.card?.finalizedAt ?? null,
        attemptCount: opts.card?.attempts ?? 0,
      },
    });
  }

  async function payment(status: 'failed' | 'succeeded', createdAt: Date, currency = 'ISK') {
    return db.payment.create({ data: { id: id('pay'), merchantId: M, mode: 'test', amount: 1000n, currency, status, createdAt } });
  }

  before(async () => {
    await ensureDatabase(url);
    await migrate(url);
    db = createDb(url, { poolSize: 2 });
    for (const m of [M, OTHER]) await db.merchant.create({ data: { id: m, name: m, defaultCurrency: 'ISK' } });

    // In the ISK MRR:
    await subscription('active', [
      { amount: 4900, quantity: 2 },
      { amount: 100_000, deleted: true },
    ]); // 9 800 (the deleted item is not)
    await subscription('trialing', [{ amount: 120_000 }], { interval: 'year' }); // 10 000
    await subscription('past_due', [{ amount: 1000 }], { interval: 'week', count: 2 }); // 1000 × 52 / 24 = 2 166.67
    await subscription('active', [{ amount: 10, quantity: 3 }], { interval: 'day' }); // 30 × 30 = 900
    await subscription('active', [{ amount: 999 }], { interval: 'month', count: 3 }); // 333
    await subscription('active', [{ amount: 6 }], { interval: 'year' }); // 0.5
    await subscription('active', [{ amount: 6 }], { interval: 'year' }); // 0.5 — rounded once with the rest, not each
    await subscription('active', [{ amount: 5, metered: true }]); // metered: counted as billing, not in the figure
    // Not in it:
    await subscription('paused', [{ amount: 5000 }]);
    await subscription('canceled', [{ amount: 7000 }], { createdAt: new Date('2026-02-10T00:00:00.000Z'), canceledAt: new Date('2026-05-10T00:00:00.000Z') });
    await subscription('unpaid', [{ amount: 3000 }]);
    await subscription('active', [{ amount: 1500 }], { currency: 'EUR' }); // the EUR figure
    await subscription('active', [{ amount: 50_000 }], { mode: 'live' });
    await subscription('active', [{ amount: 50_000 }], { merchantId: OTHER });

    // Revenue: paid invoices by the UTC month they were paid in.
    await invoice('paid', { due: 5000, paid: 5000 }, { paidAt: new Date('2026-06-02T10:00:00.000Z') });
    await invoice('paid', { due: 3000, paid: 3000 }, { paidAt: new Date('2026-05-20T10:00:00.000Z') });
    await invoice('paid', { due: 1000, paid: 1000 }, { paidAt: new Date('2026-05-31T23:30:00.000Z') }); // still May in UTC
    await invoice('paid', { due: 800, paid: 800 }, { paidAt: new Date('2026-06-03T00:00:00.000Z'), currency: 'EUR' });
    await invoice('paid', { due: 9000, paid: 9000 }, { paidAt: new Date('2025-06-30T12:00:00.000Z') }); // before the 12 months shown
    await invoice('paid', { due: 9000, paid: 9000 }, { paidAt: new Date('2026-06-02T10:00:00.000Z'), mode: 'live' });
    await invoice('paid', { due: 9000, paid: 9000 }, { paidAt: new Date('2026-06-02T10:00:00.000Z'), merchantId: OTHER });

    // Past due (isPastDue, src/billing/invoice-due.ts), by whole days past the due date.
    // Bank claims: open, due date passed.
    await invoice('open', { due: 2000 }, { dueDate: new Date(NOW.getTime() - 5 * DAY) }); // 0–7 days
    await invoice('open', { due: 100 }, { dueDate: new Date(NOW.getTime() - 7 * DAY) }); // exactly 7 days: still 0–7
    await invoice('open', { due: 7000, paid: 1000 }, { dueDate: new Date(NOW.getTime() - 45 * DAY) }); // 31–60 days, 6 000 left
    await invoice('open', { due: 500 }, { dueDate: new Date(NOW.getTime() - 165 * DAY) }); // over 60 days
    await invoice('open', { due: 4000 }, { dueDate: new Date(NOW.getTime() + 5 * DAY) }); // not due yet
    await invoice('open', { due: 4000 }, { dueDate: new Date(NOW.getTime() - 5 * DAY), currency: 'EUR' });
    await invoice('paid', { due: 4000, paid: 4000 }, { dueDate: new Date(NOW.getTime() - 5 * DAY), paidAt: new Date(NOW.getTime() - 6 * DAY) });
    // Card invoices: due on their issue date; past due once an attempt has failed.
    await invoice('open', { due: 4990 }, { card: { finalizedAt: new Date(NOW.getTime() - 3 * DAY), attempts: 1 } }); // declined: 0–7 days
    await invoice('open', { due: 1000 }, { card: { finalizedAt: new Date(NOW.getTime() - 20 * DAY), attempts: 3 } }); // in retry: 8–30 days
    await invoice('open', { due: 2500 }, { card: { finalizedAt: new Date(NOW.getTime() - 1 * DAY), attempts: 0 } }); // not charged yet: not past due
    await invoice('void', { due: 4990 }, { card: { finalizedAt: new Date(NOW.getTime() - 3 * DAY), attempts: 1 } }); // void: owes 0
    await invoice('uncollectible', { due: 4990 }, { card: { finalizedAt: new Date(NOW.getTime() - 40 * DAY), attempts: 4 } }); // written off: owes 0
    await invoice('void', { due: 3000 }, { dueDate: new Date(NOW.getTime() - 9 * DAY) }); // a void bank claim: owes 0

    // Failed payments by the month they were made (a count, whatever the currency).
    await payment('failed', new Date('2026-06-03T00:00:00.000Z'));
    await payment('failed', new Date('2026-04-01T00:00:00.000Z'), 'EUR');
    await payment('succeeded', new Date('2026-06-03T00:00:00.000Z'));
  });

  after(async () => {
    await db?.$disconnect();
    await dropDatabase(url);
  });

  const tenant: Tenant = { merchantId: M, mode: 'test' };
  const months = ['2025-07', '2025-08', '2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];
  const byMonth = (values: Record<string, number>) => months.map((m) => values[m] ?? 0);

  it('ISK: MRR normalised to a month and rounded once, the subscriptions billing, revenue, new/canceled, failed payments, past due and its ageing', async () => {
    const o = await billingOverview(scopedDb(db, tenant), tenant, { currency: 'ISK', now: NOW });
    assert.equal(o.currency, 'ISK');
    assert.deepEqual(o.months, months);
    // 9 800 + 10 000 + 2 166.67 + 900 + 333 + 0.5 + 0.5 = 23 200.67 → 23 201 (each rounded alone: 23 202).
    assert.equal(o.mrr, 23_201);
    assert.equal(o.activeSubscriptions, 8, 'trialing, active and past-due ISK subscriptions, the metered one too');
    assert.equal(o.meteredSubscriptions, 1);
    // June: 5 000, and the 4 000 invoice paid on 9 June (listed with the past-due ones, but paid).
    assert.deepEqual(o.revenueByMonth, byMonth({ '2026-05': 4000, '2026-06': 9000 }));
    // Counts are of every subscription of the mode, whatever its currency (12 in test mode, the canceled one created in February).
    assert.deepEqual(o.newSubscriptionsByMonth, byMonth({ '2026-02': 1, '2026-06': 11 }));
    assert.deepEqual(o.canceledSubscriptionsByMonth, byMonth({ '2026-05': 1 }));
    assert.deepEqual(o.failedPaymentsByMonth, byMonth({ '2026-04': 1, '2026-06': 1 }));
    // Bank claims 2 000 + 100 + 6 000 (of 7 000) + 500, and the declined card invoices 4 990 + 1 000.
    assert.deepEqual(o.pastDue, { count: 6, amount: 14_590 });
    assert.deepEqual(o.pastDueAging, { labels: ['0–7 days', '8–30 days', '31–60 days', 'over 60 days'], counts: [3, 1, 1, 1], amounts: [7090, 1000, 6000, 500] });
  });

  it('EUR is its own figure; live mode and another merchant see none of the test data', async () => {
    const eur = await billingOverview(scopedDb(db, tenant), tenant, { currency: 'EUR', now: NOW });
    assert.deepEqual([eur.mrr, eur.activeSubscriptions, eur.meteredSubscriptions], [1500, 1, 0]);
    assert.deepEqual(eur.revenueByMonth, byMonth({ '2026-06': 800 }));
    assert.deepEqual(eur.pastDue, { count: 1, amount: 4000 });

    const liveTenant: Tenant = { merchantId: M, mode: 'live' };
    const live = await billingOverview(scopedDb(db, liveTenant), liveTenant, { currency: 'ISK', now: NOW });
    assert.deepEqual([live.mrr, live.activeSubscriptions, live.pastDue.count], [50_000, 1, 0]);
    assert.deepEqual(live.revenueByMonth, byMonth({ '2026-06': 9000 }));

    const otherTenant: Tenant = { merchantId: OTHER, mode: 'test' };
    const other = await billingOverview(scopedDb(db, otherTenant), otherTenant, { currency: 'ISK', now: NOW });
    assert.deepEqual([other.mrr, other.activeSubscriptions], [50_000, 1]);
    assert.deepEqual(other.failedPaymentsByMonth, byMonth({}));
  });

  it('past due and the due date: the SQL form agrees with isPastDue and invoiceDueDate on every row; void and uncollectible owe 0', async () => {
    const rows = await db.invoice.findMany({ where: { merchantId: M, mode: 'test' }, orderBy: { id: 'asc' } });
    const sql = await db.$queryRaw<Array<{ id: string; past_due: boolean; due: Date | null }>>`
      SELECT id, ${pastDueSql(NOW)} AS past_due, ${invoiceDueDateSql()} AS due FROM invoices WHERE merchant_id = ${M} AND mode = 'test' ORDER BY id`;
    assert.equal(sql.length, rows.length);
    for (const [i, r] of rows.entries()) {
      assert.equal(sql[i]!.past_due, isPastDue(r, NOW), `${r.id} ${r.status} ${r.collectionMethod}`);
      assert.equal(sql[i]!.due?.toISOString() ?? null, invoiceDueDate(r)?.toISOString() ?? null, r.id);
    }
    const pastDue = rows.filter((r) => isPastDue(r, NOW) && r.currency === 'ISK');
    assert.equal(pastDue.length, 6);
    assert.equal(
      pastDue.reduce((sum, r) => sum + amountRemaining(r), 0),
      14_590,
    );
    for (const r of rows.filter((x) => x.status === 'void' || x.status === 'uncollectible')) {
      assert.equal(amountRemaining(r), 0, r.id);
      assert.equal(isPastDue(r, NOW), false, r.id);
    }
    // A card invoice is due on its issue date; a bank claim on its own due date.
    const card = rows.find((r) => r.collectionMethod === 'charge_automatically' && r.attemptCount === 1 && r.status === 'open')!;
    assert.equal(invoiceDueDate(card)?.toISOString(), new Date(NOW.getTime() - 3 * DAY).toISOString());
  });

  it('the attention panel lists the same past-due invoices as the figure, the longest overdue first', async () => {
    const attention = await needsAttention(scopedDb(db, tenant), tenant, NOW);
    const expected = (await db.invoice.findMany({ where: { merchantId: M, mode: 'test' } }))
      .filter((r) => isPastDue(r, NOW))
      .sort((x, y) => invoiceDueDate(x)!.getTime() - invoiceDueDate(y)!.getTime() || (x.id < y.id ? -1 : 1))
      .slice(0, 5)
      .map((r) => r.id);
    assert.equal(expected.length, 5);
    assert.deepEqual(
      attention.pastDueInvoices.map((i) => i.id),
      expected,
    );
  });
});
