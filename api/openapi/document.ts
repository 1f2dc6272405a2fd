// The OpenAPI 3.1 document of the API, built from the route declarations (api/route.ts, api/areas.ts),
// the yup schemas the routes validate with (converted by @sodaru/yup-to-json-schema), the public
// objects' schemas (src/objects/schemas.ts) and the error catalog (src/errors.ts). Served at
// GET /v1/openapi.json and committed as docs/openapi.json (`npm run openapi`); docs/openapi.md.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { convertSchema } from '@sodaru/yup-to-json-schema';
import { errorCatalog } from '../../src/errors';
import { OBJECT_SCHEMAS } from '../../src/objects/schemas';
import { arrayOf, bool, object, ref, str, type JsonSchema } from '../../src/objects/json-schema';
import { PAGE_DEFAULT, PAGE_MAX, type yup } from '../validate';
import { DASHBOARD_SESSION_COOKIE } from '../middleware/auth';
import { PORTAL_COOKIE } from '../portal/router';
import { openApiPath, type BodyKind, type OperationExample, type RecordedExamples, type RouteAuth, type RouteDoc } from './describe';
import { API_SCHEMAS, TAGS } from './components';
import { declarationsOf, type Area } from '../route';

export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
} & Record<string, unknown>;
export type OperationObject = { operationId: string; responses: Record<string, ResponseObject>; parameters?: Array<Record<string, unknown>> } & Record<string, unknown>;
export type ResponseObject = { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: JsonSchema }> };

const MEDIA: Record<Exclude<BodyKind, 'none'>, string> = {
  json: 'application/json',
  html: 'text/html',
  text: 'text/plain',
  pdf: 'application/pdf',
  csv: 'text/csv',
  zip: 'application/zip',
  javascript: 'application/javascript',
  css: 'text/css',
};

const DESCRIPTION = `Subscription billing and payments API.

**Authentication.** Server-side calls send a secret API key as \`Authorization: Bearer sk_test_…\` (or \`sk_live_…\`) together with \`X-Merchant-Id: <merchant id>\`. The key's mode (test or live) decides which data the call sees. A publishable key (\`pk_…\`) may be used from a browser only where an operation says so (creating a payment session). Operations secured by \`dashboardSession\` take the dashboard's session cookie and refuse API keys. The service's pages (checkout, customer portal, the reference pages), their assets and the health probes are not part of this API and not in this document.

**Errors.** Every error answers with the envelope \`{ "error": { "type", "code", "message", "param"?, "doc_url", "request_id" } }\` (schema \`Error\`); \`code\` is stable and listed in the schema, \`param\` names the offending field or header. A request for a route that does not exist answers 404 \`route_not_found\`, a method the route does not have 405 \`method_not_allowed\`, both in the envelope.

**Lists.** List operations take \`limit\` (1–${PAGE_MAX}, default ${PAGE_DEFAULT}; a value below 1 falls back to the default, above ${PAGE_MAX} to ${PAGE_MAX}) and \`starting_after\` (the id of the last object of the previous page), and answer \`{ "data": [...], "has_more": true|false }\`, newest first.

**Idempotency.** A POST may carry \`Idempotency-Key\` (1–255 visible ASCII characters): a retry with the same key (same merchant and mode) gets the first answer again, with \`Idempotent-Replayed: true\`, and does not act twice. While the first request is still running a retry answers 409 \`idempotency_key_in_use\`.

**Request ids.** Every answer carries \`X-Request-Id\`, the same as \`error.request_id\`.`;

function errorSchema(): JsonSchema {
  const catalog = errorCatalog();
  return object({
    error: object(
      {
        type: { type: 'string', enum: [...new Set(catalog.map((e) => e.type))] },
        code: { type: 'string', enum: catalog.map((e) => e.code) },
        message: str,
        param: str,
        doc_url: str,
        request_id: str,
      },
      { optional: ['param'] },
    ),
  });
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not authenticated',
  402: 'Payment declined',
  403: 'Not permitted',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Body too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  431: 'Request headers too large',
  500: 'Internal error',
  502: 'Upstream provider error',
  503: 'Service unavailable',
};

