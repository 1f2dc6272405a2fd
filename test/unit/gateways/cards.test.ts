// Pure card checks: normalisation, Luhn, brand detection, expiry, the format checks, the test
// card table and the charge decision.
import assert from 'node:assert/strict';
import {
  checkCardFormat,
  decideCharge,
  detectBrand,
  findTestCard,
  isExpired,
  luhnValid,
  normalizeCardNumber,
  normalizeExpYear,
  TEST_CARDS,
  type CardBehaviourOverride,
  type TestCardBehaviour,
} from '../../../src/gateways';

const NOW = new Date('2026-11-22T12:00:00Z');

describe('gateways: card number normalisation', () => {
  const cases: Array<[string, string | null]> = [
    ['4242424242424242', '4242424242424242'],
    ['4242 4242 4242 4242', '4242424242424242'],
    ['  4242 4242 4242 4242  ', '4242424242424242'],
    ['4242-4242-4242-4242', '4242424242424242'],
    ['3782 822463 10005', '378282246310005'],
    ['4242  4242 4242 4242', '4242424242424242'],
    ['4242.4242.4242.4242', null],
    ['4242424242424242a', null],
    ['', null],
    ['   ', null],
    ['４２４２４２４２４２４２４２４２', null],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(normalizeCardNumber(input), expected);
    });
  }
  it('returns null for a non-string', () => {
    assert.equal(normalizeCardNumber(4242 as unknown as string), null);
  });
});

describe('gateways: Luhn check', () => {
  const valid = ['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117', '36227206271667', '0', '18', '79927398713'];
  const invalid = ['4242424242424241', '5555555555554445', '378282246310006', '1', '79927398710', '', '4242 4242 4242 4242', 'abcd'];
  for (const n of valid) it(`accepts ${n}`, () => assert.equal(luhnValid(n), true));
  for (const n of invalid) it(`rejects ${JSON.stringify(n)}`, () => assert.equal(luhnValid(n), false));
  it('catches every single-digit error of a valid number', () => {
    const base = '4242424242424242';
    for (let i = 0; i < base.length; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === base[i]) continue;
        const changed = base.slice(0, i) + d + base.slice(i + 1);
        assert.equal(luhnValid(changed), false, changed);
      }
    }
  });
});

