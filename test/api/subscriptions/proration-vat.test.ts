// VAT on prorations (docs/vat.md "Which rate a line gets"): a proration line inherits the VAT
// rate of the price it prorates, the credit for unused time and the charge for remaining time
// alike, and a mixed-rate change keeps its rates apart on the invoice, the document, the
// carried balance and the ledger. A table over every proration case × 24 %, 11 %, 0 % and mixed
// items, on one test clock: subscriptions start 2027-03-01 (a 31-day period), every change is
// made on 2027-03-22 (10 of 31 days left).
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { assertLedgerInvariants } from '../../support/ledger-invariants';
import { VAT_RATE_IDS, lineVat, prorationLines, vatBasisPoints, type VatRateId } from '../../../src/billing';
import { scopedDb } from '../../../src/db/tenancy';
import { loadInvoiceDocument } from '../../../src/documents/load-document';
import { advanceClock, attachCard, attachToClock, createClock, createCustomer, createPrice, eventually, ok, iskSubMerchant, type SubMerchant } from './fixtures';

const START = '2027-03-01T00:00:00.000Z';
const CHANGE = '2027-03-22T00:00:00.000Z';
const END = '2027-04-01T00:00:00.000Z';
const A = 2300; // the item that changes
const B = 4600; // the other price
const C = 1150; // a third price, at B's rate (mixed adds and removes)

type Line = { kind: string; amount: number; vat_rate: string; vat_amount: number; proration: boolean };
type CaseName = 'quantity up' | 'quantity down' | 'price upgrade' | 'price downgrade' | 'mid-period add' | 'mid-period remove' | 'trial end';
const CASES: CaseName[] = ['quantity up', 'quantity down', 'price upgrade', 'price downgrade', 'mid-period add', 'mid-period remove', 'trial end'];
const RATE_SETS: Array<[string, VatRateId, VatRateId]> = [
  ['24 %', 'standard', 'standard'],
  ['11 %', 'reduced', 'reduced'],
  ['0 %', 'exempt', 'exempt'],
  ['mixed', 'reduced', 'standard'],
];

/** The proration amount of a full-period amount from CHANGE to END (credit: negative). */
const prorated = (full: number) =>
  prorationLines({ oldAmountForFullPeriod: full, newAmountForFullPeriod: full, periodStart: new Date(START), periodEnd: new Date(END), changeAt: new Date(CHANGE) }).charge.amount;
const vatOf = (amount: number, rate: VatRateId) => lineVat(amount, vatBasisPoints('IS', rate), true).vat;

/**
 * Expected lines (kind, amount, rate) of the invoice each case produces at CHANGE. With mixed
 * items, every case changes an item of each rate (the first with create_prorations, the second
 * with always_invoice, which invoices both), so its invoice holds lines of both rates.
 */
function expectedLines(c: CaseName, ra: VatRateId, rb: VatRateId, mixed: boolean): Array<[string, number, VatRateId]> {
  if (mixed) {
    switch (c) {
      case 'quantity up':
        return [
          ['proration', -prorated(B), rb],
          ['proration', prorated(2 * B), rb],
          ['proration', -prorated(2 * A), ra],
          ['proration', prorated(3 * A), ra],
        ];
      case 'quantity down':
        return [
          ['proration', -prorated(2 * B), rb],
          ['proration', prorated(B), rb],
          ['proration', -prorated(3 * A), ra],
          ['proration', prorated(2 * A), ra],
        ];
      case 'mid-period add':
        return [
          ['proration', prorated(C), rb],
          ['proration', prorated(A), ra],
        ];
      case 'mid-period remove':
        return [
          ['proration', -prorated(C), rb],
          ['proration', -prorated(A), ra],
        ];
      default:
        break; // price upgrade, downgrade and trial end already mix the two prices
    }
  }
  switch (c) {
    case 'quantity up':
      return [
        ['proration', -prorated(2 * A), ra],
        ['proration', prorated(3 * A), ra],
      ];
    case 'quantity down':
      return [
        ['proration', -prorated(3 * A), ra],
        ['proration', prorated(2 * A), ra],
      ];
    case 'price upgrade':
      return [
        ['proration', prorated(B), rb],
        ['proration', -prorated(A), ra],
      ];
    case 'price downgrade':
      return [
        ['proration', prorated(A), ra],
        ['proration', -prorated(B), rb],
      ];
    case 'mid-period add':
      return [['proration', prorated(A), ra]];
    case 'mid-period remove':
      return [['proration', -prorated(A), ra]];
    case 'trial end':
      return [
        ['licensed', A, ra],
        ['licensed', B, rb],
      ];
  }
}