function errorResponses(): Record<string, ResponseObject> {
  const byStatus = new Map<number, string[]>();
  for (const e of errorCatalog()) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e.code]);
  const out: Record<string, ResponseObject> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[`Error${status}`] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: the error envelope with one of ${codes.map((c) => `\`${c}\``).join(', ')}.`,
      headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' }, ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}) },
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  out.Error = {
    description: 'An error: the error envelope (see the `Error` schema for every code).',
    headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
    content: { 'application/json': { schema: ref('Error') } },
  };
  return out;
}

function security(auth: RouteAuth): Array<Record<string, string[]>> {
  switch (auth) {
    case 'secret':
      return [{ secretKey: [], merchantId: [] }];
    case 'secret_or_publishable':
      return [
        { secretKey: [], merchantId: [] },
        { publishableKey: [], merchantId: [] },
      ];
    case 'secret_no_merchant':
      return [{ secretKey: [] }, { secretKey: [], merchantId: [] }];
    case 'dashboard':
      return [{ dashboardSession: [] }];
    case 'portal':
      return [{ portalSession: [] }];
    case 'checkout':
    case 'none':
      return [];
  }
}

/** A yup schema as JSON Schema (draft 2020-12 shapes: nullable types as type arrays). */
export function yupToJsonSchema(schema: yup.AnySchema): JsonSchema {
  return tidy(convertSchema(schema) as unknown as JsonSchema);
}

/**
 * The converter's output made valid and plain: `yup.mixed()` (any JSON value) comes out as
 * `type: []`, a nullable `oneOf` lacks the null that yup accepts, and every object carries yup's
 * `default: {}` (not a default of the API).
 */
function tidy(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type' && Array.isArray(v) && v.length === 0) continue;
    if (k === 'default' && typeof v === 'object' && v !== null) continue;
    if (k === 'properties' && typeof v === 'object' && v !== null) out[k] = Object.fromEntries(Object.entries(v).map(([name, p]) => [name, tidy(p as JsonSchema)]));
    else if (k === 'items' && typeof v === 'object' && v !== null && !Array.isArray(v)) out[k] = tidy(v as JsonSchema);
    else out[k] = v;
  }
  if (Array.isArray(out.type) && out.type.includes('null') && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

function content(kind: BodyKind, schema: string | JsonSchema | undefined): ResponseObject['content'] | undefined {
  if (kind === 'none') return undefined;
  if (kind !== 'json') return { [MEDIA[kind]]: { schema: { type: 'string', ...(kind === 'pdf' ? { contentMediaType: 'application/pdf' } : {}) } } };
  const s = typeof schema === 'string' ? ref(schema) : (schema ?? { type: 'object' });
  return { 'application/json': { schema: s } };
}

const KEYED: RouteAuth[] = ['secret', 'secret_or_publishable', 'secret_no_merchant'];

function operation(d: RouteDoc, statusOf: Map<string, number>): OperationObject {
  const parameters: Array<Record<string, unknown>> = [];
  for (const name of [...d.path.matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string', maxLength: 255, pattern: '^[A-Za-z0-9_-]+$' } });
  }
  if (d.list) parameters.push({ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/StartingAfter' });
  if (d.query) {
    const q = yupToJsonSchema(d.query) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      if (d.list && (name === 'limit' || name === 'starting_after')) continue;
      parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema });
    }
  }
  const keyed = KEYED.includes(d.auth);
  if (keyed && d.method === 'post') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

  const kind = d.kind ?? 'json';
  const status = d.status ?? 200;
  const headers: Record<string, unknown> = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
  if (keyed) {
    headers['X-RateLimit-Limit'] = { $ref: '#/components/headers/X-RateLimit-Limit' };
    headers['X-RateLimit-Remaining'] = { $ref: '#/components/headers/X-RateLimit-Remaining' };
    if (d.method === 'post') headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
  }
  const success = d.list ? object({ data: arrayOf(ref(d.list)), has_more: bool }) : d.response;
  const responses: Record<string, ResponseObject> = {};
  responses[String(status)] = { description: d.summary, headers, content: content(kind, success) };
  for (const extra of d.also ?? []) {
    const prior = responses[String(extra.status)];
    const more = content(extra.kind ?? 'json', extra.schema);
    if (prior) prior.content = { ...prior.content, ...more };
    else responses[String(extra.status)] = { description: extra.description, headers, content: more };
  }

  // The error statuses this route can answer with; `default` covers the rest (all in the envelope).
  const errorStatuses = new Set<number>();
  if (keyed) [400, 401, 403, 429].forEach((s) => errorStatuses.add(s));
  if (d.auth === 'dashboard' || d.auth === 'portal') [401, 403].forEach((s) => errorStatuses.add(s));
  if (d.auth === 'checkout' || d.auth === 'portal') errorStatuses.add(403);
  // Every /v1/ request, whatever its auth, passes the input-safety layer (400 validation_failed on a
  // hostile query string; api/middleware/input-safety.ts) and the failed-authentication gate (429
  // rate_limited for an address over its budget without a valid key; api/middleware/auth-failures.ts).
  if (scopeOf(d) === 'api') [400, 429].forEach((s) => errorStatuses.add(s));
  if (d.body || d.bodyJson || d.query || d.list) errorStatuses.add(400);
  // A JSON body: too large (413 body_too_large) or not JSON (415), before the route runs (api/middleware/json-body.ts).
  if (d.body || d.bodyJson) [413, 415].forEach((s) => errorStatuses.add(s));
  if (d.path.includes(':')) errorStatuses.add(404);
  if (keyed && d.method === 'post') errorStatuses.add(409);
  for (const code of d.errors ?? []) errorStatuses.add(statusOf.get(code)!);
  for (const s of [...errorStatuses].sort()) if (!responses[String(s)]) responses[String(s)] = { $ref: `#/components/responses/Error${s}` } as unknown as ResponseObject;
  responses.default = { $ref: '#/components/responses/Error' } as unknown as ResponseObject;

  const op: OperationObject = {
    operationId: d.operationId,
    summary: d.summary,
    ...(d.description ? { description: d.description } : {}),
    tags: [d.tag],
    security: security(d.auth),
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
  const body = d.body ? yupToJsonSchema(d.body) : d.bodyJson;
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  if (d.errors?.length) op['x-error-codes'] = d.errors;
  return op;
}

