import assert from 'node:assert/strict';
import { PriceTier, TierBreakdownRow, ZERO_QUANTITY_RULE, billableQuantity, graduatedAmount, licensedAmount, priceAmount, validateTiers, volumeAmount } from '../../../src/billing';

// Stripe's documented example (fonts): 1–5 at 7.00, 6–10 at 6.50, 11+ at 6.00 (USD cents).
const FONTS: PriceTier[] = [
  { up_to: 5, unit_amount: 700 },
  { up_to: 10, unit_amount: 650 },
  { up_to: null, unit_amount: 600 },
];

// The same with flat amounts: 5.00 on the first tier, 10.00 on the second, 20.00 on the open tier.
const FLAT: PriceTier[] = [
  { up_to: 5, unit_amount: 700, flat_amount: 500 },
  { up_to: 10, unit_amount: 650, flat_amount: 1000 },
  { up_to: null, unit_amount: 600, flat_amount: 2000 },
];

// A base fee tier: the first 1000 units cost 200.00 flat, then 0.04 each.
const BASE_FEE: PriceTier[] = [
  { up_to: 1000, unit_amount: 0, flat_amount: 20000 },
  { up_to: null, unit_amount: 4 },
];

const row = (tier_index: number, up_to: number | null, quantity: number, unit_amount: number, flat_amount: number, amount: number): TierBreakdownRow => ({
  tier_index,
  up_to,
  quantity,
  unit_amount,
  flat_amount,
  amount,
});

