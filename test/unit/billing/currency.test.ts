import assert from 'node:assert/strict';
import { Currency, SUPPORTED_CURRENCIES, formatAmount, formatDecimal, isSupportedCurrency, minorUnitExponent } from '../../../src/billing';

describe('billing/currency', () => {
  describe('isSupportedCurrency', () => {
    const cases: Array<[string, boolean]> = [
      ['ISK', true],
      ['EUR', true],
      ['USD', true],
      ['GBP', true],
      ['DKK', true],
      ['NOK', true],
      ['SEK', true],
      ['isk', false], // exact upper-case ISO code only
      ['JPY', false],
      ['', false],
      ['EURO', false],
    ];
    for (const [code, expected] of cases) {
      it(`${JSON.stringify(code)} → ${expected}`, () => {
        assert.equal(isSupportedCurrency(code), expected);
      });
    }
    it('lists exactly the seven currencies of the spec', () => {
      assert.deepEqual([...SUPPORTED_CURRENCIES], ['ISK', 'EUR', 'USD', 'GBP', 'DKK', 'NOK', 'SEK']);
    });
  });

  describe('minorUnitExponent', () => {
    const cases: Array<[Currency, number]> = [
      ['ISK', 0],
      ['EUR', 2],
      ['USD', 2],
      ['GBP', 2],
      ['DKK', 2],
      ['NOK', 2],
      ['SEK', 2],
    ];
    for (const [currency, exponent] of cases) {
      it(`${currency} → ${exponent}`, () => {
        assert.equal(minorUnitExponent(currency), exponent);
      });
    }
    it('throws for an unsupported code', () => {
      assert.throws(() => minorUnitExponent('JPY' as Currency), RangeError);
    });
  });

  describe('formatDecimal', () => {
    const cases: Array<[number, Currency, string]> = [
      [1990, 'ISK', '1990'],
      [0, 'ISK', '0'],
      [-1990, 'ISK', '-1990'],
      [123456, 'EUR', '1234.56'],
      [5, 'EUR', '0.05'],
      [-5, 'EUR', '-0.05'],
      [100, 'USD', '1.00'],
      [0, 'GBP', '0.00'],
    ];
    for (const [amount, currency, expected] of cases) {
      it(`${amount} ${currency} → ${expected}`, () => {
        assert.equal(formatDecimal(amount, currency), expected);
      });
    }
  });

  describe('formatAmount', () => {
    const cases: Array<[number, Currency, string]> = [
      [1990, 'ISK', '1.990 kr.'],
      [1234567, 'ISK', '1.234.567 kr.'],
      [999, 'ISK', '999 kr.'],
      [0, 'ISK', '0 kr.'],
      [-1990, 'ISK', '-1.990 kr.'],
      [123456, 'EUR', '€1,234.56'],
      [5, 'EUR', '€0.05'],
      [-5, 'EUR', '-€0.05'],
      [100, 'USD', '$1.00'],
      [123456789, 'GBP', '£1,234,567.89'],
      [123456, 'DKK', '1.234,56 kr.'],
      [123456, 'NOK', 'kr 1 234,56'],
      [123456, 'SEK', '1 234,56 kr'],
    ];
    for (const [amount, currency, expected] of cases) {
      it(`${amount} ${currency} → ${expected}`, () => {
        assert.equal(formatAmount(amount, currency), expected);
      });
    }
    const bad: number[] = [1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1];
    for (const amount of bad) {
      it(`refuses ${amount}`, () => {
        assert.throws(() => formatAmount(amount, 'EUR'), RangeError);
      });
    }
  });
});
