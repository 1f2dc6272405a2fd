// Records request/response examples for the OpenAPI document from real API responses
// (docs/openapi.md "Examples"). Off unless RECORD_OPENAPI_EXAMPLES is set: then every call made
// through test/support/api.ts on a /v1 operation ("<METHOD> <path template>", matched as the
// contract check matches it) is looked at, and the root hook (test/support/hooks.ts) merges what
// was kept into docs/openapi-examples.json at the end of the run (operations this run did not
// reach keep the example they had):
// - the first success per operation: its JSON request body, its path and query parameters, and
//   its answer — JSON as it was; CSV, HTML and plain text as the text (the CSV without its byte
//   order mark, a long text cut at a line end with a summary saying so); a PDF or ZIP as its size
//   and first bytes (no value: the document is JSON); a 204 as `null`; the API's own document
//   abridged;
// - the first error answer per operation and status (the envelope), and the request body of the
//   first refusal that was not about the body (for an operation that never succeeds).
// Ids and test-mode values are kept; keys and secrets (sk_/rk_/pk_ keys, whsec_ secrets, client
// secrets, passwords, tokens, accounting credentials, OAuth `state` and `code`, portal tokens)
// become placeholders. test/unit/openapi-examples.test.ts validates the file against the document.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findOperation } from './openapi-contract';
import { openApiDocument } from '../../api/openapi/app-document';

export interface RecordedResponse {
  status: number;
  /** The answer's body: JSON, a text (CSV/HTML/plain), or null (204, PDF, ZIP). */
  body: unknown;
  /** The media type when not application/json (204: absent). */
  media?: string;
  /** Says what the example is when it is not the whole answer (an excerpt, a binary's size and start). */
  summary?: string;
  /** A binary answer: its size in bytes and its first bytes (printable ASCII, others as \xNN). */
  bytes?: number;
  starts_with?: string;
}
export interface RecordedExample {
  request?: unknown;
  /** The path and query parameters of the recorded request, by name. */
  parameters?: Record<string, unknown>;
  /** The success answer (absent only for an operation that always refuses; see the unit test). */
  response?: RecordedResponse;
  /** An error answer per status (`"404"`: the envelope), each recorded from a real refusal. */
  errors?: Record<string, unknown>;
}
export type ExamplesFile = Record<string, RecordedExample>;

export const EXAMPLES_FILE = path.resolve(__dirname, '..', '..', '..', 'docs', 'openapi-examples.json');

/** Texts longer than this are cut at a line end (an invoice's HTML page is mostly its style sheet). */
export const MAX_TEXT_EXAMPLE = 6000;

const recording = (): boolean => !!process.env.RECORD_OPENAPI_EXAMPLES;
const successes = new Map<string, Omit<RecordedExample, 'errors'>>();
const errorAnswers = new Map<string, Record<string, unknown>>();
const refusedRequests = new Map<string, unknown>();