describe('billing/tiers', () => {
  describe('licensedAmount (unit_amount × quantity)', () => {
    const cases: Array<[number, number, number]> = [
      [1990, 3, 5970],
      [1990, 1, 1990],
      [1990, 0, 0],
      [0, 5, 0],
      [999, 1000, 999000],
    ];
    for (const [unit, quantity, expected] of cases) {
      it(`${unit} × ${quantity} = ${expected}`, () => {
        assert.equal(licensedAmount(unit, quantity), expected);
      });
    }
    it('refuses negative and fractional quantities and unsafe products', () => {
      assert.throws(() => licensedAmount(100, -1), RangeError);
      assert.throws(() => licensedAmount(100, 1.5), RangeError);
      assert.throws(() => licensedAmount(Number.MAX_SAFE_INTEGER, 2), RangeError);
    });
  });

  describe('graduatedAmount', () => {
    const cases: Array<{ name: string; tiers: PriceTier[]; quantity: number; amount: number; breakdown: TierBreakdownRow[] }> = [
      { name: 'fonts, 0 → nothing', tiers: FONTS, quantity: 0, amount: 0, breakdown: [] },
      { name: 'fonts, 1', tiers: FONTS, quantity: 1, amount: 700, breakdown: [row(0, 5, 1, 700, 0, 700)] },
      // 5 × 700
      { name: 'fonts, 5 (first tier edge)', tiers: FONTS, quantity: 5, amount: 3500, breakdown: [row(0, 5, 5, 700, 0, 3500)] },
      // 3500 + 1 × 650
      { name: 'fonts, 6 (edge + 1)', tiers: FONTS, quantity: 6, amount: 4150, breakdown: [row(0, 5, 5, 700, 0, 3500), row(1, 10, 1, 650, 0, 650)] },
      // 3500 + 5 × 650 = 3500 + 3250
      { name: 'fonts, 10 (second tier edge)', tiers: FONTS, quantity: 10, amount: 6750, breakdown: [row(0, 5, 5, 700, 0, 3500), row(1, 10, 5, 650, 0, 3250)] },
      // 6750 + 1 × 600
      {
        name: 'fonts, 11 (edge + 1)',
        tiers: FONTS,
        quantity: 11,
        amount: 7350,
        breakdown: [row(0, 5, 5, 700, 0, 3500), row(1, 10, 5, 650, 0, 3250), row(2, null, 1, 600, 0, 600)],
      },
      // 6750 + 15 × 600 = 6750 + 9000
      { name: 'fonts, 25', tiers: FONTS, quantity: 25, amount: 15750, breakdown: [row(0, 5, 5, 700, 0, 3500), row(1, 10, 5, 650, 0, 3250), row(2, null, 15, 600, 0, 9000)] },
      { name: 'flat, 0 → nothing, not even the first flat_amount', tiers: FLAT, quantity: 0, amount: 0, breakdown: [] },
      // 700 + 500
      { name: 'flat, 1', tiers: FLAT, quantity: 1, amount: 1200, breakdown: [row(0, 5, 1, 700, 500, 1200)] },
      // 3500 + 500
      { name: 'flat, 5', tiers: FLAT, quantity: 5, amount: 4000, breakdown: [row(0, 5, 5, 700, 500, 4000)] },
      // 4000 + (650 + 1000)
      { name: 'flat, 6: second flat_amount once', tiers: FLAT, quantity: 6, amount: 5650, breakdown: [row(0, 5, 5, 700, 500, 4000), row(1, 10, 1, 650, 1000, 1650)] },
      // 4000 + (3250 + 1000)
      { name: 'flat, 10', tiers: FLAT, quantity: 10, amount: 8250, breakdown: [row(0, 5, 5, 700, 500, 4000), row(1, 10, 5, 650, 1000, 4250)] },
      // 8250 + (600 + 2000)
      { name: 'flat, 11', tiers: FLAT, quantity: 11, amount: 10850, breakdown: [row(0, 5, 5, 700, 500, 4000), row(1, 10, 5, 650, 1000, 4250), row(2, null, 1, 600, 2000, 2600)] },
      { name: 'base fee, 0 → nothing', tiers: BASE_FEE, quantity: 0, amount: 0, breakdown: [] },
      { name: 'base fee, 1', tiers: BASE_FEE, quantity: 1, amount: 20000, breakdown: [row(0, 1000, 1, 0, 20000, 20000)] },
      { name: 'base fee, 1000', tiers: BASE_FEE, quantity: 1000, amount: 20000, breakdown: [row(0, 1000, 1000, 0, 20000, 20000)] },
      // 20000 + 1 × 4
      { name: 'base fee, 1001', tiers: BASE_FEE, quantity: 1001, amount: 20004, breakdown: [row(0, 1000, 1000, 0, 20000, 20000), row(1, null, 1, 4, 0, 4)] },
      {
        name: 'a single open tier',
        tiers: [{ up_to: null, unit_amount: 250 }],
        quantity: 4,
        amount: 1000,
        breakdown: [row(0, null, 4, 250, 0, 1000)],
      },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.amount}`, () => {
        const result = graduatedAmount(c.tiers, c.quantity);
        assert.equal(result.amount, c.amount);
        assert.deepEqual(result.breakdown, c.breakdown);
        assert.equal(result.tiers_mode, 'graduated');
        assert.equal(result.quantity, c.quantity);
        assert.equal(result.zero_quantity_rule, c.quantity === 0 ? ZERO_QUANTITY_RULE.graduated : undefined);
      });
    }
  });

  describe('volumeAmount', () => {
    const cases: Array<{ name: string; tiers: PriceTier[]; quantity: number; amount: number; breakdown: TierBreakdownRow[] }> = [
      { name: 'fonts, 0 → first tier, no flat', tiers: FONTS, quantity: 0, amount: 0, breakdown: [row(0, 5, 0, 700, 0, 0)] },
      { name: 'fonts, 1', tiers: FONTS, quantity: 1, amount: 700, breakdown: [row(0, 5, 1, 700, 0, 700)] },
      // Stripe's figures: 5 → 35 USD, 6 → 39 USD, 20 → 120 USD, 25 → 150 USD
      { name: 'fonts, 5 (edge)', tiers: FONTS, quantity: 5, amount: 3500, breakdown: [row(0, 5, 5, 700, 0, 3500)] },
      { name: 'fonts, 6 (edge + 1): all six at 6.50', tiers: FONTS, quantity: 6, amount: 3900, breakdown: [row(1, 10, 6, 650, 0, 3900)] },
      { name: 'fonts, 10 (edge)', tiers: FONTS, quantity: 10, amount: 6500, breakdown: [row(1, 10, 10, 650, 0, 6500)] },
      { name: 'fonts, 11 (edge + 1)', tiers: FONTS, quantity: 11, amount: 6600, breakdown: [row(2, null, 11, 600, 0, 6600)] },
      { name: 'fonts, 20', tiers: FONTS, quantity: 20, amount: 12000, breakdown: [row(2, null, 20, 600, 0, 12000)] },
      { name: 'fonts, 25', tiers: FONTS, quantity: 25, amount: 15000, breakdown: [row(2, null, 25, 600, 0, 15000)] },
      // quantity 0 is in the first tier: 0 × 700 + 500
      { name: 'flat, 0 → first tier flat_amount', tiers: FLAT, quantity: 0, amount: 500, breakdown: [row(0, 5, 0, 700, 500, 500)] },
      // 700 + 500
      { name: 'flat, 1', tiers: FLAT, quantity: 1, amount: 1200, breakdown: [row(0, 5, 1, 700, 500, 1200)] },
      // 3500 + 500
      { name: 'flat, 5', tiers: FLAT, quantity: 5, amount: 4000, breakdown: [row(0, 5, 5, 700, 500, 4000)] },
      // 6 × 650 + 1000 = 3900 + 1000
      { name: 'flat, 6', tiers: FLAT, quantity: 6, amount: 4900, breakdown: [row(1, 10, 6, 650, 1000, 4900)] },
      // 10 × 650 + 1000
      { name: 'flat, 10', tiers: FLAT, quantity: 10, amount: 7500, breakdown: [row(1, 10, 10, 650, 1000, 7500)] },
      // 11 × 600 + 2000
      { name: 'flat, 11', tiers: FLAT, quantity: 11, amount: 8600, breakdown: [row(2, null, 11, 600, 2000, 8600)] },
      { name: 'base fee, 0 → first tier flat_amount', tiers: BASE_FEE, quantity: 0, amount: 20000, breakdown: [row(0, 1000, 0, 0, 20000, 20000)] },
      { name: 'base fee, 1000', tiers: BASE_FEE, quantity: 1000, amount: 20000, breakdown: [row(0, 1000, 1000, 0, 20000, 20000)] },
      // all 1001 units at 4: 4004, no flat on the open tier (volume drops the base fee here)
      { name: 'base fee, 1001', tiers: BASE_FEE, quantity: 1001, amount: 4004, breakdown: [row(1, null, 1001, 4, 0, 4004)] },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.amount}`, () => {
        const result = volumeAmount(c.tiers, c.quantity);
        assert.equal(result.amount, c.amount);
        assert.deepEqual(result.breakdown, c.breakdown);
        assert.equal(result.tiers_mode, 'volume');
        assert.equal(result.zero_quantity_rule, c.quantity === 0 ? ZERO_QUANTITY_RULE.volume : undefined);
      });
    }
    it('refuses invalid tiers and quantities', () => {
      assert.throws(() => volumeAmount([{ up_to: 5, unit_amount: 1 }], 3), RangeError);
      assert.throws(() => volumeAmount(FONTS, -1), RangeError);
      assert.throws(() => graduatedAmount(FONTS, 2.5), RangeError);
    });
  });

  describe('billableQuantity (included units)', () => {
    const cases: Array<[number, number | null | undefined, number]> = [
      [10, 3, 7],
      [3, 10, 0], // floor at 0
      [5, 5, 0],
      [5, 0, 5],
      [5, null, 5],
      [5, undefined, 5],
      [0, 3, 0],
    ];
    for (const [quantity, included, expected] of cases) {
      it(`${quantity} with ${String(included)} included → ${expected}`, () => {
        assert.equal(billableQuantity(quantity, included), expected);
      });
    }
    it('refuses negative included units', () => {
      assert.throws(() => billableQuantity(5, -1), RangeError);
    });
  });

  describe('priceAmount', () => {
    const cases: Array<{
      name: string;
      price: Parameters<typeof priceAmount>[0];
      quantity: number;
      included?: number | null;
      amount: number;
      billable: number;
      rows: number;
      zeroRule?: string;
    }> = [
      { name: 'licensed 1990 ISK × 3', price: { unit_amount: 1990, tiers_mode: null }, quantity: 3, amount: 5970, billable: 3, rows: 0 },
      // (3 - 1) × 1990
      { name: 'licensed with 1 included', price: { unit_amount: 1990 }, quantity: 3, included: 1, amount: 3980, billable: 2, rows: 0 },
      // 12 - 2 = 10 → graduated fonts at 10 = 6750
      { name: 'graduated with 2 included', price: { unit_amount: null, tiers_mode: 'graduated', tiers: FONTS }, quantity: 12, included: 2, amount: 6750, billable: 10, rows: 2 },
      // 13 - 2 = 11 → volume flat at 11 = 8600
      { name: 'volume with 2 included', price: { unit_amount: null, tiers_mode: 'volume', tiers: FLAT }, quantity: 13, included: 2, amount: 8600, billable: 11, rows: 1 },
      // 4 - 10 → 0 → volume flat at 0 = first flat 500
      {
        name: 'volume, all units included → quantity 0 rule',
        price: { tiers_mode: 'volume', tiers: FLAT },
        quantity: 4,
        included: 10,
        amount: 500,
        billable: 0,
        rows: 1,
        zeroRule: ZERO_QUANTITY_RULE.volume,
      },
      {
        name: 'graduated, all units included → 0',
        price: { tiers_mode: 'graduated', tiers: FLAT },
        quantity: 4,
        included: 10,
        amount: 0,
        billable: 0,
        rows: 0,
        zeroRule: ZERO_QUANTITY_RULE.graduated,
      },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.amount}`, () => {
        const result = priceAmount(c.price, c.quantity, c.included);
        assert.equal(result.amount, c.amount);
        assert.equal(result.billable_quantity, c.billable);
        assert.equal(result.quantity, c.quantity);
        assert.equal(result.included_units, c.included ?? 0);
        assert.equal(result.breakdown.length, c.rows);
        assert.equal(result.zero_quantity_rule, c.zeroRule);
      });
    }
    it('needs unit_amount when tiers_mode is not set', () => {
      assert.throws(() => priceAmount({ unit_amount: null }, 1), RangeError);
    });
  });

  describe('validateTiers', () => {
    const cases: Array<{ name: string; tiers: PriceTier[]; problems: string[] }> = [
      { name: 'valid fonts', tiers: FONTS, problems: [] },
      { name: 'valid flat', tiers: FLAT, problems: [] },
      { name: 'a single open tier', tiers: [{ up_to: null, flat_amount: 1000 }], problems: [] },
      { name: 'empty', tiers: [], problems: ['tiers must contain at least one tier'] },
      {
        name: 'not ascending',
        tiers: [
          { up_to: 10, unit_amount: 1 },
          { up_to: 5, unit_amount: 1 },
          { up_to: null, unit_amount: 1 },
        ],
        problems: ["tier 2: up_to 5 must be greater than the previous tier's up_to 10"],
      },
      {
        name: 'duplicate up_to',
        tiers: [
          { up_to: 5, unit_amount: 1 },
          { up_to: 5, unit_amount: 1 },
          { up_to: null, unit_amount: 1 },
        ],
        problems: ["tier 2: up_to 5 must be greater than the previous tier's up_to 5"],
      },
      {
        name: 'open tier not last',
        tiers: [
          { up_to: null, unit_amount: 1 },
          { up_to: 5, unit_amount: 1 },
        ],
        problems: ['tier 1: only the last tier may have up_to null (open tier)', 'the last tier must be open (up_to null) so that every quantity has a tier'],
      },
      {
        name: 'missing open tier',
        tiers: [
          { up_to: 5, unit_amount: 1 },
          { up_to: 10, unit_amount: 1 },
        ],
        problems: ['the last tier must be open (up_to null) so that every quantity has a tier'],
      },
      {
        name: 'negative amounts',
        tiers: [
          { up_to: 5, unit_amount: -1 },
          { up_to: null, unit_amount: 1, flat_amount: -100 },
        ],
        problems: ['tier 1: unit_amount must be a non-negative integer, got -1', 'tier 2: flat_amount must be a non-negative integer, got -100'],
      },
      {
        name: 'non-integers',
        tiers: [
          { up_to: 5.5, unit_amount: 1 },
          { up_to: null, unit_amount: 0.5, flat_amount: 1.25 },
        ],
        problems: [
          'tier 1: up_to must be a positive integer or null, got 5.5',
          'tier 2: unit_amount must be a non-negative integer, got 0.5',
          'tier 2: flat_amount must be a non-negative integer, got 1.25',
        ],
      },
      {
        name: 'up_to 0',
        tiers: [
          { up_to: 0, flat_amount: 100 },
          { up_to: null, unit_amount: 1 },
        ],
        problems: ['tier 1: up_to must be a positive integer or null, got 0'],
      },
      {
        name: 'a tier with no price',
        tiers: [
          { up_to: 5, unit_amount: null, flat_amount: null },
          { up_to: null, unit_amount: 1 },
        ],
        problems: ['tier 1: needs a unit_amount or a flat_amount'],
      },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.problems.length} problem(s)`, () => {
        assert.deepEqual(validateTiers(c.tiers), c.problems);
      });
    }
  });
});