/** Recorded examples, when docs/openapi-examples.json exists (issue 33's recorder writes it); none otherwise. */
export const EXAMPLES_FILE = path.resolve(__dirname, '..', '..', '..', 'docs', 'openapi-examples.json');
export function recordedExamples(file = EXAMPLES_FILE): RecordedExamples {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RecordedExamples) : {};
}

/** Attaches an example to the operation: request body, parameters, success answer (any media) and error answers. */
function attachExample(op: OperationObject, example: OperationExample, shared: Record<string, ResponseObject>): void {
  const request = (op.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined)?.content?.['application/json'];
  if (request && example.request !== undefined) request.example = example.request;
  for (const p of op.parameters ?? []) {
    const name = p.name as string | undefined;
    if (name && (p.in === 'path' || p.in === 'query') && example.parameters && Object.hasOwn(example.parameters, name)) p.example = example.parameters[name];
  }
  const r = example.response;
  const answer = r && (op.responses[String(r.status)]?.content?.[r.media ?? 'application/json'] as Record<string, unknown> | undefined);
  if (r && answer) {
    if (r.summary) answer.examples = { recorded: { summary: r.summary, ...(r.body !== null ? { value: r.body } : {}) } };
    else answer.example = r.body;
  }
  // A listed error ($ref to components.responses.ErrorNNN, which has an example of its own) becomes
  // that response with this operation's own recorded answer, unless that is the shared example.
  for (const [status, body] of Object.entries(example.errors ?? {})) {
    const listed = op.responses[status] as { $ref?: string } | undefined;
    const response = listed?.$ref ? shared[listed.$ref.split('/').pop()!] : undefined;
    const sharedExample = (response?.content?.['application/json'] as { example?: unknown } | undefined)?.example;
    if (response && JSON.stringify(sharedExample) !== JSON.stringify(body)) {
      op.responses[status] = { ...response, content: { 'application/json': { schema: ref('Error'), example: body } as { schema: JsonSchema } } };
    }
  }
}