describe('VAT on prorations: every proration case at 24 %, 11 %, 0 % and mixed rates', function () {
  this.timeout(600_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(iskSubMerchant)));

  it('each line carries the rate of the price it prorates; per-rate totals, carried balances and the ledger keep rates apart', async () => {
    const clock = await createClock(m, START, 'proration VAT');
    const setups: Array<{ c: CaseName; set: string; ra: VatRateId; rb: VatRateId; sub: any; pa: any; pb: any; pc: any }> = [];
    for (const [set, ra, rb] of RATE_SETS) {
      // The rate sits on the price for one, on the product for the other: both are inherited.
      const product = await ok(m.call('POST', '/v1/products', { body: { name: `B ${set}`, vat_rate: rb } }), 201);
      const pa = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: A, recurring: { interval: 'month' }, vat_rate: ra });
      const pb = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: B, recurring: { interval: 'month' }, product: product.id });
      const pc = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: C, recurring: { interval: 'month' }, vat_rate: rb });
      const mixed = set === 'mixed';
      for (const c of CASES) {
        const customer = await createCustomer(m, { name: `${c} ${set}` });
        await attachToClock(m, clock.id, customer.id);
        await attachCard(m, customer.id);
        const items =
          c === 'quantity up'
            ? [{ price: pa.id, quantity: 2 }, ...(mixed ? [{ price: pb.id, quantity: 1 }] : [])]
            : c === 'quantity down'
              ? [{ price: pa.id, quantity: 3 }, ...(mixed ? [{ price: pb.id, quantity: 2 }] : [])]
              : c === 'price upgrade'
                ? [{ price: pa.id }]
                : c === 'price downgrade' || c === 'mid-period add'
                  ? [{ price: pb.id }]
                  : c === 'mid-period remove' && mixed
                    ? [{ price: pa.id }, { price: pb.id }, { price: pc.id }]
                    : [{ price: pa.id }, { price: pb.id }];
        const body = { customer: customer.id, items, ...(c === 'trial end' ? { trial_period_days: 21 } : {}) };
        const sub = await ok(m.call('POST', '/v1/subscriptions', { body }), 201);
        setups.push({ c, set, ra, rb, sub, pa, pb, pc });
      }
    }
    // A change while trialing makes no proration (the trial is free).
    for (const s of setups.filter((x) => x.c === 'trial end')) {
      await ok(m.call('POST', `/v1/subscription_items/${s.sub.items[0].id}`, { body: { quantity: 2, proration_behavior: 'always_invoice' } }));
      await ok(m.call('POST', `/v1/subscription_items/${s.sub.items[0].id}`, { body: { quantity: 1, proration_behavior: 'always_invoice' } }));
    }
    await advanceClock(m, clock.id, CHANGE);

    for (const s of setups) {
      const item = (price: any) => s.sub.items.find((i: any) => i.price === price.id);
      const path = (i: any) => `/v1/subscription_items/${i.id}`;
      // Mixed items: first the other rate's item, its prorations left pending for the invoice below.
      const pend = { proration_behavior: 'create_prorations' };
      if (s.set === 'mixed') {
        if (s.c === 'quantity up') await ok(m.call('POST', path(item(s.pb)), { body: { quantity: 2, ...pend } }));
        if (s.c === 'quantity down') await ok(m.call('POST', path(item(s.pb)), { body: { quantity: 1, ...pend } }));
        if (s.c === 'mid-period add') await ok(m.call('POST', '/v1/subscription_items', { body: { subscription: s.sub.id, price: s.pc.id, ...pend } }), 201);
        if (s.c === 'mid-period remove') await ok(m.call('DELETE', `${path(item(s.pc))}?proration_behavior=create_prorations`));
      }
      switch (s.c) {
        case 'quantity up':
          await ok(m.call('POST', path(item(s.pa)), { body: { quantity: 3, proration_behavior: 'always_invoice' } }));
          break;
        case 'quantity down':
          await ok(m.call('POST', path(item(s.pa)), { body: { quantity: 2, proration_behavior: 'always_invoice' } }));
          break;
        case 'price upgrade':
          await ok(m.call('POST', '/v1/subscription_items', { body: { subscription: s.sub.id, price: s.pb.id } }), 201);
          await ok(m.call('DELETE', `${path(item(s.pa))}?proration_behavior=always_invoice`));
          break;
        case 'price downgrade':
          await ok(m.call('POST', '/v1/subscription_items', { body: { subscription: s.sub.id, price: s.pa.id } }), 201);
          await ok(m.call('DELETE', `${path(item(s.pb))}?proration_behavior=always_invoice`));
          break;
        case 'mid-period add':
          await ok(m.call('POST', '/v1/subscription_items', { body: { subscription: s.sub.id, price: s.pa.id, proration_behavior: 'always_invoice' } }), 201);
          break;
        case 'mid-period remove':
          await ok(m.call('DELETE', `${path(item(s.pa))}?proration_behavior=always_invoice`));
          break;
        case 'trial end':
          break;
      }
    }

    const tenant = { merchantId: m.id, mode: 'test' as const };
    const table: string[] = [];
    for (const s of setups) {
      const reasons = s.c === 'trial end' ? ['subscription_create', 'subscription_cycle'] : ['subscription_update'];
      const listed = await eventually(
        async () => {
          const all = (await ok(m.call('GET', `/v1/invoices?subscription=${s.sub.id}&limit=100`))).data as any[];
          const inv = all.find((i) => reasons.includes(i.billing_reason) && i.status !== 'draft' && i.status !== 'open');
          return inv;
        },
        `${s.c} ${s.set}: invoice settled`,
        100,
      );
      const inv = await ok(m.call('GET', `/v1/invoices/${listed.id}`));
      const lines = inv.lines as Line[];
      const want = expectedLines(s.c, s.ra, s.rb, s.set === 'mixed');
      const got = lines.map((l) => [l.kind, l.amount, l.vat_rate] as [string, number, VatRateId]);
      const byAmountThenRate = (x: [string, number, VatRateId], y: [string, number, VatRateId]) => x[1] - y[1] || x[2].localeCompare(y[2]);
      assert.deepEqual([...got].sort(byAmountThenRate), [...want].sort(byAmountThenRate), `${s.c} ${s.set}: lines and their rates`);
      if (s.set === 'mixed') assert.deepEqual(new Set(lines.map((l) => l.vat_rate)), new Set([s.ra, s.rb]), `${s.c} mixed: both rates on the invoice`);
      const sum = want.reduce((n, l) => n + l[1], 0);
      const credit = sum < 0;
      // Per line: VAT at the line's own rate (none on a credit invoice: its balance is carried).
      for (const l of lines) assert.equal(l.vat_amount, credit ? 0 : vatOf(l.amount, l.vat_rate as VatRateId), `${s.c} ${s.set}: VAT of ${l.amount}`);
      // Per rate: the breakdown is the sum of the lines of that rate.
      const perRate = new Map<string, { gross: number; vat: number }>();
      for (const l of [...lines].sort((x, y) => VAT_RATE_IDS.indexOf(x.vat_rate as VatRateId) - VAT_RATE_IDS.indexOf(y.vat_rate as VatRateId))) {
        const r = perRate.get(l.vat_rate) ?? { gross: 0, vat: 0 };
        perRate.set(l.vat_rate, { gross: r.gross + l.amount, vat: r.vat + l.vat_amount });
      }
      assert.deepEqual(
        inv.vat_breakdown.map((b: any) => [b.vat_rate, b.amount_including_vat, b.vat_amount]),
        [...perRate].map(([rate, v]) => [rate, v.gross, v.vat]),
        `${s.c} ${s.set}: breakdown per rate`,
      );
      assert.equal(
        inv.vat_amount,
        lines.reduce((n, l) => n + l.vat_amount, 0),
      );
      if (credit) {
        // A credit invoice carries each rate's balance to the next invoice at that rate.
        assert.deepEqual([inv.total, inv.vat_amount, inv.status], [0, 0, 'paid']);
        const carried = await env.db.invoiceItem.findMany({ where: { subscriptionId: s.sub.id, invoiceId: null, proration: false }, orderBy: { amount: 'asc' } });
        const byRate = new Map<string, number>();
        for (const [, amount, rate] of want) byRate.set(rate, (byRate.get(rate) ?? 0) + amount);
        assert.deepEqual(
          carried.map((c) => [Number(c.amount), c.vatRate]),
          [...byRate]
            .filter(([, a]) => a !== 0)
            .map(([rate, a]) => [a, rate])
            .sort((x, y) => (x[0] as number) - (y[0] as number)),
          `${s.c} ${s.set}: balance carried per rate`,
        );
        assert.ok(carried.every((c) => c.createdAt.toISOString() === CHANGE));
      } else if (inv.total > 0) {
        // The document shows the same rates apart.
        const doc = await loadInvoiceDocument(scopedDb(env.db, tenant), tenant, inv.id);
        assert.deepEqual(
          doc.vatBreakdown.map((r) => [r.gross, r.vat]),
          [...perRate].map(([, v]) => [v.gross, v.vat]),
        );
        assert.deepEqual(
          doc.lines.map((l) => l.vat?.amount ?? 0),
          lines.map((l) => l.vat_amount),
        );
      }
      // The proration items themselves carry the rate, dated at the clock's time.
      const items = await env.db.invoiceItem.findMany({ where: { subscriptionId: s.sub.id, proration: true } });
      assert.equal(items.length, s.c === 'trial end' ? 0 : want.length, `${s.c} ${s.set}: proration items (none while trialing)`);
      for (const it of items) assert.equal(it.createdAt.toISOString(), CHANGE, `${s.c} ${s.set}: proration item dated at the clock`);
      table.push(
        `${s.c.padEnd(18)} ${s.set.padEnd(6)} ${lines.map((l) => `${l.amount}@${l.vat_rate}:${l.vat_amount}`).join(' ')} | ${[...perRate].map(([r, v]) => `${r} ${v.vat}`).join(', ')}`,
      );
    }
    console.log(table.join('\n'));

    // The reported case: an 11 % item upgraded mid-period (2 → 3 × 2300 with 10 of 31 days left):
    // credit −1484 (VAT −147), charge 2226 (VAT 221): VAT 74 (at 24 % it would have been 144).
    const up11 = setups.find((s) => s.c === 'quantity up' && s.set === '11 %')!;
    const inv11 = (await ok(m.call('GET', `/v1/invoices?subscription=${up11.sub.id}&limit=100`))).data.find((i: any) => i.billing_reason === 'subscription_update');
    const full11 = await ok(m.call('GET', `/v1/invoices/${inv11.id}`));
    assert.deepEqual(
      full11.lines.map((l: Line) => [l.amount, l.vat_rate, l.vat_amount]),
      [
        [-1484, 'reduced', -147],
        [2226, 'reduced', 221],
      ],
    );
    assert.deepEqual([full11.total, full11.vat_amount], [742, 74]);
    assert.deepEqual(full11.vat_breakdown, [{ vat_rate: 'reduced', percent: 11, amount_excluding_vat: 668, vat_amount: 74, amount_including_vat: 742 }]);

    // The mixed upgrade posts VAT per rate in the ledger.
    const upMixed = setups.find((s) => s.c === 'price upgrade' && s.set === 'mixed')!;
    const invMixed = (await ok(m.call('GET', `/v1/invoices?subscription=${upMixed.sub.id}&limit=100`))).data.find((i: any) => i.billing_reason === 'subscription_update');
    const vatEntries = ((await ok(m.call('GET', `/v1/ledger_entries?invoice=${invMixed.id}&limit=100`))).data as any[]).filter(
      (e) => e.kind === 'invoice_finalized' && e.account.startsWith('vat_payable:'),
    );
    assert.deepEqual(
      vatEntries.map((e) => [e.account, e.credit - e.debit]).sort(),
      [
        ['vat_payable:reduced', vatOf(-prorated(A), 'reduced')],
        ['vat_payable:standard', vatOf(prorated(B), 'standard')],
      ].sort(),
    );
    await assertLedgerInvariants(env.db, m.id);
  });
});
