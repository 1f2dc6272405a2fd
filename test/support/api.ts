// A small HTTP client for API tests, plus merchant fixtures.
import { createMerchant, goLive, insertKey } from '../../src/domain/merchants/create-merchant';
import type { TestEnv } from './env';
import { assertMatchesContract } from './openapi-contract';
import { recordExample } from './example-recorder';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  key?: string | null;
  merchant?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
  baseUrl?: string;
}

export interface TestMerchant {
  id: string;
  secretKey: string;
  publishableKey: string;
  /** Calls the API as this merchant (secret test key, X-Merchant-Id set). */
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<ApiResponse<T>>;
}

export async function call<T = any>(env: Pick<TestEnv, 'baseUrl'>, method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  if (opts.merchant) headers['X-Merchant-Id'] = opts.merchant;
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${opts.baseUrl ?? env.baseUrl}${path}`, { method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes); // as res.text() would (a byte order mark is dropped)
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const response = { status: res.status, headers: res.headers, body: parsed as T, text };
  // Every response must match the OpenAPI document: a mismatch fails the test that made the call (docs/openapi.md).
  assertMatchesContract(method, path, response);
  // With RECORD_OPENAPI_EXAMPLES set, the first success per operation becomes its documented example.
  recordExample(method, path, body, response, bytes);
  return response;
}

let counter = 0;
export async function newMerchant(env: TestEnv, opts: { live?: boolean; currency?: string } = {}): Promise<TestMerchant & { liveSecretKey?: string }> {
  const created = await createMerchant(env.db, { name: `Test merchant ${++counter}`, currency: opts.currency });
  let liveSecretKey: string | undefined;
  if (opts.live) {
    await goLive(env.db, created.merchant.id, new Date());
    liveSecretKey = await insertKey(env.db, created.merchant.id, 'secret', 'live', 'live test');
  }
  const m = {
    id: created.merchant.id,
    secretKey: created.secretKey,
    publishableKey: created.publishableKey,
    liveSecretKey,
    call<T = any>(method: string, path: string, o: CallOptions = {}) {
      return call<T>(env, method, path, { key: created.secretKey, merchant: created.merchant.id, ...o });
    },
  };
  return m;
}

export type LiveMerchant = TestMerchant & { liveSecretKey?: string };

/** A merchant that has gone live, with a live secret key besides its test keys. */
export const liveMerchant = (env: TestEnv): Promise<LiveMerchant> => newMerchant(env, { live: true });

/** Asserts the error envelope of the spec and returns the error object. */
export function expectError(res: ApiResponse, status: number, code: string, param?: string) {
  const err = res.body?.error;
  if (res.status !== status || !err || err.code !== code || (param !== undefined && err.param !== param)) {
    throw new Error(`expected ${status} ${code}${param ? ` (param ${param})` : ''}, got ${res.status} ${res.text.slice(0, 400)}`);
  }
  for (const f of ['type', 'message', 'doc_url', 'request_id']) {
    if (typeof err[f] !== 'string' || err[f] === '') throw new Error(`error envelope lacks ${f}: ${res.text}`);
  }
  if (res.headers.get('x-request-id') !== err.request_id) throw new Error('X-Request-Id header differs from error.request_id');
  return err;
}

/** A merchant that has gone live, with `live(...)` calling as it with its live secret key. */
export interface TwoModeMerchant extends TestMerchant {
  liveSecretKey?: string;
  /** Calls as the same merchant with its LIVE secret key (the other mode). */
  live<T = any>(method: string, path: string, opts?: CallOptions): Promise<ApiResponse<T>>;
}

export async function twoModeMerchant(env: TestEnv, opts: { currency?: string } = {}): Promise<TwoModeMerchant> {
  const m = await newMerchant(env, { live: true, currency: opts.currency });
  return Object.assign(m, {
    live<T = any>(method: string, path: string, o: CallOptions = {}) {
      return call<T>(env, method, path, { key: m.liveSecretKey!, merchant: m.id, ...o });
    },
  });
}

let uniqueSeq = 0;
/** A value unique within the test run (external ids, idempotency keys, names). */
export function uniqueName(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${++uniqueSeq}`;
}