const PLACEHOLDERS: Array<[RegExp, (m: string) => string]> = [
  [/\b(sk|rk|pk)_(test|live)_[A-Za-z0-9_-]+/g, (m) => `${m.split('_').slice(0, 2).join('_')}_REDACTED`],
  [/\bwhsec_[A-Za-z0-9_-]+/g, () => 'whsec_REDACTED'],
  // OAuth values in a URL (the authorization redirect, the callback): single-use, but a credential while they live.
  [/([?&](?:state|code)=)[^&#\s"]+/g, (m) => `${m.slice(0, m.indexOf('=') + 1)}REDACTED`],
];
/** Fields whose string value is a credential whatever its form. */
export const SECRET_FIELDS = new Set(['client_secret', 'password', 'token', 'access_token', 'refresh_token', 'api_token', 'secret']);
/** Query parameters that carry a credential (the OAuth callback's `code` and `state`). */
const SECRET_PARAMETERS = new Set(['code', 'state']);

/** Other loopback services of the test environment, named as an integrator would see them (see `nameAddress`). */
const addresses = new Map<string, string>();
/** Records `url`'s origin (a loopback sandbox on a random port) as `placeholder` in examples. */
export function nameAddress(url: string, placeholder: string): void {
  addresses.set(new URL(url).origin, placeholder);
}

/** A copy of a JSON value with every key and secret replaced by a placeholder. */
export function redactSecrets(value: unknown, field?: string): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const [pattern, replace] of PLACEHOLDERS) out = out.replace(pattern, replace);
    // A credential field keeps its recognisable placeholder (`whsec_REDACTED`), else becomes `<field>_REDACTED`.
    if (field && SECRET_FIELDS.has(field)) return out !== value ? out : `${field}_REDACTED`;
    // A portal link carries its session token in the path: keep the shape, not the token.
    out = out.replace(/(\/portal\/open\/)[A-Za-z0-9_-]+/g, '$1TOKEN_REDACTED');
    for (const [origin, placeholder] of addresses) out = out.split(origin).join(placeholder);
    // The test server's random port becomes the address `npm start` serves on.
    out = out.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://localhost:3000').replace(/http%3A%2F%2F127\.0\.0\.1%3A\d+/gi, 'http%3A%2F%2Flocalhost%3A3000');
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

/** The path and query parameters of a request, typed as the operation's parameter schemas say. */
function parametersOf(method: string, url: string): Record<string, unknown> | undefined {
  const u = new URL(url, 'http://example.invalid');
  const route = findOperation(method, u.pathname);
  if (!route) return undefined;
  const out: Record<string, unknown> = {};
  const names = [...route.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const values = new RegExp(`^${route.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)')}$`).exec(u.pathname);
  names.forEach((name, i) => {
    if (values?.[i + 1] !== undefined) out[name] = decodeURIComponent(values[i + 1]!);
  });
  const declared = new Map<string, { type?: unknown }>();
  type Param = { name?: string; in?: string; schema?: { type?: unknown }; $ref?: string };
  const shared = (openApiDocument().components as { parameters?: Record<string, Param> }).parameters ?? {};
  for (const raw of (route.op.parameters ?? []) as Param[]) {
    const p = raw.$ref ? (shared[raw.$ref.split('/').pop()!] ?? {}) : raw;
    if (p.in === 'query' && p.name) declared.set(p.name, p.schema ?? {});
  }
  for (const [name, raw] of u.searchParams) {
    const type = declared.get(name)?.type;
    const types = Array.isArray(type) ? type : [type];
    if (SECRET_PARAMETERS.has(name)) out[name] = `${name}_REDACTED`;
    else out[name] = types.includes('integer') || types.includes('number') ? Number(raw) : types.includes('boolean') ? raw === 'true' : raw;
  }
  return Object.keys(out).length ? (redactSecrets(out) as Record<string, unknown>) : undefined;
}

/** The first bytes of a binary answer, printable ASCII kept, others as \xNN. */
function startOf(bytes: Buffer, n = 8): string {
  return [...bytes.subarray(0, n)].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
}

/** A text cut at the last line end before MAX_TEXT_EXAMPLE characters. */
function excerpt(text: string): { body: string; summary?: string } {
  if (text.length <= MAX_TEXT_EXAMPLE) return { body: text };
  const cut = text.lastIndexOf('\n', MAX_TEXT_EXAMPLE);
  const body = text.slice(0, cut > 0 ? cut + 1 : MAX_TEXT_EXAMPLE);
  return { body, summary: `The first ${body.length} of the ${text.length} characters of a recorded answer` };
}

/** The API's own document, abridged: its header, one path and none of its components. */
function abridgedDocument(doc: Record<string, unknown>): unknown {
  const paths = doc.paths as Record<string, unknown>;
  return { openapi: doc.openapi, info: doc.info, jsonSchemaDialect: doc.jsonSchemaDialect, servers: doc.servers, paths: { '/healthz': paths['/healthz'] } };
}

function answerOf(key: string, res: { status: number; headers: Headers; body: unknown; text: string }, bytes?: Buffer): RecordedResponse | undefined {
  if (res.status === 204) return { status: 204, body: null };
  const media = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === 'application/json') {
    if (res.body === undefined) return undefined;
    if (key === 'GET /v1/openapi.json') {
      return {
        status: res.status,
        body: abridgedDocument(res.body as Record<string, unknown>),
        summary: 'Abridged: the header and one path of the document (the whole is this document)',
      };
    }
    return { status: res.status, body: redactSecrets(res.body) };
  }
  if (media.startsWith('text/')) {
    const { body, summary } = excerpt(res.text.replace(/^\uFEFF/, ''));
    const bom = bytes && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 'Served with a UTF-8 byte order mark (left out here). ' : '';
    return { status: res.status, media, body: redactSecrets(body), ...(summary || bom ? { summary: `${bom}${summary ?? 'The whole recorded answer'}` } : {}) };
  }
  if (media === 'application/pdf' || media === 'application/zip') {
    if (!bytes) return undefined;
    const what = media === 'application/pdf' ? 'PDF document' : 'ZIP archive';
    return {
      status: res.status,
      media,
      body: null,
      bytes: bytes.length,
      starts_with: startOf(bytes),
      summary: `A recorded ${what} of ${bytes.length} bytes, starting \`${startOf(bytes)}\``,
    };
  }
  return undefined;
}

/** Called by test/support/api.ts for every response (after its contract check passed). */
export function recordExample(
  method: string,
  url: string,
  requestBody: string | undefined,
  res: { status: number; headers: Headers; body: unknown; text: string },
  bytes?: Buffer,
): void {
  if (!recording()) return;
  const key = operationKey(method, url);
  if (!key || !key.split(' ')[1]!.startsWith('/v1/')) return;
  let request: unknown;
  let parsed = true;
  if (requestBody !== undefined) {
    try {
      request = JSON.parse(requestBody);
    } catch {
      parsed = false; // a deliberately malformed body is no example
    }
  }
  if (res.status >= 400) {
    const error = (res.body as { error?: { code?: string } } | undefined)?.error;
    if (!error) return;
    const byStatus = errorAnswers.get(key) ?? {};
    byStatus[String(res.status)] ??= redactSecrets(res.body);
    errorAnswers.set(key, byStatus);
    // A refusal that is not about the request itself: its body is a fair example of the request.
    const takesBody = !!findOperation(method, new URL(url, 'http://example.invalid').pathname)?.op.requestBody;
    if (takesBody && parsed && request !== undefined && ![400, 413, 415].includes(res.status) && !refusedRequests.has(key)) refusedRequests.set(key, redactSecrets(request));
    return;
  }
  if (res.status < 200 || res.status > 299 || successes.has(key) || !parsed) return;
  const answer = answerOf(key, res, bytes);
  if (!answer) return;
  const parameters = parametersOf(method, url);
  successes.set(key, { ...(request !== undefined ? { request: redactSecrets(request) } : {}), ...(parameters ? { parameters } : {}), response: answer });
}

/** Merges this run's examples into docs/openapi-examples.json (sorted by operation). No-op unless recording. */
export function flushExamples(): void {
  if (!recording() || (successes.size === 0 && errorAnswers.size === 0)) return;
  const file = process.env.RECORD_OPENAPI_EXAMPLES === '1' ? EXAMPLES_FILE : path.resolve(process.env.RECORD_OPENAPI_EXAMPLES!);
  const merged: ExamplesFile = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ExamplesFile) : {};
  for (const [key, example] of successes) merged[key] = { ...example, ...(merged[key]?.errors ? { errors: merged[key].errors } : {}) };
  for (const [key, byStatus] of errorAnswers) {
    const entry = (merged[key] ??= {});
    entry.errors = Object.fromEntries(Object.entries({ ...entry.errors, ...byStatus }).sort(([a], [b]) => a.localeCompare(b)));
    // An operation that never succeeded: its request example is the body of a refusal not about the body (or none).
    if (!entry.response) entry.request = refusedRequests.get(key);
  }
  // Stable order: request, parameters, response, errors within an entry; operations sorted.
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((k) => {
        const e = merged[k]!;
        const entry: RecordedExample = {};
        if (e.request !== undefined) entry.request = e.request;
        if (e.parameters) entry.parameters = e.parameters;
        if (e.response) entry.response = e.response;
        if (e.errors) entry.errors = e.errors;
        return [k, entry];
      }),
  );
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`    recorded ${successes.size} example(s) and errors of ${errorAnswers.size} operation(s) into ${file} (${Object.keys(sorted).length} in all)`);
}
