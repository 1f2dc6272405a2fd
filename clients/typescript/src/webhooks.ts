// Verifying a webhook delivery (the service's docs/webhooks.md "Receiving webhooks"):
//   Service-Timestamp: Unix seconds of the attempt
//   Service-Signature: hex HMAC-SHA256 of `${timestamp}.${raw body}` keyed with the endpoint's
//                      whsec_… secret; during a rotation one per live secret, comma-separated.
// Verify over the raw bytes, before any JSON parsing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received. */
  payload: string | Uint8Array;
  /** The Service-Timestamp header. */
  timestamp: string | string[] | null | undefined;
  /** The Service-Signature header. */
  signature: string | string[] | null | undefined;
  /** The secret(s) the receiver holds: during a rotation, pass both; any one matching is enough. */
  secrets: string | readonly string[];
  /** Largest accepted distance between the timestamp and now (default 300 s). */
  toleranceSeconds?: number;
  /** Now, in Unix seconds (for tests). */
  nowSeconds?: number;
}

export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  data: T;
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

const single = (h: string | string[] | null | undefined): string | undefined => (Array.isArray(h) ? h.join(',') : (h ?? undefined));

/** The hex signature the service sends for this payload, timestamp and secret. */
export function signWebhookPayload(secret: string, timestamp: string | number, payload: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

/** Whether the delivery is genuine: a fresh timestamp and a signature made with any of `secrets`. */
export function verifyWebhookSignature(opts: VerifyWebhookOptions): boolean {
  const timestamp = single(opts.timestamp);
  const header = single(opts.signature);
  if (timestamp === undefined || !/^\d+$/.test(timestamp) || header === undefined) return false;
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const secrets = typeof opts.secrets === 'string' ? [opts.secrets] : opts.secrets;
  const sent = header
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[0-9a-f]{64}$/i.test(s))
    .map((s) => Buffer.from(s, 'hex'));
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(opts.payload).digest();
    return sent.some((s) => timingSafeEqual(expected, s));
  });
}

/** Verifies the delivery and returns its event; throws WebhookSignatureError when it is not genuine. */
export function parseWebhookEvent<T = Record<string, unknown>>(opts: VerifyWebhookOptions): WebhookEvent<T> {
  if (!verifyWebhookSignature(opts)) throw new WebhookSignatureError('The webhook signature or timestamp did not verify');
  const text = typeof opts.payload === 'string' ? opts.payload : Buffer.from(opts.payload).toString('utf8');
  return JSON.parse(text) as WebhookEvent<T>;
}
