import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NUMERIC_TEXT, decimalFromNumber, numericDecimal, numericValue } from '../../../src/metering';

// Rule: JSON numbers, or strings matching /^-?[0-9]{1,30}([.][0-9]{1,30})?$/. Anything else is
// not numeric (rejected at ingestion for a numeric meter, skipped by aggregation).
const TABLE: Array<[string, unknown, number | null]> = [
  ['"12"', '12', 12],
  ['"12.5"', '12.5', 12.5],
  ['"-3"', '-3', -3],
  ['"1e3": exponent strings are not decimal text (decided: rejected)', '1e3', null],
  ['" 5": no surrounding spaces', ' 5', null],
  ['"abc"', 'abc', null],
  ['true', true, null],
  ['null', null, null],
  ['12 (JSON number)', 12, 12],
  ['"NaN"', 'NaN', null],
  ['1e3 as a JSON number is 1000', 1e3, 1000],
  ['12.5 as a JSON number', 12.5, 12.5],
  ['-0.25 as a JSON number', -0.25, -0.25],
  ['"0"', '0', 0],
  ['"-0" is 0, not -0', '-0', 0],
  ['"007": leading zeros allowed', '007', 7],
  ['"0.000001"', '0.000001', 0.000001],
  ['"" (empty)', '', null],
  ['"+5": no plus sign', '+5', null],
  ['".5": needs a digit before the point', '.5', null],
  ['"5.": needs a digit after the point', '5.', null],
  ['"1,5": comma is not a decimal point', '1,5', null],
  ['"1_000"', '1_000', null],
  ['"0x10"', '0x10', null],
  ['"Infinity"', 'Infinity', null],
  ['"5 " (trailing space)', '5 ', null],
  ['"١٢" (non-ASCII digits)', '١٢', null],
  ['30 integer digits', '9'.repeat(30), 1e30],
  ['31 integer digits', '9'.repeat(31), null],
  ['30 fraction digits', `0.${'1'.repeat(30)}`, 0.1111111111111111],
  ['31 fraction digits', `0.${'1'.repeat(31)}`, null],
  ['NaN (number)', Number.NaN, null],
  ['Infinity (number)', Number.POSITIVE_INFINITY, null],
  ['1e30 (number, 31 digits written out)', 1e30, null],
  ['5e-324 (number, 324 fraction digits)', 5e-324, null],
  ['undefined', undefined, null],
  ['object', { value: 1 }, null],
  ['array', [1], null],
  ['false', false, null],
];

describe('metering/numericValue', () => {
  for (const [why, raw, expected] of TABLE) {
    it(`${why} → ${expected}`, () => assert.equal(numericValue(raw), expected));
  }

  it('a safe integer takes a short cut to the same decimal as its printed form', () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER)), (n) => {
        assert.deepEqual(numericDecimal(n), decimalFromNumber(n));
      }),
    );
  });

  it('NUMERIC_TEXT is the same rule as a string test', () => {
    assert.equal(NUMERIC_TEXT.test('12.5'), true);
    assert.equal(NUMERIC_TEXT.test('1e3'), false);
  });
});
