import assert from 'node:assert/strict';
import { formatKennitala, kennitalaCheckDigit, validateKennitala } from '../../../src/validation';

// Check digit: weights 3,2,7,6,5,4,3,2 over digits 1–8; r = sum mod 11; check = 11 − r (r = 0 → 0).
//
// Worked example 1, 120160-3389 (the worked example in vignirvignir/ice-ken docs/about-kennitala.md):
//   1·3 + 2·2 + 0·7 + 1·6 + 6·5 + 0·4 + 3·3 + 3·2 = 3 + 4 + 0 + 6 + 30 + 0 + 9 + 6 = 58
//   58 mod 11 = 3 → check = 11 − 3 = 8 = 9th digit ✓; last digit 9 → born 12.01.1960.
//
// Worked example 2, 601010-0890 (company, HermannBjorgvin/Kennitala README):
//   6·3 + 0·2 + 1·7 + 0·6 + 1·5 + 0·4 + 0·3 + 8·2 = 18 + 0 + 7 + 0 + 5 + 0 + 0 + 16 = 46
//   46 mod 11 = 2 → check = 9 = 9th digit ✓; day 60 − 40 = 20, last digit 0 → registered 20.10.2010.
//
// Worked example 3 (remainder 0), 010130-2209, a Registers Iceland test person:
//   0·3 + 1·2 + 0·7 + 1·6 + 3·5 + 0·4 + 2·3 + 2·2 = 0 + 2 + 0 + 6 + 15 + 0 + 6 + 4 = 33
//   33 mod 11 = 0 → check 0 = 9th digit ✓.
//
// Worked example 4 (check 10), first eight digits 29020027:
//   2·3 + 9·2 + 0·7 + 2·6 + 0·5 + 0·4 + 2·3 + 7·2 = 6 + 18 + 0 + 12 + 0 + 0 + 6 + 14 = 56
//   56 mod 11 = 1 → check = 10, never issued, so no 9th digit makes it valid.

const valid: Array<{ input: string; value: string; kind: 'person' | 'company'; source: string }> = [
  { input: '120174-3399', value: '1201743399', kind: 'person', source: 'python-stdnum doctest' },
  { input: '450401-3150', value: '4504013150', kind: 'company', source: 'python-stdnum doctest' },
  { input: '120160-3389', value: '1201603389', kind: 'person', source: 'worked example 1' },
  { input: '601010-0890', value: '6010100890', kind: 'company', source: 'worked example 2' },
  { input: '3108962099', value: '3108962099', kind: 'person', source: 'HermannBjorgvin/Kennitala README' },
  { input: '0208842749', value: '0208842749', kind: 'person', source: 'recon-cli is.rs hand check' },
  { input: '010130-2209', value: '0101302209', kind: 'person', source: 'worked example 3, remainder 0' },
  { input: '520160-3379', value: '5201603379', kind: 'company', source: 'ice-ken company: 15+4+0+6+30+0+9+6 = 70, r 4, check 7' },
  { input: '120174 3399', value: '1201743399', kind: 'person', source: 'space separator' },
  { input: '  1201743399 ', value: '1201743399', kind: 'person', source: 'surrounding whitespace' },
  { input: '010199-2048', value: '0101992048', kind: 'person', source: '1800s: 0+2+0+6+45+36+6+0 = 95, r 7, check 4; 01.01.1899' },
  { input: '290200-2610', value: '2902002610', kind: 'person', source: 'leap day 29.02.2000: 6+18+0+12+0+0+6+12 = 54, r 10, check 1' },
];

