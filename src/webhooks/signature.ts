// Webhook signatures (docs/webhooks.md).
//
//   Service-Timestamp: <unix seconds>
//   Service-Signature: hex(HMAC-SHA256(key = endpoint secret, message = `${timestamp}.${rawBody}`))
//
// While a rotated secret is still live (POST /v1/webhook_endpoints/{id}/rotate_secret with
// `expires_in`), the header carries one signature per live secret, newest secret first,
// separated by commas: `Service-Signature: <hex>,<hex>`. A receiver accepts the request when
// any of them matches its secret. Outside a rotation there is exactly one.
//
// The HMAC key is the WHOLE endpoint secret string as UTF-8 bytes, `whsec_` prefix included.
// It is not base64-decoded first: receivers copy the secret they were shown and use it as is,
// so there is exactly one way to compute the key.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TIMESTAMP_HEADER = 'Service-Timestamp';
export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const ENDPOINT_SECRET_PREFIX = 'whsec_';

const SECRET_RANDOM_BYTES = 32;
// 32 bytes in unpadded base64url are 43 characters of [A-Za-z0-9_-].
const ENDPOINT_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;
const SHA256_BYTES = 32;
// Up to 15 decimal digits stays far inside Number.MAX_SAFE_INTEGER (no precision games).
const TIMESTAMP_PATTERN = /^[0-9]{1,15}$/;
const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})+$/;
/** More signatures than secrets can ever be live is not a header this service sent. */
export const MAX_SIGNATURES = 5;

export type RawBody = string | Uint8Array;

export type SignatureFailureReason =
  'missing_timestamp' | 'malformed_timestamp' | 'timestamp_out_of_tolerance' | 'missing_signature' | 'malformed_signature' | 'signature_mismatch';

export type SignatureVerification = { ok: true } | { ok: false; reason: SignatureFailureReason };

/** A header value as Node delivers it: absent, one value, or repeated. */
export type HeaderValue = string | readonly string[] | undefined;

export interface VerifySignatureInput {
  secret: string;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: RawBody;
  timestampHeader: HeaderValue;
  signatureHeader: HeaderValue;
  /** Allowed distance between the timestamp and now, in both directions (inclusive). */
  toleranceSeconds?: number;
  /** The receiver's current time in Unix seconds; time is always a parameter. */
  nowSeconds: number;
}

/** Returns a fresh endpoint secret: `whsec_` + 32 random bytes in unpadded base64url. */
export function generateEndpointSecret(): string {
  return ENDPOINT_SECRET_PREFIX + randomBytes(SECRET_RANDOM_BYTES).toString('base64url');
}

/** True when `value` has the exact shape generateEndpointSecret produces. */
export function isEndpointSecret(value: string): boolean {
  return ENDPOINT_SECRET_PATTERN.test(value);
}

/** Hex HMAC-SHA256 over `${timestampSeconds}.${rawBody}`, keyed with the whole secret string. */
export function signPayload(secret: string, timestampSeconds: number, rawBody: RawBody): string {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError('timestampSeconds must be a non-negative integer');
  }
  return computeDigest(secret, String(timestampSeconds), rawBody).toString('hex');
}

/** The `Service-Signature` value: one signature per secret, in the order given, comma-separated. */
export function signatureHeaderValue(secrets: readonly string[], timestampSeconds: number, rawBody: RawBody): string {
  if (secrets.length === 0 || secrets.length > MAX_SIGNATURES) throw new RangeError(`between 1 and ${MAX_SIGNATURES} secrets sign a payload`);
  return secrets.map((secret) => signPayload(secret, timestampSeconds, rawBody)).join(',');
}

export function verifySignature(input: VerifySignatureInput): SignatureVerification {
  const toleranceSeconds = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError('toleranceSeconds must be a non-negative finite number');
  }
  if (!Number.isFinite(input.nowSeconds)) throw new RangeError('nowSeconds must be a finite number');

  const timestampText = singleHeader(input.timestampHeader);
  if (timestampText === undefined) return { ok: false, reason: 'missing_timestamp' };
  if (timestampText === null || !TIMESTAMP_PATTERN.test(timestampText.trim())) {
    return { ok: false, reason: 'malformed_timestamp' };
  }
  // The signed string uses the header's digits exactly as sent.
  const timestampDigits = timestampText.trim();
  const timestamp = Number(timestampDigits);
  if (Math.abs(input.nowSeconds - timestamp) > toleranceSeconds) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }

  const signatureText = singleHeader(input.signatureHeader);
  if (signatureText === undefined) return { ok: false, reason: 'missing_signature' };
  if (signatureText === null) return { ok: false, reason: 'malformed_signature' };
  // One signature, or a comma-separated list during a rotation's overlap.
  const parts = signatureText.split(',').map((p) => p.trim());
  if (parts.length > MAX_SIGNATURES || parts.some((p) => !HEX_PATTERN.test(p))) {
    return { ok: false, reason: 'malformed_signature' };
  }
  const expected = computeDigest(input.secret, timestampDigits, input.rawBody);
  // timingSafeEqual throws on unequal lengths; the length of a digest is public, so
  // checking it first leaks nothing. Every listed signature is compared (no early exit).
  let matched = false;
  for (const part of parts) {
    const received = Buffer.from(part, 'hex');
    if (received.length === SHA256_BYTES && timingSafeEqual(received, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };
  return { ok: true };
}

function computeDigest(secret: string, timestampDigits: string, rawBody: RawBody): Buffer {
  if (secret.length === 0) throw new TypeError('webhook secret must not be empty');
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${timestampDigits}.`, 'utf8')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest();
}

/** undefined = absent; null = repeated header (ambiguous, refused); otherwise the value. */
function singleHeader(value: HeaderValue): string | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value.length === 0) return undefined;
  return value.length === 1 ? value[0] : null;
}
