import assert from 'node:assert/strict';
import {
  Currency,
  Discount,
  PendingInvoiceItem,
  PriceTier,
  SubscriptionInvoice,
  SubscriptionInvoiceInput,
  SubscriptionInvoiceItem,
  SubscriptionInvoiceLineKind,
  TiersMode,
  assembleSubscriptionInvoice,
} from '../../../src/billing';
// Only the test reaches into src/metering: src/billing may not import it (purity test), so the
// rounding of metered usage is re-done there and checked against metering's here.
import { billableQuantity as meteringBillableQuantity } from '../../../src/metering';

// The closing period (metered, in arrears) and the opening period (licensed, in advance).
const JAN = { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2026-02-01T00:00:00Z') };
const FEB = { start: new Date('2026-02-01T00:00:00Z'), end: new Date('2026-03-01T00:00:00Z') };

// 1–5 at 1000, 6–10 at 800 plus a 200 flat fee for the tier, 11+ at 500.
const TIERS: PriceTier[] = [
  { up_to: 5, unit_amount: 1000 },
  { up_to: 10, unit_amount: 800, flat_amount: 200 },
  { up_to: null, unit_amount: 500 },
];
// Volume tiers whose first tier has a flat fee: charged at quantity 0 (tiers.ts ZERO_QUANTITY_RULE).
const FLAT_FIRST: PriceTier[] = [
  { up_to: 5, unit_amount: 1000, flat_amount: 300 },
  { up_to: null, unit_amount: 500 },
];

function licensed(itemId: string, unitAmount: number, quantity: number): SubscriptionInvoiceItem {
  return {
    itemId,
    priceId: `price_${itemId}`,
    description: `Product ${itemId}`,
    quantity,
    includedUnits: null,
    creditRollover: false,
    price: { unitAmount, tiersMode: null, tiers: null, usageType: 'licensed', aggregateUsage: null, includedUnits: null },
  };
}

function tiered(itemId: string, mode: TiersMode, tiers: PriceTier[], quantity: number): SubscriptionInvoiceItem {
  const item = licensed(itemId, 0, quantity);
  return { ...item, price: { ...item.price, unitAmount: null, tiersMode: mode, tiers } };
}

interface MeteredOptions {
  unitAmount?: number;
  tiersMode?: TiersMode;
  tiers?: PriceTier[];
  priceIncluded?: number | null;
  itemIncluded?: number | null;
  creditRollover?: boolean;
}

function metered(itemId: string, o: MeteredOptions): SubscriptionInvoiceItem {
  return {
    itemId,
    priceId: `price_${itemId}`,
    description: `Product ${itemId}`,
    quantity: 1,
    includedUnits: o.itemIncluded ?? null,
    creditRollover: o.creditRollover ?? false,
    price: {
      unitAmount: o.tiersMode === undefined ? (o.unitAmount ?? 0) : null,
      tiersMode: o.tiersMode ?? null,
      tiers: o.tiers ?? null,
      usageType: 'metered',
      aggregateUsage: 'sum',
      includedUnits: o.priceIncluded ?? null,
    },
  };
}

function pending(id: string, amount: number, quantity = 1, proration = false): PendingInvoiceItem {
  return { id, description: `Invoice item ${id}`, amount, quantity, proration };
}

function invoice(currency: Currency, partial: Partial<SubscriptionInvoiceInput>): SubscriptionInvoiceInput {
  return { currency, closingPeriod: JAN, openingPeriod: FEB, isFirstInvoice: false, isFinal: false, items: [], ...partial };
}

// A 2 (€0.02) per unit metered EUR price with 1000 units included at price level.
const API_EUR = metered('si_api', { unitAmount: 2, priceIncluded: 1000 });

type LineSummary = [kind: SubscriptionInvoiceLineKind, id: string, quantity: number, unitAmount: number | null, amount: number];

function summary(result: SubscriptionInvoice): LineSummary[] {
  return result.lines.map((l) => [l.kind, (l.itemId ?? l.invoiceItemId) as string, l.quantity, l.unitAmount, l.amount]);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function checkInvariants(result: SubscriptionInvoice): void {
  assert.equal(
    result.subtotal,
    result.lines.reduce((sum, l) => sum + l.amount, 0),
  );
  assert.equal(result.total - result.creditCarriedForward, result.subtotal - result.discount);
  assert.ok(result.total === 0 || result.creditCarriedForward === 0);
}

interface Case {
  name: string;
  input: SubscriptionInvoiceInput;
  lines: LineSummary[];
  subtotal: number;
  discount?: number;
  total: number;
  credit?: number;
  rolloverOut?: Record<string, number>;
}

const cases: Case[] = [
  // ---- licensed, per unit ----
  {
    name: 'ISK licensed monthly item, quantity 3',
    input: invoice('ISK', { items: [licensed('si_seat', 1990, 3)] }),
    // 3 × 1990 = 5970 (5.970 kr.)
    lines: [['licensed', 'si_seat', 3, 1990, 5970]],
    subtotal: 5970,
    total: 5970,
  },
  {
    name: 'EUR licensed monthly item, quantity 3',
    input: invoice('EUR', { items: [licensed('si_seat', 1999, 3)] }),
    // 3 × 1999 = 5997 (€59.97)
    lines: [['licensed', 'si_seat', 3, 1999, 5997]],
    subtotal: 5997,
    total: 5997,
  },
  // ---- graduated tiers at the edges ----
  // 5: 5 × 1000 = 5000 (tier 2 untouched, so no flat fee)
  {
    name: 'graduated, quantity 5 (end of tier 1)',
    input: invoice('ISK', { items: [tiered('si_g', 'graduated', TIERS, 5)] }),
    lines: [['licensed', 'si_g', 5, null, 5000]],
    subtotal: 5000,
    total: 5000,
  },
  // 6: 5000 + 1 × 800 + 200 = 6000
  {
    name: 'graduated, quantity 6 (first unit of tier 2)',
    input: invoice('ISK', { items: [tiered('si_g', 'graduated', TIERS, 6)] }),
    lines: [['licensed', 'si_g', 6, null, 6000]],
    subtotal: 6000,
    total: 6000,
  },
  // 10: 5000 + 5 × 800 + 200 = 9200
  {
    name: 'graduated, quantity 10 (end of tier 2)',
    input: invoice('ISK', { items: [tiered('si_g', 'graduated', TIERS, 10)] }),
    lines: [['licensed', 'si_g', 10, null, 9200]],
    subtotal: 9200,
    total: 9200,
  },
  // 11: 9200 + 1 × 500 = 9700
  {
    name: 'graduated, quantity 11 (open tier)',
    input: invoice('ISK', { items: [tiered('si_g', 'graduated', TIERS, 11)] }),
    lines: [['licensed', 'si_g', 11, null, 9700]],
    subtotal: 9700,
    total: 9700,
  },
  // ---- volume tiers at the edges ----
  // 5: tier 1, 5 × 1000 = 5000
  {
    name: 'volume, quantity 5 (end of tier 1)',
    input: invoice('ISK', { items: [tiered('si_v', 'volume', TIERS, 5)] }),
    lines: [['licensed', 'si_v', 5, null, 5000]],
    subtotal: 5000,
    total: 5000,
  },
  // 6: tier 2, 6 × 800 + 200 = 5000
  {
    name: 'volume, quantity 6 (tier 2)',
    input: invoice('ISK', { items: [tiered('si_v', 'volume', TIERS, 6)] }),
    lines: [['licensed', 'si_v', 6, null, 5000]],
    subtotal: 5000,
    total: 5000,
  },
  // 10: tier 2, 10 × 800 + 200 = 8200
  {
    name: 'volume, quantity 10 (end of tier 2)',
    input: invoice('ISK', { items: [tiered('si_v', 'volume', TIERS, 10)] }),
    lines: [['licensed', 'si_v', 10, null, 8200]],
    subtotal: 8200,
    total: 8200,
  },
  // 11: tier 3, 11 × 500 = 5500
  {
    name: 'volume, quantity 11 (open tier)',
    input: invoice('ISK', { items: [tiered('si_v', 'volume', TIERS, 11)] }),
    lines: [['licensed', 'si_v', 11, null, 5500]],
    subtotal: 5500,
    total: 5500,
  },
  // ---- metered sum, price-level included units 1000, 2 (€0.02) per unit ----
  // 999 − 1000 < 0 → 0 units → 0
  {
    name: 'metered usage 999 of 1000 included',
    input: invoice('EUR', { items: [API_EUR], meteredUsage: { si_api: '999' } }),
    lines: [['metered', 'si_api', 0, 2, 0]],
    subtotal: 0,
    total: 0,
  },
  // 1000 − 1000 = 0 → 0 units → 0
  {
    name: 'metered usage 1000 of 1000 included',
    input: invoice('EUR', { items: [API_EUR], meteredUsage: { si_api: '1000' } }),
    lines: [['metered', 'si_api', 0, 2, 0]],
    subtotal: 0,
    total: 0,
  },
  // 1000.5 − 1000 = 0.5 → rounded up to 1 unit → 1 × 2 = 2
  {
    name: 'metered usage 1000.5 of 1000 included',
    input: invoice('EUR', { items: [API_EUR], meteredUsage: { si_api: '1000.5' } }),
    lines: [['metered', 'si_api', 1, 2, 2]],
    subtotal: 2,
    total: 2,
  },
  // 1001 − 1000 = 1 → 1 × 2 = 2
  {
    name: 'metered usage 1001 of 1000 included',
    input: invoice('EUR', { items: [API_EUR], meteredUsage: { si_api: '1001' } }),
    lines: [['metered', 'si_api', 1, 2, 2]],
    subtotal: 2,
    total: 2,
  },
  // 1010.2 − 1000 = 10.2 → 11 units → 11 × 2 = 22
  {
    name: 'metered usage 1010.2 of 1000 included',
    input: invoice('EUR', { items: [API_EUR], meteredUsage: { si_api: '1010.2' } }),
    lines: [['metered', 'si_api', 11, 2, 22]],
    subtotal: 22,
    total: 22,
  },
  // no entry → no usage → 0 units, the line is kept
  { name: 'metered item without usage', input: invoice('EUR', { items: [API_EUR] }), lines: [['metered', 'si_api', 0, 2, 0]], subtotal: 0, total: 0 },
  // a negative aggregate counts as 0
  { name: 'metered negative usage', input: invoice('EUR', { items: [API_EUR], meteredUsage: { si_api: '-5' } }), lines: [['metered', 'si_api', 0, 2, 0]], subtotal: 0, total: 0 },
  // ---- item-level included units override the price's ----
  {
    name: 'item-level 200 overrides price-level 1000',
    input: invoice('EUR', { items: [metered('si_api', { unitAmount: 2, priceIncluded: 1000, itemIncluded: 200 })], meteredUsage: { si_api: '250' } }),
    // 250 − 200 = 50 units × 2 = 100 (with the price's 1000 it would be 0)
    lines: [['metered', 'si_api', 50, 2, 100]],
    subtotal: 100,
    total: 100,
  },
  {
    name: 'item-level 0 overrides price-level 1000',
    input: invoice('EUR', { items: [metered('si_api', { unitAmount: 2, priceIncluded: 1000, itemIncluded: 0 })], meteredUsage: { si_api: '10' } }),
    // 10 − 0 = 10 units × 2 = 20
    lines: [['metered', 'si_api', 10, 2, 20]],
    subtotal: 20,
    total: 20,
  },
  {
    name: 'item-level only (price has none)',
    input: invoice('ISK', { items: [metered('si_api', { unitAmount: 10, itemIncluded: 100 })], meteredUsage: { si_api: '100.01' } }),
    // 100.01 − 100 = 0.01 → 1 unit × 10 = 10
    lines: [['metered', 'si_api', 1, 10, 10]],
    subtotal: 10,
    total: 10,
  },
  // ---- metered through tiers ----
  {
    name: 'metered graduated after 100 included',
    input: invoice('ISK', { items: [metered('si_api', { tiersMode: 'graduated', tiers: TIERS, priceIncluded: 100 })], meteredUsage: { si_api: '112.5' } }),
    // 112.5 − 100 = 12.5 → 13 units: 5 × 1000 + (5 × 800 + 200) + 3 × 500 = 5000 + 4200 + 1500 = 10700
    lines: [['metered', 'si_api', 13, null, 10700]],
    subtotal: 10700,
    total: 10700,
  },
  {
    name: 'metered volume, fractional usage crosses a tier edge',
    input: invoice('ISK', { items: [metered('si_api', { tiersMode: 'volume', tiers: TIERS })], meteredUsage: { si_api: '5.01' } }),
    // 5.01 → 6 units → tier 2: 6 × 800 + 200 = 5000
    lines: [['metered', 'si_api', 6, null, 5000]],
    subtotal: 5000,
    total: 5000,
  },
  // ---- first and final invoices ----
  {
    name: 'first invoice: licensed for the first period only, no metered line',
    input: invoice('ISK', {
      isFirstInvoice: true,
      closingPeriod: null,
      items: [licensed('si_seat', 1990, 3), metered('si_api', { unitAmount: 10, priceIncluded: 1000, creditRollover: true })],
    }),
    // 3 × 1990 = 5970; the metered item has no closing period yet
    lines: [['licensed', 'si_seat', 3, 1990, 5970]],
    subtotal: 5970,
    total: 5970,
    rolloverOut: { si_seat: 0, si_api: 0 },
  },
  {
    name: 'final invoice: metered usage of the closing period only, no licensed advance',
    input: invoice('ISK', {
      isFinal: true,
      openingPeriod: null,
      items: [licensed('si_seat', 1990, 3), metered('si_api', { unitAmount: 10, priceIncluded: 1000, creditRollover: true })],
      meteredUsage: { si_api: '1500' },
      rolloverIn: { si_api: 200 },
    }),
    // allowance 1000 + 200 = 1200; 1500 − 1200 = 300 units × 10 = 3000; nothing rolls out of a final invoice
    lines: [['metered', 'si_api', 300, 10, 3000]],
    subtotal: 3000,
    total: 3000,
    rolloverOut: { si_seat: 0, si_api: 0 },
  },
  // ---- pending invoice items and prorations ----
  {
    name: 'pending invoice items and a proration pair',
    input: invoice('ISK', {
      items: [licensed('si_seat', 1990, 1)],
      pendingInvoiceItems: [pending('ii_setup', 5000), pending('ii_credit', -1333, 1, true), pending('ii_charge', 3333, 1, true), pending('ii_two', 750, 2)],
    }),
    // 1990 − 1333 + 3333 + 5000 + 2 × 750 = 10490; prorations come before the other invoice items
    lines: [
      ['licensed', 'si_seat', 1, 1990, 1990],
      ['proration', 'ii_credit', 1, -1333, -1333],
      ['proration', 'ii_charge', 1, 3333, 3333],
      ['invoice_item', 'ii_setup', 1, 5000, 5000],
      ['invoice_item', 'ii_two', 2, 750, 1500],
    ],
    subtotal: 10490,
    total: 10490,
  },
  {
    name: 'proration credit larger than the subtotal',
    input: invoice('ISK', { items: [licensed('si_seat', 1990, 1)], pendingInvoiceItems: [pending('ii_credit', -5000, 1, true)] }),
    // 1990 − 5000 = −3010 → total 0, 3010 carried forward
    lines: [
      ['licensed', 'si_seat', 1, 1990, 1990],
      ['proration', 'ii_credit', 1, -5000, -5000],
    ],
    subtotal: -3010,
    total: 0,
    credit: 3010,
  },
  {
    name: 'proration credit larger than the subtotal, with a discount that applies',
    input: invoice('ISK', {
      items: [licensed('si_seat', 1990, 1)],
      pendingInvoiceItems: [pending('ii_credit', -5000, 1, true)],
      discount: { percent_off: 15, duration: 'forever' },
      discountApplies: true,
    }),
    // subtotal −3010 ≤ 0 → no discount; total 0, 3010 carried forward
    lines: [
      ['licensed', 'si_seat', 1, 1990, 1990],
      ['proration', 'ii_credit', 1, -5000, -5000],
    ],
    subtotal: -3010,
    discount: 0,
    total: 0,
    credit: 3010,
  },
  // ---- discounts ----
  {
    name: 'percent_off 15 on licensed + metered, EUR',
    input: invoice('EUR', {
      items: [licensed('si_seat', 1999, 3), API_EUR],
      meteredUsage: { si_api: '1010.2' },
      discount: { percent_off: 15, duration: 'forever' },
      discountApplies: true,
    }),
    // 3 × 1999 = 5997; 1010.2 − 1000 → 11 × 2 = 22; subtotal 6019
    // 6019 × 15% = 902.85 → 903 (half away from zero, once on the subtotal); total 6019 − 903 = 5116
    lines: [
      ['licensed', 'si_seat', 3, 1999, 5997],
      ['metered', 'si_api', 11, 2, 22],
    ],
    subtotal: 6019,
    discount: 903,
    total: 5116,
  },
  {
    name: 'percent_off 15 that does not apply to this period',
    input: invoice('EUR', {
      items: [licensed('si_seat', 1999, 3), API_EUR],
      meteredUsage: { si_api: '1010.2' },
      discount: { percent_off: 15, duration: 'once' },
      discountApplies: false,
    }),
    // 5997 + 22 = 6019, no discount
    lines: [
      ['licensed', 'si_seat', 3, 1999, 5997],
      ['metered', 'si_api', 11, 2, 22],
    ],
    subtotal: 6019,
    discount: 0,
    total: 6019,
  },
  {
    name: 'percent_off 15, ISK',
    input: invoice('ISK', { items: [licensed('si_seat', 1990, 3)], discount: { percent_off: 15, duration: 'repeating', duration_in_months: 3 }, discountApplies: true }),
    // 5970 × 15% = 895.5 → 896; 5970 − 896 = 5074
    lines: [['licensed', 'si_seat', 3, 1990, 5970]],
    subtotal: 5970,
    discount: 896,
    total: 5074,
  },
  {
    name: 'amount_off larger than the subtotal',
    input: invoice('ISK', { items: [licensed('si_seat', 1990, 3)], discount: { amount_off: 10000, duration: 'once' }, discountApplies: true }),
    // min(10000, 5970) = 5970 → total 0; a discount never creates a credit
    lines: [['licensed', 'si_seat', 3, 1990, 5970]],
    subtotal: 5970,
    discount: 5970,
    total: 0,
    credit: 0,
  },
  {
    name: 'amount_off smaller than the subtotal',
    input: invoice('ISK', { items: [licensed('si_seat', 1990, 3)], discount: { amount_off: 1000, duration: 'once' }, discountApplies: true }),
    // 5970 − 1000 = 4970
    lines: [['licensed', 'si_seat', 3, 1990, 5970]],
    subtotal: 5970,
    discount: 1000,
    total: 4970,
  },
  // ---- zero quantities are kept ----
  {
    name: 'zero-quantity items are kept as lines',
    input: invoice('ISK', {
      items: [licensed('si_seat', 1990, 0), tiered('si_g', 'graduated', TIERS, 0), tiered('si_vf', 'volume', FLAT_FIRST, 0), metered('si_api', { unitAmount: 10 })],
      pendingInvoiceItems: [pending('ii_zero', 500, 0)],
    }),
    // 0 × 1990 = 0; graduated 0 → 0; volume 0 → first tier 0 × 1000 + 300 = 300; no usage → 0; 0 × 500 = 0
    lines: [
      ['licensed', 'si_seat', 0, 1990, 0],
      ['licensed', 'si_g', 0, null, 0],
      ['licensed', 'si_vf', 0, null, 300],
      ['metered', 'si_api', 0, 10, 0],
      ['invoice_item', 'ii_zero', 0, 500, 0],
    ],
    subtotal: 300,
    total: 300,
  },
  // ---- order ----
  {
    name: 'order: licensed, metered (item order), prorations, invoice items (pending order)',
    input: invoice('ISK', {
      items: [metered('si_api', { unitAmount: 1 }), licensed('si_b', 100, 1), licensed('si_a', 200, 1)],
      meteredUsage: { si_api: '7' },
      pendingInvoiceItems: [pending('ii_1', 10), pending('ii_2', -20, 1, true), pending('ii_3', 30), pending('ii_4', 40, 1, true)],
    }),
    // 100 + 200 + 7 − 20 + 40 + 10 + 30 = 367
    lines: [
      ['licensed', 'si_b', 1, 100, 100],
      ['licensed', 'si_a', 1, 200, 200],
      ['metered', 'si_api', 7, 1, 7],
      ['proration', 'ii_2', 1, -20, -20],
      ['proration', 'ii_4', 1, 40, 40],
      ['invoice_item', 'ii_1', 1, 10, 10],
      ['invoice_item', 'ii_3', 1, 30, 30],
    ],
    subtotal: 367,
    total: 367,
  },
];

describe('billing/subscription-invoice', () => {
  describe('assembleSubscriptionInvoice', () => {
    for (const c of cases) {
      it(c.name, () => {
        const result = assembleSubscriptionInvoice(deepFreeze(c.input));
        assert.deepEqual(summary(result), c.lines);
        assert.equal(result.currency, c.input.currency);
        assert.equal(result.subtotal, c.subtotal);
        assert.equal(result.discount, c.discount ?? 0);
        assert.equal(result.total, c.total);
        assert.equal(result.creditCarriedForward, c.credit ?? 0);
        if (c.rolloverOut !== undefined) assert.deepEqual(result.rolloverOut, c.rolloverOut);
        checkInvariants(result);
      });
    }
  });

  describe('line details', () => {
    it('licensed lines cover the opening period, metered lines the closing one, invoice items their own or none', () => {
      const result = assembleSubscriptionInvoice(
        invoice('ISK', {
          items: [licensed('si_seat', 1990, 1), metered('si_api', { unitAmount: 1 })],
          pendingInvoiceItems: [{ ...pending('ii_pr', -100, 1, true), periodStart: new Date('2026-01-16T00:00:00Z'), periodEnd: JAN.end }, pending('ii_fee', 500)],
        }),
      );
      assert.deepEqual(
        result.lines.map((l) => l.period),
        [FEB, JAN, { start: new Date('2026-01-16T00:00:00Z'), end: JAN.end }, null],
      );
      assert.deepEqual(
        result.lines.map((l) => [l.description, l.priceId]),
        [
          ['Product si_seat', 'price_si_seat'],
          ['Product si_api', 'price_si_api'],
          ['Invoice item ii_pr', null],
          ['Invoice item ii_fee', null],
        ],
      );
    });

    it('periods given as epoch milliseconds come back as Dates', () => {
      const result = assembleSubscriptionInvoice(invoice('ISK', { openingPeriod: { start: FEB.start.getTime(), end: FEB.end.getTime() }, items: [licensed('si_seat', 1, 1)] }));
      assert.deepEqual(result.lines[0].period, FEB);
    });

    it('graduated lines carry the tier breakdown and a null unit amount', () => {
      const [line] = assembleSubscriptionInvoice(invoice('ISK', { items: [tiered('si_g', 'graduated', TIERS, 11)] })).lines;
      assert.equal(line.tiersMode, 'graduated');
      assert.equal(line.unitAmount, null);
      // 5 × 1000 = 5000; 5 × 800 + 200 = 4200; 1 × 500 = 500
      assert.deepEqual(line.tierBreakdown, [
        { tier_index: 0, up_to: 5, quantity: 5, unit_amount: 1000, flat_amount: 0, amount: 5000 },
        { tier_index: 1, up_to: 10, quantity: 5, unit_amount: 800, flat_amount: 200, amount: 4200 },
        { tier_index: 2, up_to: null, quantity: 1, unit_amount: 500, flat_amount: 0, amount: 500 },
      ]);
    });

    it('volume lines carry the one tier used', () => {
      const [line] = assembleSubscriptionInvoice(invoice('ISK', { items: [tiered('si_v', 'volume', TIERS, 6)] })).lines;
      assert.equal(line.tiersMode, 'volume');
      assert.deepEqual(line.tierBreakdown, [{ tier_index: 1, up_to: 10, quantity: 6, unit_amount: 800, flat_amount: 200, amount: 5000 }]);
    });

    it('per-unit lines and invoice items have no breakdown', () => {
      const result = assembleSubscriptionInvoice(invoice('ISK', { items: [licensed('si_seat', 1990, 2)], pendingInvoiceItems: [pending('ii', 5)] }));
      for (const line of result.lines) {
        assert.equal(line.tiersMode, null);
        assert.deepEqual(line.tierBreakdown, []);
        assert.equal(line.metered, null);
      }
    });

    it('metered lines explain their quantity', () => {
      const [line] = assembleSubscriptionInvoice(
        invoice('EUR', {
          items: [metered('si_api', { unitAmount: 2, priceIncluded: 1000, itemIncluded: 900, creditRollover: true })],
          meteredUsage: { si_api: '1000.50' },
          rolloverIn: { si_api: 50 },
        }),
      ).lines;
      // allowance 900 + 50 = 950; 1000.5 − 950 = 50.5 → 51 units × 2 = 102
      assert.equal(line.quantity, 51);
      assert.equal(line.amount, 102);
      assert.deepEqual(line.metered, { usage: '1000.5', includedUnits: 900, rolloverIn: 50, rolloverOut: 0 });
    });
  });

  describe('credit rollover', () => {
    // ISK, 10 per unit, 1000 included, credit_rollover on; each invoice's rolloverOut is the next one's rolloverIn.
    const item = metered('si_api', { unitAmount: 10, priceIncluded: 1000, creditRollover: true });
    const periods: Array<{ usage: string; rolloverIn: number; units: number; amount: number; rolloverOut: number }> = [
      // allowance 1000; 399.5 used; unused 600.5 → 600 whole units (a started unit is used)
      { usage: '399.5', rolloverIn: 0, units: 0, amount: 0, rolloverOut: 600 },
      // allowance 1000 + 600 = 1600; 1500 used; unused 100
      { usage: '1500', rolloverIn: 600, units: 0, amount: 0, rolloverOut: 100 },
      // allowance 1100; nothing used; unused 1100, capped at one period's included units: 1000
      // (the 100 rolled in are consumed first and expire with this period)
      { usage: '0', rolloverIn: 100, units: 0, amount: 0, rolloverOut: 1000 },
      // allowance 2000; 1250.5 used; unused 749.5 → 749
      { usage: '1250.5', rolloverIn: 1000, units: 0, amount: 0, rolloverOut: 749 },
      // allowance 1749; 1900 used; 151 units beyond × 10 = 1510; nothing left
      { usage: '1900', rolloverIn: 749, units: 151, amount: 1510, rolloverOut: 0 },
    ];

    it('carries unused included units from period to period', () => {
      let rolloverIn: Record<string, number> = {};
      periods.forEach((p, i) => {
        const result = assembleSubscriptionInvoice(invoice('ISK', { items: [item], meteredUsage: { si_api: p.usage }, rolloverIn }));
        assert.equal(rolloverIn.si_api ?? 0, p.rolloverIn, `period ${i + 1} rollover in`);
        assert.deepEqual(summary(result), [['metered', 'si_api', p.units, 10, p.amount]], `period ${i + 1}`);
        assert.deepEqual(result.rolloverOut, { si_api: p.rolloverOut }, `period ${i + 1} rollover out`);
        rolloverIn = { ...result.rolloverOut };
      });
    });

    it('without credit_rollover nothing rolls out and rolled-in units are forfeited', () => {
      const plain = metered('si_api', { unitAmount: 10, priceIncluded: 1000 });
      const result = assembleSubscriptionInvoice(invoice('ISK', { items: [plain], meteredUsage: { si_api: '1500' }, rolloverIn: { si_api: 600 } }));
      // allowance 1000 only: 1500 − 1000 = 500 × 10 = 5000
      assert.deepEqual(summary(result), [['metered', 'si_api', 500, 10, 5000]]);
      assert.deepEqual(result.rolloverOut, { si_api: 0 });
      const idle = assembleSubscriptionInvoice(invoice('ISK', { items: [plain], meteredUsage: { si_api: '0' } }));
      assert.deepEqual(idle.rolloverOut, { si_api: 0 });
    });

    it('reports 0 for licensed items', () => {
      const seat = { ...licensed('si_seat', 1990, 1), creditRollover: true };
      assert.deepEqual(assembleSubscriptionInvoice(invoice('ISK', { items: [seat] })).rolloverOut, { si_seat: 0 });
    });
  });

  describe('metered rounding agrees with src/metering billableQuantity', () => {
    const usages = ['0', '0.0001', '999', '999.999', '1000', '1000.0', '1000.5', '1001', '1010.2', '-3', '123456789.123456789', '5000'];
    const includeds = [0, 1, 1000];
    for (const usage of usages) {
      for (const included of includeds) {
        it(`usage ${usage}, ${included} included`, () => {
          const item = metered('si_api', { unitAmount: 1, priceIncluded: included });
          const [line] = assembleSubscriptionInvoice(invoice('ISK', { items: [item], meteredUsage: { si_api: usage } })).lines;
          assert.equal(line.quantity, meteringBillableQuantity({ aggregateUsage: 'sum', quantities: [usage], includedUnits: included }));
        });
      }
    }
  });

  describe('refuses malformed input', () => {
    const seat = licensed('si_seat', 1990, 1);
    const api = metered('si_api', { unitAmount: 1 });
    const bad: Array<[string, SubscriptionInvoiceInput, RegExp]> = [
      ['unsupported currency', invoice('XYZ' as Currency, { items: [seat] }), /unsupported currency/],
      ['first and final at once', invoice('ISK', { isFirstInvoice: true, isFinal: true, items: [seat] }), /both the first and the final/],
      ['missing opening period', invoice('ISK', { openingPeriod: null, items: [seat] }), /openingPeriod is required/],
      ['missing closing period', invoice('ISK', { closingPeriod: null, items: [seat] }), /closingPeriod is required/],
      ['empty period', invoice('ISK', { openingPeriod: { start: FEB.start, end: FEB.start }, items: [seat] }), /must end after it starts/],
      ['opening before closing ends', invoice('ISK', { openingPeriod: JAN, closingPeriod: FEB, items: [seat] }), /must not start before/],
      ['duplicate item', invoice('ISK', { items: [seat, seat] }), /duplicate subscription item/],
      ['usage for an unknown item', invoice('ISK', { items: [api], meteredUsage: { si_other: '1' } }), /unknown item/],
      ['usage for a licensed item', invoice('ISK', { items: [seat], meteredUsage: { si_seat: '1' } }), /licensed item/],
      ['usage with an exponent', invoice('ISK', { items: [api], meteredUsage: { si_api: '1e3' } }), /plain decimal/],
      ['usage that is not a number', invoice('ISK', { items: [api], meteredUsage: { si_api: 'abc' } }), /plain decimal/],
      ['fractional rollover', invoice('ISK', { items: [api], rolloverIn: { si_api: 1.5 } }), /safe integer/],
      ['usage on a first invoice', invoice('ISK', { isFirstInvoice: true, items: [api], meteredUsage: { si_api: '1' } }), /first invoice/],
      ['rollover on a first invoice', invoice('ISK', { isFirstInvoice: true, items: [api], rolloverIn: { si_api: 5 } }), /first invoice/],
      ['fractional licensed quantity', invoice('ISK', { items: [licensed('si_seat', 1990, 1.5)] }), /safe integer/],
      ['price with both unit amount and tiers', invoice('ISK', { items: [{ ...seat, price: { ...seat.price, tiersMode: 'volume', tiers: TIERS } }] }), /exactly one of/],
      ['price with neither', invoice('ISK', { items: [{ ...seat, price: { ...seat.price, unitAmount: null } }] }), /exactly one of/],
      ['negative included units', invoice('ISK', { items: [metered('si_api', { unitAmount: 1, itemIncluded: -1 })] }), /at least 0/],
      ['discount without discountApplies', invoice('ISK', { items: [seat], discount: { percent_off: 15, duration: 'once' } }), /discountApplies/],
      ['invalid discount', invoice('ISK', { items: [seat], discount: { percent_off: 15.555, duration: 'once' } as Discount, discountApplies: false }), /invalid discount/],
      ['duplicate pending item', invoice('ISK', { items: [seat], pendingInvoiceItems: [pending('ii', 1), pending('ii', 2)] }), /duplicate invoice item/],
      ['pending item with half a period', invoice('ISK', { items: [seat], pendingInvoiceItems: [{ ...pending('ii', 1), periodStart: JAN.start }] }), /come together/],
      ['pending item with a fractional amount', invoice('ISK', { items: [seat], pendingInvoiceItems: [pending('ii', 1.5)] }), /safe integer/],
    ];
    for (const [name, input, message] of bad) {
      it(name, () => {
        assert.throws(() => assembleSubscriptionInvoice(input), message);
      });
    }
  });
});