const invalid: Array<{ input: string; why: string; message: RegExp }> = [
  { input: '530575-0299', why: 'python-stdnum: check digit should be 0 (sum 110, r 0)', message: /check digit/ },
  { input: '320174-3399', why: 'python-stdnum: day 32', message: /day must be/ },
  { input: '120160-3379', why: 'ice-ken: 9th digit 7, expected 8', message: /check digit/ },
  { input: '2811913049', why: 'Registers Iceland synthetic id without check digit (expected 6)', message: /check digit/ },
  { input: '2902002700', why: 'worked example 4: check would be 10', message: /no check digit exists/ },
  { input: '290200-2619', why: '29.02.1900 does not exist (1900 is no leap year); same first 9 digits as the valid 2000 one', message: /does not exist/ },
  { input: '310474-3399', why: '31 April does not exist (check digit 9 is right)', message: /does not exist/ },
  { input: '121374-3310', why: 'month 13 (check digit 1 is right)', message: /month/ },
  { input: '001274-3330', why: 'day 00 (check digit 3 is right)', message: /day must be/ },
  { input: '351274-3360', why: 'day 35, between person and company ranges (check 6 is right)', message: /day must be/ },
  { input: '721274-3300', why: 'day 72, above the company range (check 0 is right)', message: /day must be/ },
  { input: '120174-3391', why: 'century digit 1', message: /century/ },
  { input: '12017433', why: 'eight digits', message: /10 digits/ },
  { input: '12017433990', why: 'eleven digits', message: /10 digits/ },
  { input: '120174-339X', why: 'letter', message: /10 digits/ },
  { input: '1201-743399', why: 'separator in the wrong place', message: /10 digits/ },
  { input: '120174--3399', why: 'two separators', message: /10 digits/ },
  { input: '120174/3399', why: 'other separator', message: /10 digits/ },
  { input: '', why: 'empty', message: /10 digits/ },
];

describe('validation/kennitala', () => {
  describe('valid kennitölur', () => {
    for (const c of valid) {
      it(`${JSON.stringify(c.input)} is a ${c.kind} (${c.source})`, () => {
        assert.deepEqual(validateKennitala(c.input), { ok: true, value: c.value, kind: c.kind });
      });
    }
  });

  describe('invalid kennitölur', () => {
    for (const c of invalid) {
      it(`${JSON.stringify(c.input)}: ${c.why}`, () => {
        const result = validateKennitala(c.input);
        assert.equal(result.ok, false);
        if (!result.ok) assert.match(result.message, c.message);
      });
    }
  });

  describe("checkDigit: 'ignore' (ids issued since 18 Feb 2026 carry no check digit)", () => {
    it('accepts the Registers Iceland synthetic ids that fail the check digit', () => {
      for (const id of ['2811913049', '0209804299', '0404044400', '1005148220', '2412198560', '3003228340']) {
        assert.equal(validateKennitala(id).ok, false, id);
        assert.deepEqual(validateKennitala(id, { checkDigit: 'ignore' }), { ok: true, value: id, kind: 'person' });
      }
    });

    it('still accepts check 10 combinations and any 9th digit', () => {
      assert.equal(validateKennitala('2902002700', { checkDigit: 'ignore' }).ok, true);
      assert.equal(validateKennitala('120160-3379', { checkDigit: 'ignore' }).ok, true);
    });

    it('still enforces format, century and date', () => {
      for (const id of ['320174-3399', '290200-2619', '120174-3391', '12017433']) {
        assert.equal(validateKennitala(id, { checkDigit: 'ignore' }).ok, false, id);
      }
    });
  });

  describe('kennitalaCheckDigit', () => {
    const cases: Array<[string, number | null]> = [
      ['12016033', 8],
      ['60101008', 9],
      ['01013022', 0],
      ['29020027', null],
      ['12017433', 9],
    ];
    for (const [firstEight, expected] of cases) {
      it(`${firstEight} → ${expected}`, () => assert.equal(kennitalaCheckDigit(firstEight), expected));
    }
    it('rejects anything but 8 digits', () => {
      assert.throws(() => kennitalaCheckDigit('1201603'), RangeError);
    });
  });

  it('formatKennitala prints DDMMYY-NNNN', () => {
    assert.equal(formatKennitala('1201743399'), '120174-3399');
    assert.throws(() => formatKennitala('120174-3399'), RangeError);
  });
});
