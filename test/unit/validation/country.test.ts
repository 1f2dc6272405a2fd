import assert from 'node:assert/strict';
import { COUNTRY_CODES, isCountryCode, normalizeCountryCode } from '../../../src/validation';

describe('validation/country', () => {
  it('holds the 249 officially assigned ISO 3166-1 alpha-2 codes', () => {
    assert.equal(COUNTRY_CODES.size, 249);
    for (const code of COUNTRY_CODES) assert.match(code, /^[A-Z]{2}$/);
  });

  const assigned = ['IS', 'US', 'GB', 'DE', 'NO', 'DK', 'SE', 'FO', 'GL', 'AX', 'SS', 'BQ', 'CW', 'SX', 'PS', 'TW', 'AQ', 'UM', 'ZW'];
  for (const code of assigned) {
    it(`accepts ${code}`, () => assert.equal(isCountryCode(code), true));
  }

  const rejected: Array<[string, string]> = [
    ['UK', 'exceptionally reserved (use GB)'],
    ['EU', 'exceptionally reserved'],
    ['XK', 'user-assigned (Kosovo), not officially assigned'],
    ['AN', 'deleted (Netherlands Antilles)'],
    ['YU', 'deleted (Yugoslavia)'],
    ['CS', 'deleted (Serbia and Montenegro)'],
    ['ZZ', 'user-assigned'],
    ['is', 'lower case: isCountryCode is strict'],
    ['Is', 'mixed case'],
    [' IS', 'whitespace'],
    ['ISL', 'alpha-3'],
    ['', 'empty'],
  ];
  for (const [code, why] of rejected) {
    it(`rejects ${JSON.stringify(code)}: ${why}`, () => assert.equal(isCountryCode(code), false));
  }

  describe('normalizeCountryCode (for edges that accept lower case)', () => {
    const cases: Array<[string, string | null]> = [
      ['is', 'IS'],
      [' gb ', 'GB'],
      ['Fo', 'FO'],
      ['IS', 'IS'],
      ['uk', null],
      ['xk', null],
      ['isl', null],
      ['', null],
    ];
    for (const [input, expected] of cases) {
      it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => assert.equal(normalizeCountryCode(input), expected));
    }
  });
});