describe('gateways: brand detection', () => {
  const cases: Array<[string, string]> = [
    ['4242424242424242', 'visa'],
    ['4222222222222', 'visa'],
    ['4000056655665556', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['5105105105105100', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2220990000000000', 'unknown'],
    ['2721000000000000', 'unknown'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['3782822463100050', 'unknown'],
    ['6011111111111117', 'discover'],
    ['6445644564456445', 'discover'],
    ['6500000000000002', 'discover'],
    ['3566002020360505', 'jcb'],
    ['36227206271667', 'diners'],
    ['30569309025904', 'diners'],
    ['6200000000000005', 'unionpay'],
    ['5000000000000000', 'unknown'],
    ['1234567812345670', 'unknown'],
    ['42424242424242', 'unknown'],
    ['', 'unknown'],
  ];
  for (const [n, brand] of cases) it(`${n || '(empty)'} is ${brand}`, () => assert.equal(detectBrand(n), brand));
});

describe('gateways: expiry', () => {
  it('reads two-digit years as 20YY', () => {
    assert.equal(normalizeExpYear(30), 2030);
    assert.equal(normalizeExpYear(0), 2000);
    assert.equal(normalizeExpYear(2030), 2030);
  });
  const cases: Array<[number, number, boolean]> = [
    [11, 2026, false], // valid through the end of the expiry month
    [10, 2026, true],
    [12, 2026, false],
    [1, 2027, false],
    [12, 2025, true],
    [11, 26, false],
    [10, 26, true],
  ];
  for (const [m, y, expired] of cases) {
    it(`${m}/${y} at ${NOW.toISOString()} is ${expired ? 'expired' : 'valid'}`, () => assert.equal(isExpired(m, y, NOW), expired));
  }
  it('expires at the first instant of the next month (UTC)', () => {
    assert.equal(isExpired(11, 2026, new Date('2026-11-30T23:59:59.999Z')), false);
    assert.equal(isExpired(11, 2026, new Date('2026-12-01T00:00:00.000Z')), true);
  });
});

describe('gateways: checkCardFormat', () => {
  const ok = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' };
  it('accepts a well-formed card and normalises it', () => {
    assert.deepEqual(checkCardFormat(ok, NOW), { ok: true, number: '4242424242424242', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
    assert.deepEqual(checkCardFormat({ ...ok, expYear: 30 }, NOW), { ok: true, number: '4242424242424242', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
  });
  const bad: Array<[string, Partial<typeof ok> & { wallet?: string }, string]> = [
    ['Luhn failure', { number: '4242424242424241' }, 'invalid_number'],
    ['letters', { number: '4242x4242' }, 'invalid_number'],
    ['too short', { number: '42424242426' }, 'invalid_number'],
    ['too long', { number: '42424242424242424242' }, 'invalid_number'],
    ['month 0', { expMonth: 0 }, 'invalid_expiry'],
    ['month 13', { expMonth: 13 }, 'invalid_expiry'],
    ['month 1.5', { expMonth: 1.5 }, 'invalid_expiry'],
    ['negative year', { expYear: -1 }, 'invalid_expiry'],
    ['year far ahead', { expYear: 2099 }, 'invalid_expiry'],
    ['past date', { expMonth: 10, expYear: 2026 }, 'expired_card'],
    ['cvc too short', { cvc: '12' }, 'invalid_cvc'],
    ['cvc letters', { cvc: '12a' }, 'invalid_cvc'],
    ['4-digit cvc on visa', { cvc: '1234' }, 'invalid_cvc'],
    ['3-digit cvc on amex', { number: '378282246310005', cvc: '123' }, 'invalid_cvc'],
    ['missing cvc', { cvc: undefined }, 'invalid_cvc'],
  ];
  for (const [name, change, code] of bad) {
    it(`${name} → ${code}`, () => {
      const res = checkCardFormat({ ...ok, ...change } as typeof ok, NOW);
      assert.equal(res.ok, false);
      if (!res.ok) {
        assert.equal(res.code, code);
        assert.ok(res.message.length > 0);
      }
    });
  }
  it('amex takes a 4-digit cvc; a wallet needs none', () => {
    assert.equal(checkCardFormat({ ...ok, number: '378282246310005', cvc: '1234' }, NOW).ok, true);
    assert.equal(checkCardFormat({ ...ok, cvc: undefined, wallet: 'apple_pay' }, NOW).ok, true);
    assert.equal(checkCardFormat({ ...ok, cvc: '1', wallet: 'apple_pay' }, NOW).ok, false);
  });
});

describe('gateways: test card table', () => {
  it('every test card is Luhn-valid, of its stated brand and listed once', () => {
    const seen = new Set<string>();
    for (const c of TEST_CARDS) {
      assert.equal(luhnValid(c.number), true, c.number);
      assert.equal(detectBrand(c.number), c.brand, c.number);
      assert.equal(seen.has(c.number), false, c.number);
      seen.add(c.number);
      assert.equal(findTestCard(c.number), c);
    }
  });
  it('has the cards the briefs name', () => {
    const kind = (n: string) => findTestCard(n)?.behaviour;
    assert.deepEqual(kind('4242424242424242'), { kind: 'success' });
    assert.deepEqual(kind('5555555555554444'), { kind: 'success' });
    assert.deepEqual(kind('378282246310005'), { kind: 'success' });
    assert.deepEqual(kind('4000000000000002'), { kind: 'decline', code: 'card_declined' });
    assert.deepEqual(kind('4000000000009995'), { kind: 'decline', code: 'insufficient_funds' });
    assert.deepEqual(kind('4000000000000069'), { kind: 'decline', code: 'expired_card' });
    assert.deepEqual(kind('4000000000000127'), { kind: 'decline', code: 'incorrect_cvc' });
    assert.deepEqual(kind('4000000000000119'), { kind: 'decline', code: 'processing_error' });
    assert.deepEqual(kind('4000000000000341'), { kind: 'decline_charges' });
    assert.deepEqual(kind('4000000000000259'), { kind: 'insufficient_funds_until_recovered' });
    assert.deepEqual(kind('4000000000003220'), { kind: 'slow' });
    assert.deepEqual(kind('4000000000005126'), { kind: 'transient_first_attempt' });
    assert.deepEqual(kind('4000000000007726'), { kind: 'refunds_fail' });
    assert.equal(findTestCard('4111111111111111'), undefined);
  });
});

describe('gateways: decideCharge', () => {
  const ok = { status: 'succeeded', slow: false, transientFirstAttempt: false };
  const cases: Array<[TestCardBehaviour, CardBehaviourOverride | null, object]> = [
    [{ kind: 'success' }, null, ok],
    [{ kind: 'refunds_fail' }, null, ok],
    [{ kind: 'decline', code: 'processing_error' }, null, { status: 'declined', code: 'processing_error' }],
    [{ kind: 'decline_charges' }, null, { status: 'declined', code: 'card_declined' }],
    [{ kind: 'insufficient_funds_until_recovered' }, null, { status: 'declined', code: 'insufficient_funds' }],
    [{ kind: 'insufficient_funds_until_recovered' }, 'succeed', ok],
    [{ kind: 'insufficient_funds_until_recovered' }, 'default', { status: 'declined', code: 'insufficient_funds' }],
    [{ kind: 'slow' }, null, { ...ok, slow: true }],
    [{ kind: 'transient_first_attempt' }, null, { ...ok, transientFirstAttempt: true }],
    [{ kind: 'success' }, 'insufficient_funds', { status: 'declined', code: 'insufficient_funds' }],
    [{ kind: 'success' }, 'card_declined', { status: 'declined', code: 'card_declined' }],
    [{ kind: 'decline_charges' }, 'succeed', ok],
  ];
  for (const [behaviour, override, expected] of cases) {
    it(`${behaviour.kind}${'code' in behaviour ? `(${behaviour.code})` : ''} with override ${override} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(decideCharge(behaviour, override), expected);
    });
  }
});
