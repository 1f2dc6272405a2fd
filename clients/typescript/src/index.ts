// The billing service's TypeScript client: openapi-fetch over the types generated from the
// service's OpenAPI document (../schema.d.ts, written by `npm run openapi` in the service), plus
// what every integration needs and should not write by hand:
//   - an Idempotency-Key on every write (POST, PATCH, DELETE) that has none, kept across retries;
//   - bounded retries of 429 and 503 answers, waiting as long as Retry-After says (capped);
//   - webhook signature verification that accepts any of the signatures sent during a secret
//     rotation (one per live secret, comma-separated).
import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../schema';

export type { components, operations, paths } from '../schema';
export { verifyWebhookSignature, parseWebhookEvent, signWebhookPayload, WebhookSignatureError, DEFAULT_TOLERANCE_SECONDS } from './webhooks';
export type { VerifyWebhookOptions, WebhookEvent } from './webhooks';

/** The error envelope of every error answer (`error.code`, `message`, `param`, `doc_url`, `request_id`). */
export type ApiErrorBody = components['schemas']['Error'];

export interface RetryOptions {
  /** Further attempts after the first one for a 429 or 503 answer (default 3; 0 turns retries off). */
  maxRetries?: number;
  /** Longest wait before one retry, whatever Retry-After says (default 30 000 ms). */
  maxDelayMs?: number;
  /** Wait when the answer has no usable Retry-After: doubled per attempt from this (default 500 ms). */
  baseDelayMs?: number;
}

export interface BillingClientOptions {
  /** The service's address, e.g. `http://localhost:3000` (no `/v1`: paths include it). */
  baseUrl: string;
  /** A secret key, `sk_test_…` or `sk_live_…`. */
  apiKey: string;
  /** Sent as X-Merchant-Id (needed on routes that act for one merchant of a platform key). */
  merchantId?: string;
  retry?: RetryOptions;
  /** Makes the Idempotency-Key of a write that has none (default: a random UUID). */
  idempotencyKey?: () => string;
  /** The fetch to use (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait (tests may pass a fake); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export type BillingClient = Client<paths>;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRIED = new Set([429, 503]);

/**
 * The delay a Retry-After header asks for, in ms: delta-seconds or an HTTP date; undefined when
 * absent or unusable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A fetch that sets Idempotency-Key on writes and retries 429/503 (bounded, honouring
 * Retry-After). Each retry sends the same method, URL, headers (the same key) and body.
 */
export function retryingFetch(opts: Pick<BillingClientOptions, 'retry' | 'idempotencyKey' | 'fetch' | 'sleep'> = {}): (request: Request) => Promise<Response> {
  const maxRetries = Math.max(0, opts.retry?.maxRetries ?? 3);
  const maxDelayMs = Math.max(0, opts.retry?.maxDelayMs ?? 30_000);
  const baseDelayMs = Math.max(0, opts.retry?.baseDelayMs ?? 500);
  const send = opts.fetch ?? ((r: Request) => fetch(r));
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const newKey = opts.idempotencyKey ?? randomUUID;
  return async (request: Request) => {
    const headers = new Headers(request.headers);
    if (WRITES.has(request.method.toUpperCase()) && !headers.has('Idempotency-Key')) headers.set('Idempotency-Key', newKey());
    // The body is read once, so that every attempt can send it again.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      const res = await send(new Request(request.url, { method: request.method, headers, body, signal: request.signal, redirect: request.redirect }));
      if (!RETRIED.has(res.status) || attempt >= maxRetries) return res;
      const asked = retryAfterMs(res.headers.get('Retry-After'));
      const wait = Math.min(maxDelayMs, asked ?? baseDelayMs * 2 ** attempt);
      await res.body?.cancel().catch(() => undefined);
      await sleep(wait);
    }
  };
}

/** An openapi-fetch client for the billing service: typed paths, bodies and answers. */
export function createBillingClient(opts: BillingClientOptions): BillingClient {
  const headers: Record<string, string> = { Authorization: `Bearer ${opts.apiKey}` };
  if (opts.merchantId) headers['X-Merchant-Id'] = opts.merchantId;
  return createClient<paths>({ baseUrl: opts.baseUrl.replace(/\/+$/, ''), headers, fetch: retryingFetch(opts) });
}
