import assert from 'node:assert/strict';
import { isEmail, validateEmail } from '../../../src/validation';

const local64 = 'a'.repeat(64);
// 64 + 1 + (63 + 1 + 63 + 1 + 58 + 3) = 254
const domain189 = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.is`;

describe('validation/email', () => {
  const accepted: Array<[string, string]> = [
    ['jon@example.is', 'plain'],
    ['Jon.Jonsson+billing@mail.example.co.uk', 'dots, plus tag, subdomains, case kept'],
    ["o'neil@example.com", 'apostrophe'],
    ['a@b.co', 'shortest sensible'],
    ['x_y-z!#$%&*/=?^`{|}~@example.com', 'every dot-atom symbol'],
    ['user@sub-domain.example.com', 'hyphen inside a label'],
    ['user@dæmi.is', 'internationalised domain'],
    ['user@xn--dmi-sla.is', 'punycode domain'],
    ['user@123.example.is', 'numeric label other than the last'],
    [`${local64}@example.is`, 'local part of 64'],
    [`${local64}@${domain189}`, '254 characters in all'],
  ];
  for (const [address, why] of accepted) {
    it(`accepts ${address.length > 40 ? `${address.slice(0, 30)}… (${address.length})` : address}: ${why}`, () => {
      assert.deepEqual(validateEmail(address), { ok: true, value: address });
      assert.equal(isEmail(address), true);
    });
  }

  it('trims surrounding whitespace and returns the trimmed value', () => {
    assert.deepEqual(validateEmail('  jon@example.is\n'), { ok: true, value: 'jon@example.is' });
  });

  const rejected: Array<[string, RegExp]> = [
    ['', /empty/],
    ['jon', /exactly one "@"/],
    ['jon@@example.is', /exactly one "@"/],
    ['jon@ex@ample.is', /exactly one "@"/],
    ['@example.is', /local part/],
    ['jon@', /domain must contain a dot/],
    ['jon@example', /domain must contain a dot/],
    ['jon doe@example.is', /spaces/],
    ['jon@exam\tple.is', /spaces/],
    ['.jon@example.is', /local part/],
    ['jon.@example.is', /local part/],
    ['jo..n@example.is', /local part/],
    ['"jon doe"@example.is', /spaces/],
    ['"jon"@example.is', /local part/],
    ['jón@example.is', /local part/],
    ['jon@example..is', /host name/],
    ['jon@.example.is', /host name/],
    ['jon@-example.is', /host name/],
    ['jon@example-.is', /host name/],
    ['jon@exa_mple.is', /host name/],
    ['jon@[10.0.0.1]', /host name/],
    ['jon@10.0.0.1', /top-level domain/],
    [`${'a'.repeat(65)}@example.is`, /local part must be 1–64/],
    [`${local64}@${domain189}s`, /at most 254/],
    [`jon@${'x'.repeat(64)}.is`, /host name/],
  ];
  for (const [address, message] of rejected) {
    it(`rejects ${JSON.stringify(address.length > 40 ? `${address.slice(0, 30)}…` : address)}`, () => {
      const result = validateEmail(address);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.message, message);
      assert.equal(isEmail(address), false);
    });
  }
});
