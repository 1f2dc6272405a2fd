import assert from 'node:assert/strict';
import { addDecimals, ceilDecimal, compareDecimals, decimalFromNumber, decimalToString, divideToSignificant, parseDecimal, type Decimal } from '../../../src/metering';

function d(text: string): Decimal {
  const parsed = parseDecimal(text);
  if (parsed === null) throw new Error(`bad decimal ${text}`);
  return parsed;
}

describe('metering/decimal', () => {
  const printed: Array<[string, string]> = [
    ['3.50', '3.5'],
    ['-0.250', '-0.25'],
    ['0.000', '0'],
    ['-0', '0'],
    ['007', '7'],
    ['1000', '1000'],
    ['0.0001', '0.0001'],
  ];
  for (const [text, expected] of printed) {
    it(`prints ${text} as ${expected}`, () => assert.equal(decimalToString(d(text)), expected));
  }

  const fromNumber: Array<[number, string | null]> = [
    [0.1, '0.1'],
    [1e21, '1000000000000000000000'],
    [1.5e-7, '0.00000015'],
    [-0, '0'],
    [-12.75, '-12.75'],
    [Number.NaN, null],
    [Number.NEGATIVE_INFINITY, null],
  ];
  for (const [n, expected] of fromNumber) {
    it(`reads the number ${n} as ${expected}`, () => {
      const dec = decimalFromNumber(n);
      assert.equal(dec === null ? null : decimalToString(dec), expected);
    });
  }

  it('rejects text that is not plain decimal', () => {
    for (const text of ['1e3', '+1', '.5', '5.', '', ' 1', 'NaN']) assert.equal(parseDecimal(text), null, text);
  });

  it('adds and compares across scales', () => {
    assert.equal(decimalToString(addDecimals(d('0.1'), d('0.2'))), '0.3');
    assert.equal(decimalToString(addDecimals(d('10'), d('-0.001'))), '9.999');
    assert.equal(compareDecimals(d('3.50'), d('3.5')), 0);
    assert.equal(compareDecimals(d('-2'), d('-10')), 1);
  });

  const quotients: Array<[string, bigint, string]> = [
    ['5', 3n, '1.66666666667'],
    ['2', 3n, '0.666666666667'],
    ['-5', 3n, '-1.66666666667'],
    ['1', 8n, '0.125'],
    ['0', 7n, '0'],
    ['0.001', 3n, '0.000333333333333'],
    ['2000000000000001', 2n, '1000000000000001'],
    ['1999999999999', 2n, '1000000000000'], // 999999999999.5 has 12 integer digits → rounds to 10^12
  ];
  for (const [a, divisor, expected] of quotients) {
    it(`${a} ÷ ${divisor} to 12 significant digits = ${expected}`, () => {
      assert.equal(decimalToString(divideToSignificant(d(a), divisor, 12)), expected);
    });
  }

  const ceilings: Array<[string, bigint]> = [
    ['1.2', 2n],
    ['1', 1n],
    ['0.0001', 1n],
    ['-1.5', -1n],
    ['-0.5', 0n],
    ['0', 0n],
  ];
  for (const [text, expected] of ceilings) {
    it(`ceil(${text}) = ${expected}`, () => assert.equal(ceilDecimal(d(text)), expected));
  }
});