/**
 * The documents built from the declarations (docs/openapi.md "What is in the document"):
 * - `api`: the public document (GET /v1/openapi.json, docs/openapi.json): the JSON API under `/v1/`;
 * - `pages`: everything else the service serves over HTTP (docs/openapi-pages.json): the checkout
 *   and customer-portal pages, their assets and the JSON calls they make, the reference and error
 *   pages, and the health and operational probes. Not for merchant servers nor generated clients;
 * - `all`: both, what the response checker of the tests and the route-set test read.
 */
export type DocumentScope = 'api' | 'pages' | 'all';

/** The document a route belongs to: the JSON API under `/v1/` is the public one. */
export function scopeOf(d: Pick<RouteDoc, 'path'>): Exclude<DocumentScope, 'all'> {
  return d.path.startsWith('/v1/') ? 'api' : 'pages';
}

const PAGES_DESCRIPTION = `What the billing service serves over HTTP besides its JSON API (that is the separate document at \`/v1/openapi.json\`): the hosted and embedded checkout pages and the customer portal, their scripts and styles and the JSON calls those pages make (same origin, a session cookie or a client secret), the API and error reference pages, and the health and operational probes (\`/healthz\`, \`/livez\`, \`/readyz\`, \`/metrics\`).

These are not for merchant servers: their shape may change with the pages. It is kept so the test suite checks every answer of these routes against a contract, as it does for the API. Errors answer in the same envelope as the API (schema \`Error\`).`;

/** `#/components/<section>/<name>` of every component the paths reach (transitively). */
function reachable(paths: unknown, components: Record<string, unknown>): Set<string> {
  const used = new Set<string>();
  const visit = (node: unknown, parentKey?: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n));
    if (typeof node !== 'object' || node === null) return;
    const r = (node as { $ref?: unknown }).$ref;
    if (typeof r === 'string' && r.startsWith('#/components/') && !used.has(r)) {
      used.add(r);
      const [section, name] = r.slice('#/components/'.length).split('/') as [string, string];
      visit((components[section] as Record<string, unknown> | undefined)?.[name]);
    }
    // An example's value is data, not schema: a `$ref` inside it (the recorded answer of
    // GET /v1/openapi.json is a document) refers to nothing of this one.
    // (Under `properties`, a key is a field's name, whatever it is.)
    for (const [key, value] of Object.entries(node)) if (parentKey === 'properties' || (key !== 'example' && key !== 'examples')) visit(value, key);
  };
  visit(paths);
  return used;
}

/** The components the paths use, and only those (an unused one is noise; redocly's no-unused-components). */
function pruneComponents(paths: OpenApiDocument['paths'], components: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const used = reachable(paths, components);
  const schemes = new Set(
    Object.values(paths)
      .flatMap((item) => Object.values(item))
      .flatMap((op) => ((op.security ?? []) as Array<Record<string, unknown>>).flatMap((s) => Object.keys(s))),
  );
  const out: Record<string, Record<string, unknown>> = {};
  for (const [section, entries] of Object.entries(components)) {
    const keep = Object.entries(entries).filter(([name]) => (section === 'securitySchemes' ? schemes.has(name) : used.has(`#/components/${section}/${name}`)));
    if (keep.length) out[section] = Object.fromEntries(keep);
  }
  return out;
}

