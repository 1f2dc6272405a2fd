// Records request/response examples for the OpenAPI document from real API responses
// (docs/openapi.md "Examples"). Off unless RECORD_OPENAPI_EXAMPLES is set: then every call made
// through test/support/api.ts that succeeds (2xx, JSON) on a /v1 operation is kept, the first one
// per operation ("<METHOD> <path template>", matched as the contract check matches it), and the
// root hook (test/support/hooks.ts) merges them into docs/openapi-examples.json at the end of the
// run (operations this run did not reach keep the example they had). Ids and test-mode values are
// kept; keys and secrets (sk_/rk_/pk_ keys, whsec_ secrets, client secrets, portal tokens) become
// placeholders. test/api/openapi-examples.test.ts validates the file against the document.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findOperation } from './openapi-contract';

export interface RecordedExample {
  request?: unknown;
  response: { status: number; body: unknown };
}
export type ExamplesFile = Record<string, RecordedExample>;

export const EXAMPLES_FILE = path.resolve(__dirname, '..', '..', '..', 'docs', 'openapi-examples.json');

const recording = (): boolean => !!process.env.RECORD_OPENAPI_EXAMPLES;
const recorded = new Map<string, RecordedExample>();

const PLACEHOLDERS: Array<[RegExp, (m: string) => string]> = [
  [/\b(sk|rk|pk)_(test|live)_[A-Za-z0-9_-]+/g, (m) => `${m.split('_').slice(0, 2).join('_')}_REDACTED`],
  [/\bwhsec_[A-Za-z0-9_-]+/g, () => 'whsec_REDACTED'],
];
/** Fields whose string value is a credential whatever its form. */
const SECRET_FIELDS = new Set(['client_secret', 'password', 'token', 'access_token', 'refresh_token']);

/** A copy of a JSON value with every key and secret replaced by a placeholder. */
export function redactSecrets(value: unknown, field?: string): unknown {
  if (typeof value === 'string') {
    if (field && SECRET_FIELDS.has(field)) return `${field}_REDACTED`;
    let out = value;
    for (const [pattern, replace] of PLACEHOLDERS) out = out.replace(pattern, replace);
    // A portal link carries its session token in the path: keep the shape, not the token.
    out = out.replace(/(\/portal\/open\/)[A-Za-z0-9_-]+/g, '$1TOKEN_REDACTED');
    // The test server's random port becomes the address `npm start` serves on.
    out = out.replace(/^http:\/\/127\.0\.0\.1:\d+/, 'http://localhost:3000');
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactSecrets(v, k)]));
  return value;
}

/** The operation key of a request: "<METHOD> <path template>", or undefined off the document. */
export function operationKey(method: string, url: string): string | undefined {
  const pathname = new URL(url, 'http://example.invalid').pathname;
  const route = findOperation(method, pathname);
  return route ? `${route.method} ${route.template}` : undefined;
}

/** Called by test/support/api.ts for every response (after its contract check passed). */
export function recordExample(method: string, url: string, requestBody: string | undefined, res: { status: number; headers: Headers; body: unknown }): void {
  if (!recording()) return;
  if (res.status < 200 || res.status > 299) return;
  const key = operationKey(method, url);
  if (!key || !key.split(' ')[1]!.startsWith('/v1/') || recorded.has(key)) return;
  const noContent = res.status === 204;
  if (!noContent && (!(res.headers.get('content-type') ?? '').startsWith('application/json') || res.body === undefined)) return;
  let request: unknown;
  if (requestBody !== undefined) {
    try {
      request = JSON.parse(requestBody);
    } catch {
      return; // a deliberately malformed body is no example
    }
  }
  recorded.set(key, { ...(request !== undefined ? { request: redactSecrets(request) } : {}), response: { status: res.status, body: noContent ? null : redactSecrets(res.body) } });
}

/** Merges this run's examples into docs/openapi-examples.json (sorted by operation). No-op unless recording. */
export function flushExamples(): void {
  if (!recording() || recorded.size === 0) return;
  const file = process.env.RECORD_OPENAPI_EXAMPLES === '1' ? EXAMPLES_FILE : path.resolve(process.env.RECORD_OPENAPI_EXAMPLES!);
  const existing: ExamplesFile = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ExamplesFile) : {};
  const merged: ExamplesFile = { ...existing, ...Object.fromEntries(recorded) };
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((k) => [k, merged[k]!]),
  );
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`    recorded ${recorded.size} example(s) into ${file} (${Object.keys(sorted).length} in all)`);
}
