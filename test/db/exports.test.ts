// The accountant's exports (src/domain/exports, docs/exports.md) against a real, migrated
// database: known rows of every kind come out as CSV with a BOM, a header, integer amounts plus a
// formatted column and ISO 8601 instants, within the period (both days included), of the caller's
// merchant and mode only; the trial balance's closing figures equal GET /v1/trial_balance's; and
// 100,000 payments stream out while the live heap stays bounded (measured after forced
// collections, so the check is about memory held, not about time).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parse } from 'csv-parse/sync';
import { createDb, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase, migrate } from '../../src/db/migrate';
import { scopedDb, type Tenant } from '../../src/db/tenancy';
import { csvExportStream, exportColumns, type CsvExportKind } from '../../src/domain/exports/csv-export';
import { parseExportPeriod } from '../../src/domain/exports/period';
import { trialBalance } from '../../src/domain/ledger/trial-balance';
import { ApiError } from '../../src/errors';

const BOM = '\uFEFF';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function rowsOf(csv: string): Array<Record<string, string>> {
  assert.ok(csv.startsWith(BOM), 'UTF-8 with a byte order mark');
  return parse(csv.slice(1), { columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>;
}

describe('exports on a real database', function () {
  this.timeout(300_000);
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/billing_exports_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = base.toString();
  let db: Db;
  const M = 'merch_exportsA';
  const OTHER = 'merch_exportsB';
  const tenant: Tenant = { merchantId: M, mode: 'test' };
  const november = parseExportPeriod({ from: '2026-11-01', to: '2026-11-30' });
  const csv = async (kind: CsvExportKind, period = november, t = tenant) => text(csvExportStream(scopedDb(db, t), t, kind, period, { batchSize: 2 }));

  async function invoice(
    id: string,
    number: string | null,
    finalizedAt: Date | null,
    opts: { merchantId?: string; mode?: 'test' | 'live'; status?: 'open' | 'paid' | 'draft' } = {},
  ) {
    return db.invoice.create({
      data: {
        id,
        merchantId: opts.merchantId ?? M,
        mode: opts.mode ?? 'test',
        customerId: opts.merchantId || opts.mode === 'live' ? null : 'cus_exp1',
        number,
        status: opts.status ?? 'open',
        billingReason: 'subscription_cycle',
        collectionMethod: 'charge_automatically',
        currency: 'ISK',
        subtotal: 4990n,
        total: 4990n,
        vatAmount: 966n,
        amountDue: 4990n,
        periodStart: new Date('2026-11-01T00:00:00Z'),
        periodEnd: new Date('2026-12-01T00:00:00Z'),
        finalizedAt,
      },
    });
  }

  async function posting(id: string, at: Date, amount: bigint, debit: string, credit: string, merchantId = M) {
    await db.ledgerPosting.create({
      data: {
        id,
        merchantId,
        mode: 'test',
        kind: 'invoice_finalized',
        sourceKey: `invoice_finalized:${id}`,
        currency: 'ISK',
        amount,
        occurredAt: at,
        createdAt: at,
        entries: {
          create: [
            { id: `${id}_d`, account: debit, debit: amount, currency: 'ISK', occurredAt: at, createdAt: at },
            { id: `${id}_c`, account: credit, credit: amount, currency: 'ISK', occurredAt: at, createdAt: at },
          ],
        },
      },
    });
  }

  before(async () => {
    await ensureDatabase(url);
    await migrate(url);
    db = createDb(url, { poolSize: 2 });
    for (const m of [M, OTHER]) await db.merchant.create({ data: { id: m, name: m, defaultCurrency: 'ISK' } });
    await db.customer.create({ data: { id: 'cus_exp1', merchantId: M, mode: 'test', email: 'jon@example.is', name: 'Jón Þórsson, "Ísbúð"', kennitala: '0102694009' } });
    await invoice('in_exp_oct', 'A-0001', new Date('2026-10-31T23:59:59.999Z'));
    await invoice('in_exp_first', 'A-0002', new Date('2026-11-01T00:00:00.000Z'));
    await invoice('in_exp_b', 'A-0004', new Date('2026-11-15T10:00:00.000Z'));
    await invoice('in_exp_a', 'A-0003', new Date('2026-11-15T10:00:00.000Z')); // same instant: ordered by id
    await invoice('in_exp_last', 'A-0005', new Date('2026-11-30T23:59:59.999Z'));
    await invoice('in_exp_dec', 'A-0006', new Date('2026-12-01T00:00:00.000Z'));
    await invoice('in_exp_draft', null, null, { status: 'draft' });
    await invoice('in_exp_live', 'L-0001', new Date('2026-11-10T00:00:00.000Z'), { mode: 'live' });
    await invoice('in_exp_other', 'B-0001', new Date('2026-11-10T00:00:00.000Z'), { merchantId: OTHER });
    await db.payment.create({
      data: {
        id: 'pay_exp1',
        merchantId: M,
        mode: 'test',
        customerId: 'cus_exp1',
        amount: 4990n,
        currency: 'ISK',
        status: 'succeeded',
        createdAt: new Date('2026-11-02T00:00:00Z'),
      },
    });
    await db.payment.create({
      data: { id: 'pay_exp2', merchantId: M, mode: 'test', amount: 1234n, currency: 'EUR', status: 'failed', createdAt: new Date('2026-11-03T00:00:00Z') },
    });
    await db.refund.create({
      data: { id: 're_exp1', merchantId: M, mode: 'test', paymentId: 'pay_exp1', amount: 1000n, currency: 'ISK', status: 'succeeded', createdAt: new Date('2026-11-04T00:00:00Z') },
    });
    await db.creditNote.create({
      data: { id: 'cn_exp1', merchantId: M, mode: 'test', invoiceId: 'in_exp_b', refundId: 're_exp1', amount: 1000n, currency: 'ISK', createdAt: new Date('2026-11-04T00:00:01Z') },
    });
    await posting('lp_exp_sep', new Date('2026-09-10T00:00:00Z'), 10_000n, 'accounts_receivable', 'revenue');
    await posting('lp_exp_nov1', new Date('2026-11-05T00:00:00Z'), 4990n, 'accounts_receivable', 'revenue');
    await posting('lp_exp_nov2', new Date('2026-11-06T00:00:00Z'), 4990n, 'card_clearing', 'accounts_receivable');
    await posting('lp_exp_dec', new Date('2026-12-02T00:00:00Z'), 777n, 'accounts_receivable', 'revenue');
    await posting('lp_exp_other', new Date('2026-11-05T00:00:00Z'), 555n, 'accounts_receivable', 'revenue', OTHER);
  });

  after(async () => {
    await db?.$disconnect();
    await dropDatabase(url);
  });

  it('invoices: issued in the period (both days included), oldest first, across batches, with names, amounts and ISO instants', async () => {
    const out = await csv('invoices');
    const rows = rowsOf(out);
    assert.deepEqual(Object.keys(rows[0]!), [...exportColumns('invoices')]);
    assert.deepEqual(
      rows.map((r) => r.number),
      ['A-0002', 'A-0003', 'A-0004', 'A-0005'],
    );
    const r = rows[0]!;
    assert.equal(r.customer_name, 'Jón Þórsson, "Ísbúð"', 'quoted and UTF-8');
    assert.equal(r.customer_kennitala, '0102694009');
    assert.equal(r.total, '4990');
    assert.equal(r.total_formatted, '4.990 kr.');
    assert.equal(r.issued_at, '2026-11-01T00:00:00.000Z');
    assert.equal(r.due_date, '2026-11-01T00:00:00.000Z', 'a card invoice is due on its issue date (invoiceDueDate)');
    assert.ok(out.includes('\r\n'), 'CRLF line ends (RFC 4180)');
  });

  it('payments, refunds and credit notes of the period, each with its formatted amount', async () => {
    const payments = rowsOf(await csv('payments'));
    assert.deepEqual(
      payments.map((p) => [p.id, p.status, p.amount, p.amount_formatted, p.customer_name]),
      [
        ['pay_exp1', 'succeeded', '4990', '4.990 kr.', 'Jón Þórsson, "Ísbúð"'],
        ['pay_exp2', 'failed', '1234', '€12.34', ''],
      ],
    );
    const refunds = rowsOf(await csv('refunds'));
    assert.deepEqual(
      refunds.map((r) => [r.id, r.payment_id, r.amount, r.amount_formatted, r.customer_email]),
      [['re_exp1', 'pay_exp1', '1000', '1.000 kr.', 'jon@example.is']],
    );
    const notes = rowsOf(await csv('credit_notes'));
    assert.deepEqual(
      notes.map((n) => [n.id, n.invoice_number, n.refund_id, n.amount, n.customer_name]),
      [['cn_exp1', 'A-0004', 're_exp1', '1000', 'Jón Þórsson, "Ísbúð"']],
    );
  });

  it('ledger entries of the period balance; the trial balance opens, moves and closes as GET /v1/trial_balance says', async () => {
    const entries = rowsOf(await csv('ledger_entries'));
    assert.equal(entries.length, 4);
    const sum = (k: 'debit' | 'credit') => entries.reduce((s, e) => s + Number(e[k]), 0);
    assert.equal(sum('debit'), sum('credit'));
    assert.equal(entries[0]!.posting_kind, 'invoice_finalized');

    const tb = rowsOf(await csv('trial_balance'));
    const line = (account: string) => tb.find((r) => r.account === account)!;
    assert.deepEqual(
      ['opening_balance', 'period_debit', 'period_credit', 'closing_balance'].map((k) => line('accounts_receivable')[k]),
      ['10000', '4990', '4990', '10000'],
    );
    assert.deepEqual(
      ['opening_balance', 'period_debit', 'period_credit', 'closing_balance', 'closing_balance_formatted'].map((k) => line('revenue')[k]),
      ['-10000', '0', '4990', '-14990', '-14.990 kr.'],
    );
    const total = tb.find((r) => r.line === 'total')!;
    assert.equal(total.period_debit, total.period_credit);
    assert.equal(total.closing_balance, '0');
    const api = await trialBalance(scopedDb(db, tenant), tenant, { asOf: new Date(november.to.getTime() - 1) });
    for (const a of api.currencies[0]!.accounts) assert.equal(line(a.account).closing_balance, String(a.debit - a.credit), a.account);
  });

  it('another merchant and the other mode see only their own rows', async () => {
    const other: Tenant = { merchantId: OTHER, mode: 'test' };
    assert.deepEqual(
      rowsOf(await csv('invoices', november, other)).map((r) => r.number),
      ['B-0001'],
    );
    const live: Tenant = { merchantId: M, mode: 'live' };
    assert.deepEqual(
      rowsOf(await csv('invoices', november, live)).map((r) => r.number),
      ['L-0001'],
    );
    assert.deepEqual(rowsOf(await csv('ledger_entries', november, live)), []);
    assert.equal((await csv('payments', november, live)).trimEnd(), `${BOM}${exportColumns('payments').join(',')}`, 'an empty period still has its header');
  });

  it('a period is two valid days, the second not before the first', () => {
    for (const [q, param] of [
      [{ to: '2026-11-30' }, 'from'],
      [{ from: '2026-11-01' }, 'to'],
      [{ from: '2026-02-30', to: '2026-03-01' }, 'from'],
      [{ from: '2026-11-01T00:00:00Z', to: '2026-11-30' }, 'from'],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'to'],
    ] as const) {
      assert.throws(
        () => parseExportPeriod(q),
        (e: unknown) => e instanceof ApiError && e.code === 'validation_failed' && e.param === param,
        JSON.stringify(q),
      );
    }
    const one = parseExportPeriod({ from: '2026-11-01', to: '2026-11-01' });
    assert.equal(one.to.toISOString(), '2026-11-02T00:00:00.000Z');
  });

  it('100,000 payments stream out with the live heap bounded (one batch, not the year)', async function () {
    const N = 100_000;
    await db.$executeRaw`
      INSERT INTO payments (id, merchant_id, mode, customer_id, amount, currency, status, description, created_at, updated_at)
      SELECT 'pay_bulk' || lpad(g::text, 6, '0'), ${M}, 'test'::"Mode", 'cus_exp1', 1000 + g, 'ISK', 'succeeded'::"PaymentStatus",
             'Áskrift nóvember ' || g, TIMESTAMPTZ '2026-06-01T00:00:00Z' + (g || ' minutes')::interval, now()
        FROM generate_series(1, ${N}) AS g`;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const period = parseExportPeriod({ from: '2026-06-01', to: '2026-08-31' });
    // Warm up (query plans, the CSV writer's code) on a day of the same rows, then measure.
    await text(csvExportStream(scopedDb(db, tenant), tenant, 'payments', parseExportPeriod({ from: '2026-06-01', to: '2026-06-01' })));
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let lines = 0;
    let bytes = 0;
    let chunks = 0;
    let last = '';
    for await (const chunk of csvExportStream(scopedDb(db, tenant), tenant, 'payments', period)) {
      const s = (chunk as Buffer).toString('utf8');
      bytes += Buffer.byteLength(s);
      for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) lines++;
      last = (last + s).slice(-200);
      if (++chunks % 8000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    assert.equal(lines, N + 1, 'a header and every payment');
    assert.ok(last.includes('pay_bulk100000,succeeded,cus_exp1'), last);
    // The CSV alone is ~20 MB and the rows as Prisma objects several times that: holding them
    // would exceed the bound many times over. One batch of 1,000 rows is well under it.
    assert.ok(bytes > 15_000_000, `CSV of ${bytes} bytes`);
    const bound = 24 * 1024 * 1024;
    assert.ok(peak < bound, `live heap grew by ${(peak / 1048576).toFixed(1)} MB while exporting ${N} rows`);
    // The bound can fail: the same rows read at once hold far more than it.
    gc();
    const before = process.memoryUsage().heapUsed;
    const all = await scopedDb(db, tenant).payment.findMany({ where: { createdAt: { gte: period.from, lt: period.to } } });
    gc();
    const held = process.memoryUsage().heapUsed - before;
    assert.equal(all.length, N);
    assert.ok(held > bound, `all rows at once hold ${(held / 1048576).toFixed(1)} MB`);
    console.log(
      `      ${N} payments: ${(bytes / 1048576).toFixed(1)} MB of CSV in ${chunks} chunks; live heap growth while streaming at most ${(peak / 1048576).toFixed(1)} MB; the rows read at once hold ${(held / 1048576).toFixed(1)} MB`,
    );
  });
});
