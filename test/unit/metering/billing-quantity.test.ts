import assert from 'node:assert/strict';
import { type BillableQuantityInput, billableQuantity } from '../../../src/metering';

// [why, aggregate_usage, sub-period quantities, included units, whole units billed]
const TABLE: Array<[string, BillableQuantityInput['aggregateUsage'], BillableQuantityInput['quantities'], number | null | undefined, number]> = [
  ['sum rounds 15.5 up', 'sum', ['10', '5.5', null], 0, 16],
  ['sum minus included: 15.5 − 10 = 5.5 → 6', 'sum', ['10', '5.5'], 10, 6],
  ['sum equal to included → 0', 'sum', ['10', '5'], 15, 0],
  ['sum below included floors at 0', 'sum', ['10'], 20, 0],
  ['sum of nothing', 'sum', [], 0, 0],
  ['sum of nulls', 'sum', [null, null], 0, 0],
  ['a started unit is billed: 0.0001 → 1', 'sum', ['0.0001'], 0, 1],
  ['negative total floors at 0', 'sum', ['-5', '3'], 0, 0],
  ['exact: 0.2 + 2.2 + 0.6 = 3, not 4', 'sum', [0.2, 2.2, 0.6], 0, 3],
  ['exact strings: 0.1 + 0.2 = 0.3 → 1', 'sum', ['0.1', '0.2'], 0, 1],
  ['integer total stays', 'sum', ['1000', '2000'], null, 3000],
  ['included units absent means 0', 'sum', ['7'], undefined, 7],
  ['max takes the largest: 12.2 → 13', 'max', ['3', '12.2', '7'], 0, 13],
  ['max minus included: 12.2 − 12 = 0.2 → 1', 'max', ['3', '12.2', '7'], 12, 1],
  ['max ignores nulls', 'max', [null, '4', null], 0, 4],
  ['max of only nulls', 'max', [null, null], 0, 0],
  ['max of nothing', 'max', [], 0, 0],
  ['max of negatives floors at 0', 'max', ['-2', null], 0, 0],
  ['max compares numerically', 'max', ['9', '10'], 0, 10],
  ['last takes the last value', 'last_during_period', ['3', '9', '4'], 0, 4],
  ['last skips a trailing null', 'last_during_period', ['3', '9', null], 0, 9],
  ['last takes a reported 0', 'last_during_period', ['3', '0'], 0, 0],
  ['last minus included: 9.01 − 5 = 4.01 → 5', 'last_during_period', ['3', '9.01'], 5, 5],
  ['last of nothing', 'last_during_period', [], 0, 0],
  ['last of only nulls', 'last_during_period', [null], 3, 0],
];

describe('metering/billableQuantity', () => {
  for (const [why, aggregateUsage, quantities, includedUnits, expected] of TABLE) {
    it(`${aggregateUsage}: ${why} → ${expected}`, () => {
      assert.equal(billableQuantity({ aggregateUsage, quantities, includedUnits }), expected);
    });
  }

  describe('rejects malformed input', () => {
    const bad: Array<[string, BillableQuantityInput]> = [
      ['negative included units', { aggregateUsage: 'sum', quantities: ['1'], includedUnits: -1 }],
      ['fractional included units', { aggregateUsage: 'sum', quantities: ['1'], includedUnits: 1.5 }],
      ['non-decimal quantity', { aggregateUsage: 'sum', quantities: ['abc'] }],
      ['exponent quantity', { aggregateUsage: 'sum', quantities: ['1e3'] }],
      ['NaN quantity', { aggregateUsage: 'max', quantities: [Number.NaN] }],
      ['unknown aggregate_usage', { aggregateUsage: 'avg' as BillableQuantityInput['aggregateUsage'], quantities: ['1'] }],
      ['total beyond 2^53 − 1', { aggregateUsage: 'sum', quantities: ['9007199254740992'] }],
    ];
    for (const [why, input] of bad) {
      it(why, () => assert.throws(() => billableQuantity(input), RangeError));
    }
  });

  it('accepts the largest safe integer', () => {
    assert.equal(billableQuantity({ aggregateUsage: 'sum', quantities: ['9007199254740990.5'] }), Number.MAX_SAFE_INTEGER);
  });
});
