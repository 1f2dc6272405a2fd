import assert from 'node:assert/strict';
import { mulDivRound, roundRatio } from '../../../src/billing';

describe('billing/rounding (half away from zero)', () => {
  describe('roundRatio', () => {
    const cases: Array<[bigint, bigint, bigint]> = [
      [5n, 2n, 3n], // 2.5 → 3
      [-5n, 2n, -3n], // -2.5 → -3
      [5n, -2n, -3n],
      [-5n, -2n, 3n],
      [1n, 2n, 1n], // 0.5 → 1
      [-1n, 2n, -1n], // -0.5 → -1
      [3n, 2n, 2n], // 1.5 → 2 (banker's rounding agrees here; 5/2 → 3 is where it would not)
      [7n, 2n, 4n], // 3.5 → 4
      [1n, 3n, 0n], // 0.333 → 0
      [2n, 3n, 1n], // 0.667 → 1
      [-2n, 3n, -1n],
      [-1n, 3n, 0n],
      [0n, 5n, 0n],
      [10n, 5n, 2n], // exact
      [4999n, 10000n, 0n], // 0.4999 → 0
      [5000n, 10000n, 1n], // 0.5 → 1
      [-4999n, 10000n, 0n],
      [-5000n, 10000n, -1n],
      // far beyond Number precision: (2^80 + 1) / 2 = 2^79 + 0.5 → 2^79 + 1
      [2n ** 80n + 1n, 2n, 2n ** 79n + 1n],
    ];
    for (const [n, d, expected] of cases) {
      it(`${n} / ${d} → ${expected}`, () => {
        assert.equal(roundRatio(n, d), expected);
      });
    }
    it('throws on a zero denominator', () => {
      assert.throws(() => roundRatio(1n, 0n), RangeError);
    });
  });

  describe('mulDivRound', () => {
    const cases: Array<{ name: string; amount: number; mul: number | bigint; div: number | bigint; expected: number }> = [
      // ISK (no minor unit)
      { name: 'ISK 1990 / 4 = 497.5 → 498', amount: 1990, mul: 1, div: 4, expected: 498 },
      { name: 'ISK -1990 / 4 = -497.5 → -498', amount: -1990, mul: 1, div: 4, expected: -498 },
      { name: 'ISK 1995 × 15 / 30 = 997.5 → 998', amount: 1995, mul: 15, div: 30, expected: 998 },
      { name: 'ISK -1995 × 15 / 30 = -997.5 → -998', amount: -1995, mul: 15, div: 30, expected: -998 },
      { name: 'ISK 1990 × 1 / 3 = 663.33 → 663', amount: 1990, mul: 1, div: 3, expected: 663 },
      { name: 'ISK 1990 × 2 / 3 = 1326.67 → 1327', amount: 1990, mul: 2, div: 3, expected: 1327 },
      // EUR (cents)
      { name: 'EUR 19.99 / 2 = 999.5 c → 1000 c', amount: 1999, mul: 1, div: 2, expected: 1000 },
      { name: 'EUR -19.99 / 2 = -999.5 c → -1000 c', amount: -1999, mul: 1, div: 2, expected: -1000 },
      { name: 'EUR 3.33 / 2 = 166.5 c → 167 c', amount: 333, mul: 1, div: 2, expected: 167 },
      { name: 'EUR -3.33 / 2 = -166.5 c → -167 c', amount: -333, mul: 1, div: 2, expected: -167 },
      { name: 'EUR 0.01 / 2 = 0.5 c → 1 c', amount: 1, mul: 1, div: 2, expected: 1 },
      { name: 'EUR -0.01 / 2 = -0.5 c → -1 c', amount: -1, mul: 1, div: 2, expected: -1 },
      { name: 'EUR 0.01 / 3 → 0 c', amount: 1, mul: 1, div: 3, expected: 0 },
      { name: 'EUR 19.99 × 3333 / 10000 = 666.2667 c → 666 c', amount: 1999, mul: 3333, div: 10000, expected: 666 },
      { name: 'bigint factors', amount: 1000, mul: 3n, div: 4n, expected: 750 },
      { name: 'negative divisor', amount: 5, mul: 1, div: -2, expected: -3 },
      {
        name: 'exact beyond float precision: MAX_SAFE × 3 / 3',
        amount: Number.MAX_SAFE_INTEGER,
        mul: 3,
        div: 3,
        expected: Number.MAX_SAFE_INTEGER,
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        assert.equal(mulDivRound(c.amount, c.mul, c.div), c.expected);
      });
    }

    const refused: Array<{ name: string; call: () => number }> = [
      { name: 'non-integer amount', call: () => mulDivRound(1.5, 1, 1) },
      { name: 'NaN amount', call: () => mulDivRound(Number.NaN, 1, 1) },
      { name: 'unsafe amount', call: () => mulDivRound(Number.MAX_SAFE_INTEGER + 1, 1, 1) },
      { name: 'non-integer mul', call: () => mulDivRound(100, 0.5, 1) },
      { name: 'non-integer div', call: () => mulDivRound(100, 1, 1.5) },
      { name: 'division by zero (number)', call: () => mulDivRound(100, 1, 0) },
      { name: 'division by zero (bigint)', call: () => mulDivRound(100, 1n, 0n) },
      { name: 'result above MAX_SAFE_INTEGER', call: () => mulDivRound(Number.MAX_SAFE_INTEGER, 2, 1) },
      { name: 'result below MIN_SAFE_INTEGER', call: () => mulDivRound(Number.MIN_SAFE_INTEGER, 2, 1) },
    ];
    for (const r of refused) {
      it(`throws on ${r.name}`, () => {
        assert.throws(r.call, RangeError);
      });
    }
  });
});
