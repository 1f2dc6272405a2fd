// The billing ledger through the API (docs/ledger.md): postings for every money event, in the
// same transaction; GET /v1/ledger_entries with its filters and paging; GET /v1/trial_balance;
// the database refusing unbalanced or edited postings.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError, newMerchant, type TestMerchant, liveMerchant, type LiveMerchant } from '../../support/api';
import { assertLedgerInvariants } from '../../support/ledger-invariants';
import { scopedDb } from '../../../src/db/tenancy';
import { postLedger, UnbalancedPostingError } from '../../../src/domain/ledger/post-ledger';
import { CARDS, attachCard, createCustomer, paidPayment, settledRefund } from '../payments/fixtures';
import * as subs from '../subscriptions/fixtures';

type Entry = { account: string; debit: number; credit: number; kind: string; vat_rate: string | null };
const sides = (entries: Entry[]) => entries.map((e) => [e.kind, e.account, e.debit, e.credit]).sort((a, b) => String(a).localeCompare(String(b)));

describe('billing ledger', function () {
  this.timeout(120_000);
  let env: TestEnv, m: LiveMerchant, other: TestMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(liveMerchant, newMerchant)));

  it('a paid payment posts its invoice (receivable, revenue, VAT) and its collection; a refund posts the credit note and the payout', async () => {
    const { customer, payment } = await paidPayment(m, 10_000);
    const inv = (await m.call('GET', `/v1/invoices/${payment.invoice}`)).body;
    // 10000 includes VAT at 24 %: round(10000 × 24/124) = round(1935.48) = 1935
    assert.deepEqual([inv.total, inv.vat_amount, inv.total_excluding_vat, inv.prices_include_vat], [10_000, 1935, 8065, true]);
    assert.deepEqual(inv.vat_breakdown, [{ vat_rate: 'standard', percent: 24, amount_excluding_vat: 8065, vat_amount: 1935, amount_including_vat: 10_000 }]);
    assert.deepEqual(
      inv.lines.map((l: any) => [l.vat_rate, l.vat_percent, l.vat_amount]),
      [['standard', 24, 1935]],
    );

    let entries = (await m.call('GET', `/v1/ledger_entries?invoice=${inv.id}`)).body.data as Entry[];
    assert.deepEqual(
      sides(entries),
      sides([
        { kind: 'invoice_finalized', account: 'accounts_receivable', debit: 10_000, credit: 0, vat_rate: null },
        { kind: 'invoice_finalized', account: 'revenue', debit: 0, credit: 8065, vat_rate: 'standard' },
        { kind: 'invoice_finalized', account: 'vat_payable:standard', debit: 0, credit: 1935, vat_rate: 'standard' },
        { kind: 'invoice_paid', account: 'card_clearing', debit: 10_000, credit: 0, vat_rate: null },
        { kind: 'invoice_paid', account: 'accounts_receivable', debit: 0, credit: 10_000, vat_rate: null },
      ]),
    );
    assert.ok(entries.every((e: any) => /^be_/.test(e.id) && /^bp_/.test(e.posting) && e.customer === customer.id && e.currency === 'ISK'));

    const refund = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 2500 } })).body;
    assert.equal((await settledRefund(env, m, refund.id)).status, 'succeeded');
    const cn = (await m.call('GET', `/v1/credit_notes?invoice=${inv.id}`)).body.data[0];
    // round(2500 × 1935 / 10000) = round(483.75) = 484
    assert.deepEqual([cn.amount, cn.vat_amount], [2500, 484]);
    assert.deepEqual(cn.vat_breakdown, [{ vat_rate: 'standard', percent: 24, amount_excluding_vat: 2016, vat_amount: 484, amount_including_vat: 2500 }]);
    entries = (await m.call('GET', `/v1/ledger_entries?invoice=${inv.id}`)).body.data as Entry[];
    const later = entries.filter((e) => e.kind === 'credit_note' || e.kind === 'refund');
    assert.deepEqual(
      sides(later),
      sides([
        { kind: 'credit_note', account: 'revenue', debit: 2016, credit: 0, vat_rate: 'standard' },
        { kind: 'credit_note', account: 'vat_payable:standard', debit: 484, credit: 0, vat_rate: 'standard' },
        { kind: 'credit_note', account: 'accounts_receivable', debit: 0, credit: 2500, vat_rate: null },
        { kind: 'refund', account: 'accounts_receivable', debit: 2500, credit: 0, vat_rate: null },
        { kind: 'refund', account: 'card_clearing', debit: 0, credit: 2500, vat_rate: null },
      ]),
    );

    const tb = (await m.call('GET', `/v1/trial_balance?customer=${customer.id}`)).body;
    assert.equal(tb.object, 'trial_balance');
    const isk = tb.currencies.find((c: any) => c.currency === 'ISK');
    assert.equal(isk.total_debit, isk.total_credit);
    const bal = Object.fromEntries(isk.accounts.map((a: any) => [a.account, a.balance]));
    assert.deepEqual(bal, { accounts_receivable: 0, card_clearing: 7500, revenue: -(8065 - 2016), 'vat_payable:standard': -(1935 - 484) });
    await assertLedgerInvariants(env.db, m.id);
  });

  it('a declined payment that is canceled voids its invoice: the finalized posting is reversed exactly', async () => {
    const customer = await createCustomer(m);
    const pm = await attachCard(m, customer.id, CARDS.declined).catch(() => null);
    const body = pm ? { amount: 4990, currency: 'ISK', customer: customer.id, payment_method: pm.id } : { amount: 4990, currency: 'ISK', customer: customer.id };
    const p = (await m.call('POST', '/v1/payments', { body })).body;
    assert.notEqual(p.status, 'succeeded');
    let ar = (await m.call('GET', `/v1/ledger_entries?invoice=${p.invoice}&account=accounts_receivable`)).body.data;
    assert.deepEqual(
      ar.map((e: any) => [e.kind, e.debit, e.credit]),
      [['invoice_finalized', 4990, 0]],
    );
    assert.equal((await m.call('GET', `/v1/invoices/${p.invoice}`)).body.amount_remaining, 4990);
    assert.equal((await assertLedgerInvariants(env.db, m.id)).receivable[customer.id], 4990); // open invoice
    assert.equal((await m.call('POST', `/v1/payments/${p.id}/cancel`)).status, 200);
    const voidInv = (await m.call('GET', `/v1/invoices/${p.invoice}`)).body;
    // void: no longer collectible, the receivable is reversed, nothing remains (docs/invoices.md)
    assert.deepEqual([voidInv.status, voidInv.amount_due, voidInv.amount_paid, voidInv.amount_remaining], ['void', 4990, 0, 0]);
    const all = (await m.call('GET', `/v1/ledger_entries?invoice=${p.invoice}`)).body.data as Entry[];
    const fin = all.filter((e) => e.kind === 'invoice_finalized');
    const voided = all.filter((e) => e.kind === 'invoice_voided');
    assert.deepEqual(sides(voided.map((e) => ({ ...e, kind: 'x', debit: e.credit, credit: e.debit }))), sides(fin.map((e) => ({ ...e, kind: 'x' }))));
    ar = (await m.call('GET', `/v1/trial_balance?customer=${customer.id}`)).body.currencies[0].accounts;
    assert.ok(
      ar.every((a: any) => a.balance === 0),
      JSON.stringify(ar),
    );
    await assertLedgerInvariants(env.db, m.id);
  });

  it('lists entries newest first with filters and cursor paging', async () => {
    const { customer, payment } = await paidPayment(m, 1234);
    const all = (await m.call('GET', `/v1/ledger_entries?customer=${customer.id}&limit=100`)).body;
    assert.equal(all.data.length, 5);
    assert.equal(all.has_more, false);
    const created = all.data.map((e: any) => e.created_at);
    assert.deepEqual([...created].sort().reverse(), created);
    const page1 = (await m.call('GET', `/v1/ledger_entries?customer=${customer.id}&limit=2`)).body;
    const page2 = (await m.call('GET', `/v1/ledger_entries?customer=${customer.id}&limit=2&starting_after=${page1.data[1].id}`)).body;
    const page3 = (await m.call('GET', `/v1/ledger_entries?customer=${customer.id}&limit=2&starting_after=${page2.data[1].id}`)).body;
    assert.deepEqual([page1.has_more, page2.has_more, page3.has_more], [true, true, false]);
    assert.deepEqual(
      [...page1.data, ...page2.data, ...page3.data].map((e: any) => e.id),
      all.data.map((e: any) => e.id),
    );
    const clearing = (await m.call('GET', `/v1/ledger_entries?customer=${customer.id}&account=card_clearing`)).body.data;
    assert.deepEqual(
      clearing.map((e: any) => [e.invoice, e.debit]),
      [[payment.invoice, 1234]],
    );
    const first = new Date(created[created.length - 1]);
    const before = new Date(first.getTime() - 1).toISOString();
    const none = (await m.call('GET', `/v1/ledger_entries?customer=${customer.id}&created[lt]=${encodeURIComponent(before)}`)).body.data;
    assert.equal(none.length, 0);
    const some = (
      await m.call(
        'GET',
        `/v1/ledger_entries?customer=${customer.id}&created[gte]=${encodeURIComponent(first.toISOString())}&created[lte]=${encodeURIComponent(new Date().toISOString())}`,
      )
    ).body.data;
    assert.equal(some.length, 5);
  });

  it('refuses bad filters, unknown and foreign ids', async () => {
    const { payment } = await paidPayment(other, 500);
    expectError(await m.call('GET', '/v1/ledger_entries?created[gte]=yesterday'), 400, 'validation_failed', 'created[gte]');
    expectError(await m.call('GET', '/v1/ledger_entries?invoice=inv_nope'), 404, 'resource_not_found', 'invoice');
    expectError(await m.call('GET', `/v1/ledger_entries?invoice=${payment.invoice}`), 404, 'resource_not_found', 'invoice');
    expectError(await m.call('GET', '/v1/ledger_entries?customer=cus_nope'), 404, 'resource_not_found');
    expectError(await m.call('GET', '/v1/ledger_entries?starting_after=be_nope'), 404, 'resource_missing', 'starting_after');
    expectError(await m.call('GET', '/v1/ledger_entries?limit=x'), 400, 'validation_failed', 'limit');
    expectError(await m.call('GET', '/v1/ledger_entries?account=' + 'a'.repeat(201)), 400, 'validation_failed', 'account');
    expectError(await m.call('GET', '/v1/trial_balance?as_of=2026-13-01T00:00:00Z'), 400, 'validation_failed', 'as_of');
    // An empty as_of is refused, never read as "now"; an empty bound is never read as "no bound".
    expectError(await m.call('GET', '/v1/trial_balance?as_of='), 400, 'validation_failed', 'as_of');
    expectError(await m.call('GET', '/v1/ledger_entries?created[lt]='), 400, 'validation_failed', 'created[lt]');
    // limit out of range (SPEC "Lists"): below 1 falls back to the default (25), above 100 to 100.
    for (const amount of [700, 800, 900]) await paidPayment(m, amount); // 5 entries each
    const all = (await m.call('GET', '/v1/ledger_entries?limit=100')).body.data as Entry[];
    assert.ok(all.length > 25, `enough entries to tell the default from the maximum (${all.length})`);
    for (const [limit, size] of [
      ['0', 25],
      ['-3', 25],
      ['1000', Math.min(all.length, 100)],
      ['1', 1],
    ] as const) {
      const res = await m.call('GET', `/v1/ledger_entries?limit=${limit}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, size, `limit=${limit}`);
    }
    // The other mode sees nothing of test mode.
    const live = await m.call('GET', '/v1/ledger_entries', { key: m.liveSecretKey! });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body.data, []);
    // A trial balance as of before anything happened is empty.
    assert.deepEqual((await m.call('GET', '/v1/trial_balance?as_of=2020-01-01T00:00:00Z')).body.currencies, []);
  });

  it('refuses an unbalanced posting in the posting function and in the database; entries are append-only', async () => {
    const m = await newMerchant(env); // its own merchant: the postings below belong to no invoice
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const scoped = scopedDb(env.db, tenant);
    await assert.rejects(
      postLedger(scoped, tenant, {
        kind: 'invoice_paid',
        sourceId: 'inv_x',
        currency: 'ISK',
        amount: 10n,
        occurredAt: new Date(),
        movements: [
          { account: 'card_clearing', amount: 10n },
          { account: 'accounts_receivable', amount: -9n },
        ],
      }),
      UnbalancedPostingError,
    );
    await assert.rejects(
      env.db.$executeRaw`
        WITH p AS (INSERT INTO ledger_postings (id, merchant_id, mode, kind, source_key, currency, amount, occurred_at)
                   VALUES ('bp_unbalanced', ${m.id}, 'test', 'invoice_paid', 'invoice_paid:inv_unbalanced', 'ISK', 10, now()) RETURNING id)
        INSERT INTO ledger_entries (id, merchant_id, mode, posting_id, account, debit, credit, currency, occurred_at)
        SELECT v.id, ${m.id}, 'test', p.id, v.account, v.debit, v.credit, 'ISK', now() FROM p,
               (VALUES ('be_u1', 'card_clearing', 10::bigint, 0::bigint), ('be_u2', 'accounts_receivable', 0::bigint, 9::bigint)) v(id, account, debit, credit)`,
      /does not balance/,
    );
    await assert.rejects(
      env.db.$executeRaw`
        WITH p AS (INSERT INTO ledger_postings (id, merchant_id, mode, kind, source_key, currency, amount, occurred_at)
                   VALUES ('bp_twosided', ${m.id}, 'test', 'invoice_paid', 'invoice_paid:inv_twosided', 'ISK', 10, now()) RETURNING id)
        INSERT INTO ledger_entries (id, merchant_id, mode, posting_id, account, debit, credit, currency, occurred_at)
        SELECT 'be_t1', ${m.id}, 'test', p.id, 'card_clearing', 10, 10, 'ISK', now() FROM p`,
      /exactly one positive side/,
    );
    // A balanced posting written twice is written once.
    const movements = [
      { account: 'card_clearing', amount: 7n },
      { account: 'accounts_receivable', amount: -7n },
    ];
    const first = await postLedger(scoped, tenant, { kind: 'invoice_paid', sourceId: 'inv_twice', currency: 'ISK', amount: 7n, occurredAt: new Date(), movements });
    const second = await postLedger(scoped, tenant, { kind: 'invoice_paid', sourceId: 'inv_twice', currency: 'ISK', amount: 7n, occurredAt: new Date(), movements });
    assert.match(String(first), /^bp_/);
    assert.equal(second, null);
    assert.equal(await env.db.ledgerEntry.count({ where: { postingId: first! } }), 2);
    // A later statement adding to a stored posting: one more entry unbalances it and is refused;
    // a balanced pair keeps every posting balanced over all its entries, the rule the check keeps.
    await assert.rejects(
      env.db.$executeRaw`INSERT INTO ledger_entries (id, merchant_id, mode, posting_id, account, debit, credit, currency, occurred_at)
        VALUES ('be_late1', ${m.id}, 'test', ${first}, 'card_clearing', 1, 0, 'ISK', now())`,
      /does not balance/,
    );
    await env.db.$executeRaw`INSERT INTO ledger_entries (id, merchant_id, mode, posting_id, account, debit, credit, currency, occurred_at)
      VALUES ('be_late2', ${m.id}, 'test', ${first}, 'card_clearing', 1, 0, 'ISK', now()), ('be_late3', ${m.id}, 'test', ${first}, 'accounts_receivable', 0, 1, 'ISK', now())`;
    const sums = await env.db.ledgerEntry.aggregate({ where: { postingId: first! }, _sum: { debit: true, credit: true }, _count: true });
    assert.deepEqual([sums._count, sums._sum.debit, sums._sum.credit], [4, 8n, 8n]);
    await assert.rejects(env.db.$executeRaw`UPDATE ledger_entries SET debit = debit + 1 WHERE posting_id = ${first}`, /append-only/);
    await assert.rejects(env.db.$executeRaw`DELETE FROM ledger_postings WHERE id = ${first}`, /append-only/);
  });

  it('dunning exhausted writes the invoice off as bad debt; voiding it then puts the write-off back and reverses the invoice', async () => {
    const clock = await subs.createClock(m, '2025-03-01T00:00:00.000Z');
    const c = await subs.createCustomer(m);
    await subs.attachToClock(m, clock.id, c.id);
    await subs.attachCard(m, c.id, subs.TEST_CARDS.alwaysDeclines);
    const price = await subs.monthlyPrice(m, 3100);
    const sub = await subs.ok(m.call('POST', '/v1/subscriptions', { body: { customer: c.id, items: [{ price: price.id }] } }), 201);
    await subs.advanceClock(m, clock.id, '2025-03-20T00:00:00.000Z');
    const inv = (await subs.ok(m.call('GET', `/v1/invoices?subscription=${sub.id}`))).data[0];
    assert.equal(inv.status, 'uncollectible');
    const kinds = async () => (await m.call('GET', `/v1/ledger_entries?invoice=${inv.id}&limit=100`)).body.data as Entry[];
    assert.deepEqual(
      sides((await kinds()).filter((e) => e.kind === 'invoice_written_off')),
      sides([
        { kind: 'invoice_written_off', account: 'bad_debt', debit: 3100, credit: 0, vat_rate: null },
        { kind: 'invoice_written_off', account: 'accounts_receivable', debit: 0, credit: 3100, vat_rate: null },
      ]),
    );
    // written off: the receivable went to bad_debt, so nothing remains on the invoice
    assert.deepEqual([inv.amount_due, inv.amount_paid, inv.amount_remaining], [3100, 0, 0]);
    assert.equal((await assertLedgerInvariants(env.db, m.id)).receivable[c.id], undefined);
    assert.equal((await subs.ok(m.call('POST', `/v1/invoices/${inv.id}/void`))).status, 'void');
    const after = await kinds();
    assert.deepEqual(
      sides(after.filter((e) => e.kind === 'write_off_reversed')),
      sides([
        { kind: 'write_off_reversed', account: 'accounts_receivable', debit: 3100, credit: 0, vat_rate: null },
        { kind: 'write_off_reversed', account: 'bad_debt', debit: 0, credit: 3100, vat_rate: null },
      ]),
    );
    const net = new Map<string, number>();
    for (const e of after) net.set(e.account, (net.get(e.account) ?? 0) + e.debit - e.credit);
    assert.ok(
      [...net.values()].every((v) => v === 0),
      JSON.stringify([...net]),
    );
    await assertLedgerInvariants(env.db, m.id);
  });
  it('per customer, Σ amount_remaining = receivable after every kind of money event: open, partly refunded (credit notes), written off, paid after the write-off, voided', async () => {
    // Two customers on one clock, checked after each step, so a sum that only holds in total
    // (one customer's open invoice hiding another's void one) cannot pass.
    const clock = await subs.createClock(m, '2025-06-01T00:00:00.000Z');
    const x = await subs.createCustomer(m);
    const y = await subs.createCustomer(m);
    await subs.attachToClock(m, clock.id, x.id);
    await subs.attachToClock(m, clock.id, y.id);
    await subs.attachCard(m, x.id, subs.TEST_CARDS.alwaysDeclines);
    const yCard = await subs.attachCard(m, y.id);
    const receivableOf = async () => {
      const r = (await assertLedgerInvariants(env.db, m.id)).receivable;
      return [r[x.id] ?? 0, r[y.id] ?? 0];
    };
    const remainingOf = async (customerId: string) => {
      const all = (await subs.ok(m.call('GET', `/v1/invoices?customer=${customerId}&limit=100`))).data as Array<{ amount_remaining: number }>;
      return all.reduce((n, i) => n + i.amount_remaining, 0);
    };
    const check = async (expected: [number, number], step: string) => {
      assert.deepEqual(await receivableOf(), expected, `${step}: receivable per customer`);
      assert.deepEqual([await remainingOf(x.id), await remainingOf(y.id)], expected, `${step}: Σ amount_remaining per customer (API)`);
    };

    // X: a 3100 subscription whose card declines; Y: an unconfirmed payment (open invoice).
    const price = await subs.monthlyPrice(m, 3100);
    const sub = await subs.ok(m.call('POST', '/v1/subscriptions', { body: { customer: x.id, items: [{ price: price.id }] } }), 201);
    const yOpen = await subs.ok(m.call('POST', '/v1/payments', { body: { amount: 1500, currency: 'ISK', customer: y.id } }), 201);
    const xInv = await subs.eventually(
      async () => (await subs.ok(m.call('GET', `/v1/invoices?subscription=${sub.id}`))).data.find((i: any) => i.status === 'open'),
      'X invoice open',
    );
    await check([3100, 1500], 'open invoices');

    // Y pays 4000 and gets 1000 back, then 500 more: two credit notes; nothing becomes receivable.
    const yPaid = await subs.ok(m.call('POST', '/v1/payments', { body: { amount: 4000, currency: 'ISK', customer: y.id, payment_method: yCard.id } }), 201);
    assert.equal(yPaid.status, 'succeeded');
    for (const amount of [1000, 500]) {
      const r = await subs.ok(m.call('POST', '/v1/refunds', { body: { payment: yPaid.id, amount } }), 201);
      assert.equal((await settledRefund(env, m, r.id)).status, 'succeeded');
    }
    assert.equal((await subs.ok(m.call('GET', `/v1/credit_notes?invoice=${yPaid.invoice}`))).data.length, 2);
    assert.equal((await subs.ok(m.call('GET', `/v1/payments/${yPaid.id}`))).status, 'partially_refunded');
    await check([3100, 1500], 'partly refunded payment');

    // Dunning runs out: X's invoice is written off.
    await subs.advanceClock(m, clock.id, '2025-06-20T00:00:00.000Z');
    assert.equal((await subs.ok(m.call('GET', `/v1/invoices/${xInv.id}`))).status, 'uncollectible');
    await check([0, 1500], 'written off');

    // X pays the written-off invoice with a new card: the write-off is reversed, then paid.
    const xGood = await subs.attachCard(m, x.id);
    await subs.ok(m.call('POST', `/v1/payment_methods/${xGood.id}/set_default`, { body: {} }));
    await subs.ok(m.call('POST', `/v1/invoices/${xInv.id}/pay`, { body: {} }));
    await subs.eventually(async () => ((await subs.ok(m.call('GET', `/v1/invoices/${xInv.id}`))).status === 'paid' ? true : undefined), 'X invoice paid');
    const kinds = ((await subs.ok(m.call('GET', `/v1/ledger_entries?invoice=${xInv.id}&limit=100`))).data as Entry[]).map((e) => e.kind);
    assert.ok(kinds.includes('write_off_reversed') && kinds.includes('invoice_paid'), kinds.join(','));
    await check([0, 1500], 'paid after the write-off');

    // Y's unconfirmed payment is canceled: its invoice is void and owes nothing.
    await subs.ok(m.call('POST', `/v1/payments/${yOpen.id}/cancel`, { body: {} }));
    assert.deepEqual(
      [(await subs.ok(m.call('GET', `/v1/invoices/${yOpen.invoice}`))).status, (await subs.ok(m.call('GET', `/v1/invoices/${yOpen.invoice}`))).amount_remaining],
      ['void', 0],
    );
    await check([0, 0], 'voided');
  });
});
