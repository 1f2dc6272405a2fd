import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import {
  MAX_SIGNATURES,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  generateEndpointSecret,
  isEndpointSecret,
  signPayload,
  signatureHeaderValue,
  verifySignature,
} from '../../../src/webhooks/signature';

// Independent of the implementation: the formula straight from the spec.
function expectedSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

describe('webhooks/signature', () => {
  const secret = 'whsec_test_0123456789abcdefghijklmnopqrstuvwxyz';
  const body = '{"id":"evt_1","type":"invoice.paid","created_at":"2024-01-01T00:00:00Z","data":{"amount":1990}}';
  const timestamp = 1_700_000_000;

  it('names the headers as in the spec', () => {
    assert.equal(TIMESTAMP_HEADER, 'Service-Timestamp');
    assert.equal(SIGNATURE_HEADER, 'Service-Signature');
  });

  it('signs hex HMAC-SHA256 over "timestamp.body" keyed with the whole secret', () => {
    const signature = signPayload(secret, timestamp, body);
    assert.match(signature, /^[0-9a-f]{64}$/);
    assert.equal(signature, expectedSignature(secret, timestamp, body));
    // The same bytes given as a Buffer sign identically.
    assert.equal(signPayload(secret, timestamp, Buffer.from(body)), signature);
  });

  it('matches a fixed vector', () => {
    // Computed once with: printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_abc'
    const fromOpenssl = '3b843bacfb18cc5554542fdcc84d815b399c52758e508a6fcecf0a2af4efea2b';
    assert.equal(expectedSignature('whsec_abc', 1_700_000_000, '{"a":1}'), fromOpenssl);
    assert.equal(signPayload('whsec_abc', 1_700_000_000, '{"a":1}'), fromOpenssl);
  });

  it('signs non-ASCII bodies as UTF-8 bytes', () => {
    const unicode = '{"name":"Jón Þór Guðmundsson","amount":"1.990 kr."}';
    assert.equal(signPayload(secret, timestamp, unicode), expectedSignature(secret, timestamp, unicode));
  });

  describe('verifySignature', () => {
    const valid = expectedSignature(secret, timestamp, body);
    const verify = (overrides: Partial<Parameters<typeof verifySignature>[0]>) =>
      verifySignature({
        secret,
        rawBody: body,
        timestampHeader: String(timestamp),
        signatureHeader: valid,
        nowSeconds: timestamp,
        ...overrides,
      });

    it('accepts a correct signature', () => {
      assert.deepEqual(verify({}), { ok: true });
      assert.deepEqual(verify({ signatureHeader: valid.toUpperCase() }), { ok: true });
      assert.deepEqual(verify({ rawBody: Buffer.from(body) }), { ok: true });
    });

    it('accepts exactly 300 s of skew in both directions and refuses 301 s', () => {
      assert.deepEqual(verify({ nowSeconds: timestamp + 300 }), { ok: true });
      assert.deepEqual(verify({ nowSeconds: timestamp - 300 }), { ok: true });
      assert.deepEqual(verify({ nowSeconds: timestamp + 301 }), { ok: false, reason: 'timestamp_out_of_tolerance' });
      assert.deepEqual(verify({ nowSeconds: timestamp - 301 }), { ok: false, reason: 'timestamp_out_of_tolerance' });
    });

    it('honours a custom tolerance', () => {
      assert.deepEqual(verify({ nowSeconds: timestamp + 10, toleranceSeconds: 10 }), { ok: true });
      assert.deepEqual(verify({ nowSeconds: timestamp + 11, toleranceSeconds: 10 }), {
        ok: false,
        reason: 'timestamp_out_of_tolerance',
      });
    });

    it('refuses a wrong secret', () => {
      assert.deepEqual(verify({ secret: `${secret}x` }), { ok: false, reason: 'signature_mismatch' });
    });

    it('refuses a tampered body', () => {
      assert.deepEqual(verify({ rawBody: body.replace('1990', '1991') }), { ok: false, reason: 'signature_mismatch' });
    });

    it('refuses a signature made for another timestamp', () => {
      assert.deepEqual(verify({ timestampHeader: String(timestamp + 1) }), { ok: false, reason: 'signature_mismatch' });
    });

    it('refuses garbage signature headers without throwing', () => {
      for (const garbage of ['', 'not-hex', 'zz'.repeat(32), `${valid}0`, 'v1=' + valid, '🙂']) {
        assert.deepEqual(verify({ signatureHeader: garbage }), { ok: false, reason: 'malformed_signature' }, garbage);
      }
    });

    it('refuses a signature of a different length without throwing', () => {
      assert.deepEqual(verify({ signatureHeader: valid.slice(0, 62) }), { ok: false, reason: 'signature_mismatch' });
      assert.deepEqual(verify({ signatureHeader: `${valid}00` }), { ok: false, reason: 'signature_mismatch' });
      assert.deepEqual(verify({ signatureHeader: 'ab' }), { ok: false, reason: 'signature_mismatch' });
    });

    it('refuses missing, repeated and malformed headers', () => {
      assert.deepEqual(verify({ timestampHeader: undefined }), { ok: false, reason: 'missing_timestamp' });
      assert.deepEqual(verify({ signatureHeader: undefined }), { ok: false, reason: 'missing_signature' });
      assert.deepEqual(verify({ signatureHeader: [valid, valid] }), { ok: false, reason: 'malformed_signature' });
      assert.deepEqual(verify({ signatureHeader: [valid] }), { ok: true });
      for (const bad of ['', 'abc', '1.7e9', '-1700000000', '0x6553f100', '1700000000.5', '1'.repeat(16)]) {
        assert.deepEqual(verify({ timestampHeader: bad }), { ok: false, reason: 'malformed_timestamp' }, bad);
      }
    });
  });

  describe('several signatures (a rotation overlap)', () => {
    const oldSecret = 'whsec_old_0123456789abcdefghijklmnopqrstuvwxyz';
    const check = (secretToUse: string, header: string) =>
      verifySignature({ secret: secretToUse, rawBody: body, timestampHeader: String(timestamp), signatureHeader: header, nowSeconds: timestamp });

    it('lists one signature per secret, newest first, comma-separated', () => {
      const header = signatureHeaderValue([secret, oldSecret], timestamp, body);
      assert.equal(header, `${expectedSignature(secret, timestamp, body)},${expectedSignature(oldSecret, timestamp, body)}`);
      assert.equal(signatureHeaderValue([secret], timestamp, body), expectedSignature(secret, timestamp, body));
      assert.throws(() => signatureHeaderValue([], timestamp, body), RangeError);
    });

    it('verifies with either secret and fails with neither', () => {
      const header = signatureHeaderValue([secret, oldSecret], timestamp, body);
      assert.deepEqual(check(secret, header), { ok: true });
      assert.deepEqual(check(oldSecret, header), { ok: true });
      assert.deepEqual(check('whsec_neither_0123456789abcdefghijklmnopqrstu', header), { ok: false, reason: 'signature_mismatch' });
      // A proxy that joined repeated headers adds a space after the comma.
      assert.deepEqual(check(oldSecret, header.replace(',', ', ')), { ok: true });
    });

    it('refuses a malformed list', () => {
      const one = expectedSignature(secret, timestamp, body);
      assert.deepEqual(check(secret, `${one},`), { ok: false, reason: 'malformed_signature' });
      assert.deepEqual(check(secret, `${one},zz`), { ok: false, reason: 'malformed_signature' });
      assert.deepEqual(
        check(
          secret,
          Array(MAX_SIGNATURES + 1)
            .fill(one)
            .join(','),
        ),
        { ok: false, reason: 'malformed_signature' },
      );
    });
  });

  describe('generateEndpointSecret', () => {
    it('is whsec_ followed by 32 random bytes in unpadded base64url', () => {
      const first = generateEndpointSecret();
      const second = generateEndpointSecret();
      assert.match(first, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.equal(Buffer.from(first.slice('whsec_'.length), 'base64url').length, 32);
      assert.notEqual(first, second);
      assert.ok(isEndpointSecret(first));
      assert.ok(!isEndpointSecret('whsec_short'));
    });

    it('round-trips through sign and verify', () => {
      const fresh = generateEndpointSecret();
      const signature = signPayload(fresh, timestamp, body);
      assert.deepEqual(verifySignature({ secret: fresh, rawBody: body, timestampHeader: String(timestamp), signatureHeader: signature, nowSeconds: timestamp }), { ok: true });
    });
  });
});
