// The response half of the API contract (docs/openapi.md): every response an API test receives
// through test/support/api.ts is checked here against the OpenAPI documents of the service (the
// public one of the /v1/ API and the one of the pages, assets and probes) —
// the status must be one the operation documents (or its `default`, the error envelope), the
// content type one it lists, the JSON body valid against its schema (ajv, draft 2020-12 with
// formats), and the documented headers present and well-formed. A request that matches no
// documented operation may only have been answered 404/405 in the error envelope. A mismatch
// throws, so the very test that received the response fails.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { type OpenApiDocument, type OperationObject, type ResponseObject } from '../../api/openapi/document';
import { contractDocument } from '../../api/openapi/app-document';

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  op: OperationObject;
}

export interface ContractResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

let compiled: { doc: OpenApiDocument; ajv: Ajv2020; routes: Route[]; validators: Map<string, ValidateFunction> } | undefined;

function contract() {
  if (compiled) return compiled;
  // Both documents: the public API (/v1/) and the pages, assets and probes (docs/openapi.md).
  const doc = contractDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
  addFormats(ajv);
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, '[^/]+');
    for (const [method, op] of Object.entries(item)) {
      routes.push({ method: method.toUpperCase(), template, pattern: new RegExp(`^${source}$`), params: (template.match(/\{/g) ?? []).length, op });
    }
  }
  compiled = { doc, ajv, routes, validators: new Map() };
  return compiled;
}

/** The operation a request reaches (a static segment wins over a parameter, as in the router). */
export function findOperation(method: string, path: string): Route | undefined {
  const candidates = contract().routes.filter((r) => r.method === method.toUpperCase() && r.pattern.test(path));
  return candidates.sort((a, b) => a.params - b.params)[0];
}

function deref<T>(value: unknown): T {
  const v = value as { $ref?: string };
  if (typeof v?.$ref !== 'string') return value as T;
  let node: unknown = contract().doc;
  for (const part of v.$ref.replace(/^#\//, '').split('/')) node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as T;
}

function validator(key: string, schema: unknown): ValidateFunction {
  const c = contract();
  let v = c.validators.get(key);
  if (!v) {
    // The schema's $refs (#/components/schemas/…) resolve against the document's components.
    v = c.ajv.compile({ $id: `urn:contract:${c.validators.size}`, components: c.doc.components, allOf: [schema] });
    c.validators.set(key, v);
  }
  return v;
}

function fail(what: string, method: string, path: string, res: ContractResponse, detail: string): never {
  throw new Error(`OpenAPI contract: ${method} ${path} → ${res.status}: ${what}: ${detail}\n  body: ${res.text.slice(0, 500)}`);
}

function checkBody(key: string, schema: unknown, method: string, path: string, res: ContractResponse): void {
  const validate = validator(key, schema);
  if (!validate(res.body)) {
    const e = validate.errors?.[0];
    fail('body does not match the documented schema', method, path, res, `${e?.instancePath || '(root)'} ${e?.message ?? ''} ${e?.params ? JSON.stringify(e.params) : ''}`);
  }
}

/** Throws when the response does not match the document. */
export function assertMatchesContract(method: string, url: string, res: ContractResponse): void {
  const path = new URL(url, 'http://x').pathname;
  const route = findOperation(method, path);
  if (!route) {
    // Not an operation of the API. The server-rendered pages (dashboard, portal, checkout, the
    // reference) are outside the document; what they answer an API client is still an error
    // in the envelope (e.g. 403 wrong_auth_method for an API key on a dashboard page).
    const page = !path.startsWith('/v1/') && (res.headers.get('content-type') ?? '').startsWith('text/html');
    if (page) return;
    const pageRefusal = !path.startsWith('/v1/') && res.status === 403;
    // Otherwise only the router's own 404/405 (or the auth-failure gate's 429) in the envelope.
    if (!pageRefusal && ![404, 405, 429].includes(res.status)) fail('no documented operation', method, path, res, 'answered with a status other than 404/405');
    checkBody('error', { $ref: '#/components/schemas/Error' }, method, path, res);
    return;
  }
  const documented = route.op.responses[String(res.status)] ?? route.op.responses.default;
  if (!documented) fail('status not documented', method, path, res, `documented: ${Object.keys(route.op.responses).join(', ')}`);
  const response = deref<ResponseObject>(documented);
  const statusKey = route.op.responses[String(res.status)] ? String(res.status) : 'default';

  for (const [name, h] of Object.entries(response.headers ?? {})) {
    const header = deref<{ required?: boolean; schema?: unknown }>(h);
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) fail('documented header missing', method, path, res, name);
      continue;
    }
    const v = validator(`header:${name}`, header.schema ?? {});
    if (!v(value)) fail('header does not match its schema', method, path, res, `${name}: ${value}`);
  }

  const content = response.content;
  if (!content) {
    if (res.text !== '') fail('a body where none is documented', method, path, res, `${res.text.length} characters`);
    return;
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const media = content[type];
  if (!media) fail('content type not documented', method, path, res, `${type || '(none)'}; documented: ${Object.keys(content).join(', ')}`);
  if (type === 'application/json') checkBody(`${route.method} ${route.template} ${statusKey}`, media.schema, method, path, res);
}
