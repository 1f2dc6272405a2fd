import assert from 'node:assert/strict';
import { AmountLine, Discount, InvoiceTotals, sumLines, totals } from '../../../src/billing';

const lines = (...amounts: number[]): AmountLine[] => amounts.map((amount) => ({ amount }));

describe('billing/invoice-lines', () => {
  describe('sumLines', () => {
    const cases: Array<{ name: string; amounts: number[]; expected: number }> = [
      { name: 'no lines', amounts: [], expected: 0 },
      { name: 'two ISK lines', amounts: [1990, 1990], expected: 3980 },
      // proration pair from the proration table plus the new period: 5000 - 1333 + 3333
      { name: 'with a proration credit', amounts: [5000, -1333, 3333], expected: 7000 },
      { name: 'credits only', amounts: [-100, -250], expected: -350 },
      // exact where floats are not: MAX_SAFE + 2 is not representable, the exact sum is MAX_SAFE
      { name: 'exact beyond float precision in between', amounts: [Number.MAX_SAFE_INTEGER, 2, -2], expected: Number.MAX_SAFE_INTEGER },
    ];
    for (const c of cases) {
      it(`${c.name} → ${c.expected}`, () => {
        assert.equal(sumLines(lines(...c.amounts)), c.expected);
      });
    }
    it('refuses a non-integer line and a sum beyond the safe range', () => {
      assert.throws(() => sumLines(lines(100, 0.5)), RangeError);
      assert.throws(() => sumLines(lines(Number.MAX_SAFE_INTEGER, 1)), RangeError);
    });
  });

  describe('totals', () => {
    const cases: Array<{ name: string; amounts: number[]; discount?: Discount | null; expected: InvoiceTotals }> = [
      { name: 'no lines', amounts: [], expected: { subtotal: 0, discount: 0, total: 0, credit_carried_forward: 0 } },
      { name: 'no discount', amounts: [1990, 1990], expected: { subtotal: 3980, discount: 0, total: 3980, credit_carried_forward: 0 } },
      { name: 'null discount', amounts: [1990], discount: null, expected: { subtotal: 1990, discount: 0, total: 1990, credit_carried_forward: 0 } },
      // 1999 × 33.33% = 666.2667 → 666; 1999 - 666 = 1333
      {
        name: '33.33% of 1999',
        amounts: [1999],
        discount: { percent_off: 33.33, duration: 'once' },
        expected: { subtotal: 1999, discount: 666, total: 1333, credit_carried_forward: 0 },
      },
      // 1000 + 999 = 1999 → same figures: the discount is on the subtotal, rounded once
      {
        name: '33.33% on two lines is rounded once on the subtotal',
        amounts: [1000, 999],
        discount: { percent_off: 33.33, duration: 'forever' },
        expected: { subtotal: 1999, discount: 666, total: 1333, credit_carried_forward: 0 },
      },
      {
        name: 'amount_off larger than the subtotal',
        amounts: [2000, 1000],
        discount: { amount_off: 5000, duration: 'once' },
        expected: { subtotal: 3000, discount: 3000, total: 0, credit_carried_forward: 0 },
      },
      // 3000 - 1000 = 2000; 50% = 1000
      {
        name: 'discount after proration credits',
        amounts: [3000, -1000],
        discount: { percent_off: 50, duration: 'once' },
        expected: { subtotal: 2000, discount: 1000, total: 1000, credit_carried_forward: 0 },
      },
      // 1000 - 3000 = -2000: total 0, 2000 carried forward
      { name: 'credits exceed charges', amounts: [1000, -3000], expected: { subtotal: -2000, discount: 0, total: 0, credit_carried_forward: 2000 } },
      {
        name: 'credits exceed charges, discount does not apply',
        amounts: [1000, -3000],
        discount: { percent_off: 10, duration: 'forever' },
        expected: { subtotal: -2000, discount: 0, total: 0, credit_carried_forward: 2000 },
      },
      { name: 'credits exactly cancel charges', amounts: [1000, -1000], expected: { subtotal: 0, discount: 0, total: 0, credit_carried_forward: 0 } },
    ];
    for (const c of cases) {
      it(`${c.name} → total ${c.expected.total}`, () => {
        const result = totals(lines(...c.amounts), c.discount);
        assert.deepEqual(result, c.expected);
        // the invariant documented in invoice-lines.ts
        assert.equal(result.total - result.credit_carried_forward, result.subtotal - result.discount);
      });
    }
  });
});
