import assert from 'node:assert/strict';
import { Discount, applyDiscount, discountAppliesToPeriod, percentOffHundredths, repeatingDiscountEndsAt, validateDiscount } from '../../../src/billing';

describe('billing/discounts', () => {
  describe('applyDiscount', () => {
    const cases: Array<{ name: string; subtotal: number; discount: Discount; expected: number }> = [
      { name: 'amount_off larger than the subtotal is capped at the subtotal', subtotal: 1000, discount: { amount_off: 1500, duration: 'once' }, expected: 1000 },
      { name: 'amount_off equal to the subtotal', subtotal: 1000, discount: { amount_off: 1000, duration: 'once' }, expected: 1000 },
      { name: 'amount_off smaller than the subtotal', subtotal: 1000, discount: { amount_off: 300, duration: 'forever' }, expected: 300 },
      // 1999 × 3333 / 10000 = 6,662,667 / 10,000 = 666.2667 → 666
      { name: '33.33% of EUR 19.99', subtotal: 1999, discount: { percent_off: 33.33, duration: 'once' }, expected: 666 },
      // 1990 × 3333 / 10000 = 6,632,670 / 10,000 = 663.267 → 663
      { name: '33.33% of ISK 1990', subtotal: 1990, discount: { percent_off: 33.33, duration: 'once' }, expected: 663 },
      // 9999 × 3333 / 10000 = 33,326,667 / 10,000 = 3332.6667 → 3333
      { name: '33.33% of 9999', subtotal: 9999, discount: { percent_off: 33.33, duration: 'once' }, expected: 3333 },
      // 15 × 3333 / 10000 = 4.9995 → 5
      { name: '33.33% of 15', subtotal: 15, discount: { percent_off: 33.33, duration: 'once' }, expected: 5 },
      // 3 × 3333 / 10000 = 0.9999 → 1
      { name: '33.33% of 3', subtotal: 3, discount: { percent_off: 33.33, duration: 'once' }, expected: 1 },
      // 1 × 3333 / 10000 = 0.3333 → 0
      { name: '33.33% of 1', subtotal: 1, discount: { percent_off: 33.33, duration: 'once' }, expected: 0 },
      // 1999 / 2 = 999.5 → 1000
      { name: '50% of 1999: the half rounds away from zero', subtotal: 1999, discount: { percent_off: 50, duration: 'once' }, expected: 1000 },
      // 4 × 1250 / 10000 = 0.5 → 1
      { name: '12.5% of 4', subtotal: 4, discount: { percent_off: 12.5, duration: 'once' }, expected: 1 },
      { name: '100% of 1999', subtotal: 1999, discount: { percent_off: 100, duration: 'once' }, expected: 1999 },
      // 10000 × 1 / 10000 = 1
      { name: '0.01% of 10000', subtotal: 10000, discount: { percent_off: 0.01, duration: 'once' }, expected: 1 },
      // 4999 / 10000 = 0.4999 → 0; 5000 / 10000 = 0.5 → 1
      { name: '0.01% of 4999', subtotal: 4999, discount: { percent_off: 0.01, duration: 'once' }, expected: 0 },
      { name: '0.01% of 5000', subtotal: 5000, discount: { percent_off: 0.01, duration: 'once' }, expected: 1 },
      // 1 × 9999 / 10000 = 0.9999 → 1, which is the whole subtotal
      { name: '99.99% of 1 never exceeds the subtotal', subtotal: 1, discount: { percent_off: 99.99, duration: 'once' }, expected: 1 },
      { name: 'subtotal 0', subtotal: 0, discount: { amount_off: 500, duration: 'once' }, expected: 0 },
      { name: 'negative subtotal (credits): no discount', subtotal: -500, discount: { percent_off: 50, duration: 'once' }, expected: 0 },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.expected}`, () => {
        assert.equal(applyDiscount(c.subtotal, c.discount), c.expected);
      });
    }
    it('refuses invalid discounts and non-integer subtotals', () => {
      assert.throws(() => applyDiscount(1000, { amount_off: 100, percent_off: 10, duration: 'once' }), RangeError);
      assert.throws(() => applyDiscount(1000, { percent_off: 33.333, duration: 'once' }), RangeError);
      assert.throws(() => applyDiscount(10.5, { amount_off: 100, duration: 'once' }), RangeError);
    });
  });

  describe('percentOffHundredths', () => {
    const cases: Array<[number, number | null]> = [
      [33.33, 3333],
      [0.1, 10],
      [0.01, 1],
      [12.5, 1250],
      [100, 10000],
      [99.99, 9999],
      [33.333, null], // three decimals
      [1e-7, null], // exponent notation, far below 0.01
      [-5, null],
      [Number.NaN, null],
    ];
    for (const [percent, expected] of cases) {
      it(`${percent} → ${String(expected)}`, () => {
        assert.equal(percentOffHundredths(percent), expected);
      });
    }
  });

  describe('validateDiscount', () => {
    const cases: Array<{ name: string; discount: Discount; problems: string[] }> = [
      { name: 'valid amount_off once', discount: { amount_off: 500, duration: 'once' }, problems: [] },
      { name: 'valid percent_off repeating', discount: { percent_off: 33.33, duration: 'repeating', duration_in_months: 3 }, problems: [] },
      { name: 'valid forever with null fields', discount: { amount_off: null, percent_off: 10, duration: 'forever', duration_in_months: null }, problems: [] },
      { name: 'both kinds', discount: { amount_off: 500, percent_off: 10, duration: 'once' }, problems: ['a discount needs exactly one of amount_off and percent_off'] },
      { name: 'neither kind', discount: { duration: 'once' }, problems: ['a discount needs exactly one of amount_off and percent_off'] },
      { name: 'amount_off 0', discount: { amount_off: 0, duration: 'once' }, problems: ['amount_off must be a positive integer in minor units, got 0'] },
      { name: 'amount_off 1.5', discount: { amount_off: 1.5, duration: 'once' }, problems: ['amount_off must be a positive integer in minor units, got 1.5'] },
      { name: 'percent_off 0', discount: { percent_off: 0, duration: 'once' }, problems: ['percent_off must be between 0.01 and 100 with at most two decimals, got 0'] },
      {
        name: 'percent_off 100.01',
        discount: { percent_off: 100.01, duration: 'once' },
        problems: ['percent_off must be between 0.01 and 100 with at most two decimals, got 100.01'],
      },
      {
        name: 'percent_off 33.333',
        discount: { percent_off: 33.333, duration: 'once' },
        problems: ['percent_off must be between 0.01 and 100 with at most two decimals, got 33.333'],
      },
      {
        name: 'repeating without months',
        discount: { amount_off: 500, duration: 'repeating' },
        problems: ['a repeating discount needs duration_in_months as a positive integer, got undefined'],
      },
      {
        name: 'once with months',
        discount: { amount_off: 500, duration: 'once', duration_in_months: 3 },
        problems: ['duration_in_months is only allowed with duration repeating'],
      },
      {
        name: 'unknown duration',
        discount: { amount_off: 500, duration: 'sometimes' as Discount['duration'] },
        problems: ['duration must be once, repeating or forever, got sometimes'],
      },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.problems.length} problem(s)`, () => {
        assert.deepEqual(validateDiscount(c.discount), c.problems);
      });
    }
  });

  describe('discountAppliesToPeriod', () => {
    const once: Discount = { amount_off: 500, duration: 'once' };
    const forever: Discount = { percent_off: 10, duration: 'forever' };
    const threeMonths: Discount = { percent_off: 10, duration: 'repeating', duration_in_months: 3 };
    const fourMonths: Discount = { percent_off: 10, duration: 'repeating', duration_in_months: 4 };
    const thirteenMonths: Discount = { percent_off: 10, duration: 'repeating', duration_in_months: 13 };
    const cases: Array<{ name: string; discount: Discount; started: number; period: number; monthsPerPeriod?: number; expected: boolean }> = [
      { name: 'once, its first period', discount: once, started: 2, period: 2, expected: true },
      { name: 'once, the next period', discount: once, started: 2, period: 3, expected: false },
      { name: 'once, an earlier period', discount: once, started: 2, period: 1, expected: false },
      { name: 'forever, the first period', discount: forever, started: 0, period: 0, expected: true },
      { name: 'forever, 100 periods later', discount: forever, started: 0, period: 100, expected: true },
      { name: 'forever, before it started', discount: forever, started: 5, period: 4, expected: false },
      // monthly: offsets 0, 1, 2 are within 3 months
      { name: 'repeating 3 months, monthly, offset 0', discount: threeMonths, started: 0, period: 0, expected: true },
      { name: 'repeating 3 months, monthly, offset 2', discount: threeMonths, started: 0, period: 2, expected: true },
      { name: 'repeating 3 months, monthly, offset 3', discount: threeMonths, started: 0, period: 3, expected: false },
      { name: 'repeating 3 months, monthly, started at 4, period 6', discount: threeMonths, started: 4, period: 6, expected: true },
      { name: 'repeating 3 months, monthly, started at 4, period 7', discount: threeMonths, started: 4, period: 7, expected: false },
      { name: 'repeating 3 months, before it started', discount: threeMonths, started: 4, period: 3, expected: false },
      // quarterly: offset × 3 months < 4 → offsets 0 (0) and 1 (3), not 2 (6)
      { name: 'repeating 4 months, quarterly, offset 1', discount: fourMonths, started: 0, period: 1, monthsPerPeriod: 3, expected: true },
      { name: 'repeating 4 months, quarterly, offset 2', discount: fourMonths, started: 0, period: 2, monthsPerPeriod: 3, expected: false },
      // yearly: 3 months covers only the first year; 13 months covers years starting at 0 and 12 months
      { name: 'repeating 3 months, yearly, offset 0', discount: threeMonths, started: 0, period: 0, monthsPerPeriod: 12, expected: true },
      { name: 'repeating 3 months, yearly, offset 1', discount: threeMonths, started: 0, period: 1, monthsPerPeriod: 12, expected: false },
      { name: 'repeating 13 months, yearly, offset 1', discount: thirteenMonths, started: 0, period: 1, monthsPerPeriod: 12, expected: true },
      { name: 'repeating 13 months, yearly, offset 2', discount: thirteenMonths, started: 0, period: 2, monthsPerPeriod: 12, expected: false },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.expected}`, () => {
        assert.equal(discountAppliesToPeriod(c.discount, c.started, c.period, c.monthsPerPeriod), c.expected);
      });
    }
    it('refuses monthsPerPeriod 0', () => {
      assert.throws(() => discountAppliesToPeriod(forever, 0, 0, 0), RangeError);
    });
  });

  describe('repeatingDiscountEndsAt', () => {
    const cases: Array<[string, number, string]> = [
      ['2025-01-31T00:00:00.000Z', 1, '2025-02-28T00:00:00.000Z'],
      ['2024-11-30T12:00:00.000Z', 3, '2025-02-28T12:00:00.000Z'],
      ['2023-11-30T00:00:00.000Z', 3, '2024-02-29T00:00:00.000Z'],
      ['2025-03-15T08:00:00.000Z', 12, '2026-03-15T08:00:00.000Z'],
    ];
    for (const [startedAt, months, expected] of cases) {
      it(`${startedAt} + ${months} months → ${expected}`, () => {
        assert.equal(repeatingDiscountEndsAt(new Date(startedAt), months).toISOString(), expected);
      });
    }
  });
});
