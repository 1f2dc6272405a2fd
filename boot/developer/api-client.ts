// A minimal client of this service's own API for the developer commands (`billing listen`,
// `billing trigger`): they go through the public API with a secret test key, like a merchant's
// backend, so they exercise exactly the rules and events a real integration sees.
import { randomUUID } from 'node:crypto';

export interface ApiTarget {
  baseUrl: string;
  key: string;
  merchantId: string;
}

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

export type CallApi = <T = Record<string, any>>(method: string, path: string, body?: unknown, opts?: { signal?: AbortSignal }) => Promise<T>;

/** Calls the API; a non-2xx answer throws with the error envelope's code and message. */
export function apiCaller(target: ApiTarget): CallApi {
  return async <T>(method: string, path: string, body?: unknown, opts: { signal?: AbortSignal } = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${target.key}`, 'X-Merchant-Id': target.merchantId };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'POST') headers['Idempotency-Key'] = randomUUID();
    const res = await fetch(`${target.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts.signal });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as any) : {};
    if (!res.ok) {
      const err = parsed?.error ?? {};
      throw new ApiCallError(res.status, String(err.code ?? res.status), `${method} ${path}: ${res.status} ${err.code ?? ''} ${err.message ?? text}`.trim());
    }
    return parsed as T;
  };
}

/**
 * Where and as whom: --api-url (else BILLING_API_URL, else http://localhost:$PORT or 3000),
 * --api-key (else BILLING_API_KEY), --merchant (else BILLING_MERCHANT_ID, else the key's own
 * merchant from GET /v1/merchants/current). Only secret test keys: these commands are test mode only.
 */
export async function resolveTarget(opts: { apiUrl?: string; apiKey?: string; merchant?: string }, env: NodeJS.ProcessEnv): Promise<ApiTarget> {
  const baseUrl = (opts.apiUrl ?? env.BILLING_API_URL ?? `http://localhost:${env.PORT ?? '3000'}`).replace(/\/+$/, '');
  const key = opts.apiKey ?? env.BILLING_API_KEY;
  if (!key) throw new Error('a secret test key is needed: --api-key sk_test_… or BILLING_API_KEY (npm start prints one)');
  if (!key.startsWith('sk_test_')) throw new Error('only a secret test key (sk_test_…) works here: these commands are for test mode');
  let merchantId = opts.merchant ?? env.BILLING_MERCHANT_ID;
  if (!merchantId) {
    const res = await fetch(`${baseUrl}/v1/merchants/current`, { headers: { Authorization: `Bearer ${key}` } });
    if (!res.ok) throw new Error(`GET ${baseUrl}/v1/merchants/current answered ${res.status}: ${await res.text()}`);
    merchantId = ((await res.json()) as { id: string }).id;
  }
  return { baseUrl, key, merchantId };
}