function build(areas: readonly Area[], examples: RecordedExamples, scope: DocumentScope): OpenApiDocument {
  const statusOf = new Map(errorCatalog().map((e) => [e.code, e.status]));
  const shared = withErrorExamples(errorResponses(), examples);
  const paths: OpenApiDocument['paths'] = {};
  for (const d of declarationsOf(areas)) {
    if (scope !== 'all' && scopeOf(d) !== scope) continue;
    const p = openApiPath(d.path);
    paths[p] ??= {};
    if (paths[p]![d.method]) throw new Error(`two descriptors for ${d.method.toUpperCase()} ${d.path}`);
    const op = operation(d, statusOf);
    const example = d.examples ?? examples[`${d.method.toUpperCase()} ${p}`];
    if (example) attachExample(op, example, shared);
    paths[p]![d.method] = op;
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const usedTags = new Set(Object.values(sortedPaths).flatMap((item) => Object.values(item).flatMap((op) => op.tags as string[])));
  const info =
    scope === 'api'
      ? { title: 'Billing service API', version: '1', description: DESCRIPTION }
      : { title: 'Billing service pages, assets and probes (not the merchant API)', version: '1', description: PAGES_DESCRIPTION };
  return {
    openapi: '3.1.0',
    info: { ...info, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/', description: 'This service' }],
    tags: TAGS.filter((t) => usedTags.has(t.name)),
    paths: sortedPaths,
    components: pruneComponents(sortedPaths, {
      schemas: { Error: errorSchema(), ...OBJECT_SCHEMAS, ...API_SCHEMAS },
      responses: shared,
      parameters: {
        Limit: {
          name: 'limit',
          in: 'query',
          required: false,
          description: `Page size, 1–${PAGE_MAX} (default ${PAGE_DEFAULT}; a value below 1 falls back to the default, above ${PAGE_MAX} to ${PAGE_MAX}).`,
          // The range a client should send; the server is lenient outside it (api/validate.ts pageParams).
          schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT },
        },
        StartingAfter: {
          name: 'starting_after',
          in: 'query',
          required: false,
          description: 'The id of the last object of the previous page; the page starts after it.',
          schema: { type: 'string', maxLength: 255 },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes the POST safe to retry: a retry with the same key gets the first answer (with `Idempotent-Replayed: true`) and does not act twice.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
        },
      },
      headers: {
        'X-Request-Id': { required: true, description: 'The id of this request (the same as `error.request_id`).', schema: { type: 'string', minLength: 1 } },
        'X-RateLimit-Limit': { description: 'Requests allowed per window for this key.', schema: { type: 'string', pattern: '^[0-9]+$' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'string', pattern: '^[0-9]+$' } },
        'Retry-After': { required: true, description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^[0-9]+$' } },
        'Idempotent-Replayed': {
          description: 'Present (`true`) when the answer is the stored answer to an earlier request with the same Idempotency-Key.',
          schema: { const: 'true' },
        },
      },
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'A secret API key: `sk_test_…` or `sk_live_…`. Server-side only.' },
        publishableKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A publishable key: `pk_test_…` or `pk_live_…`. Safe in a browser; accepted only where an operation lists it.',
        },
        merchantId: { type: 'apiKey', in: 'header', name: 'X-Merchant-Id', description: 'The merchant the key belongs to; sent with every keyed call.' },
        dashboardSession: {
          type: 'apiKey',
          in: 'cookie',
          name: DASHBOARD_SESSION_COOKIE,
          description: 'A signed-in merchant dashboard session (writes also need `X-CSRF-Token`).',
        },
        portalSession: {
          type: 'apiKey',
          in: 'cookie',
          name: PORTAL_COOKIE,
          description: 'A customer-portal session opened from a portal link (actions also need `X-CSRF-Token`).',
        },
      },
    }) as OpenApiDocument['components'],
  };
}

/** Each shared error response with an example: the first recorded answer of that status (operations in key order). */
function withErrorExamples(responses: Record<string, ResponseObject>, examples: RecordedExamples): Record<string, ResponseObject> {
  for (const key of Object.keys(examples).sort()) {
    for (const [status, body] of Object.entries(examples[key]!.errors ?? {})) {
      const media = responses[`Error${status}`]?.content?.['application/json'] as Record<string, unknown> | undefined;
      if (media && media.example === undefined) media.example = body;
    }
  }
  return responses;
}

const built = new WeakMap<readonly Area[], Map<DocumentScope, OpenApiDocument>>();
/**
 * The public document of these areas' routes: the JSON API under `/v1/` (built once per list).
 * `scope` `pages` gives the document of everything else, `all` both (see DocumentScope).
 */
export function buildOpenApiDocument(areas: readonly Area[], examples?: RecordedExamples, scope: DocumentScope = 'api'): OpenApiDocument {
  if (examples) return build(areas, examples, scope);
  let docs = built.get(areas);
  if (!docs) built.set(areas, (docs = new Map()));
  let doc = docs.get(scope);
  if (!doc) docs.set(scope, (doc = build(areas, recordedExamples(), scope)));
  return doc;
}
