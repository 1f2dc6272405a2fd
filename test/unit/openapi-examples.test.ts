// docs/openapi-examples.json holds, per /v1 operation, a request and response recorded from a real
// call and an error answer per status it was refused with (test/api/openapi-examples-tour.test.ts
// run with RECORD_OPENAPI_EXAMPLES=1; docs/openapi.md "Examples"). Every /v1 operation must have
// one: its JSON request body and path parameters where it has them, its success answer (JSON, or
// the text, or a binary's size and first bytes). Each is validated against the document's schemas
// (ajv, draft 2020-12, as the contract tests do), a CSV's header against the columns docs/exports.md
// documents, an HTML page and a PDF or ZIP by how it starts, an error by the status its code has in
// the catalog. So no example can drift from the contract. And in the built document every error an
// operation lists has an example: its own or the shared response's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../api/openapi/app-document';
import { buildOpenApiDocument } from '../../api/openapi/document';
import { AREAS } from '../../api/areas';
import { errorCatalog } from '../../src/errors';
import { EXAMPLES_FILE, type ExamplesFile } from '../support/example-recorder';

/**
 * Operations with no success answer at all, so their example is the refusal: changing the
 * bank-invoice settings is always 409 invalid_state in this version (service-wide rules,
 * src/domain/merchant-settings/bank-invoice-settings.ts).
 */
const ALWAYS_REFUSED: Record<string, number> = { 'PUT /v1/bank_invoice_settings': 409 };

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  example?: unknown;
  $ref?: string;
}
interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { summary?: string; value?: unknown }>;
}
interface Response {
  $ref?: string;
  content?: Record<string, Media>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, Response>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

/** The columns docs/exports.md documents per CSV export (`**kind**: \`a, b, …\``). */
function documentedColumns(): Map<string, string[]> {
  const md = readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'exports.md'), 'utf8');
  const out = new Map<string, string[]>();
  for (const m of md.matchAll(/\*\*(\w+)\*\*: `([^`]+)`/g))
    out.set(
      m[1]!,
      m[2]!.split(/,\s*/).map((c) => c.trim()),
    );
  return out;
}

describe('docs/openapi-examples.json (recorded examples)', () => {
  const doc = openApiDocument() as unknown as Doc;
  const examples = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as ExamplesFile;
  const operations = new Map<string, Operation>();
  for (const [p, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) operations.set(`${method.toUpperCase()} ${p}`, op);
  const v1 = [...operations.keys()].filter((k) => k.split(' ')[1]!.startsWith('/v1/'));
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  let n = 0;
  const check = (schema: unknown, value: unknown, where: string) => {
    const validate = ajv.compile({ $id: `urn:example:${n++}`, components: doc.components, allOf: [schema] });
    if (!validate(value)) assert.fail(`${where}: ${ajv.errorsText(validate.errors)}`);
  };
  const deref = <T>(v: T & { $ref?: string }): T => {
    if (!v.$ref) return v;
    const [, , section, name] = v.$ref.split('/');
    return doc.components[section!]![name!] as T;
  };
  const statusOf = new Map(errorCatalog().map((e) => [e.code, e.status]));

  it('has examples only for operations of the document', () => {
    assert.deepEqual(
      Object.keys(examples).filter((k) => !operations.has(k)),
      [],
    );
  });

  it('has an example for every /v1 operation: a success answer (or the refusal of one that always refuses), its request body and path parameters', () => {
    const missing: string[] = [];
    for (const key of v1) {
      const e = examples[key];
      const op = operations.get(key)!;
      if (!e) {
        missing.push(`${key}: no example`);
        continue;
      }
      const refusedWith = ALWAYS_REFUSED[key];
      if (refusedWith === undefined && !e.response) missing.push(`${key}: no success answer`);
      if (refusedWith !== undefined && (e.response || !e.errors?.[String(refusedWith)])) missing.push(`${key}: not the ${refusedWith} refusal`);
      if (op.requestBody && e.request === undefined) missing.push(`${key}: no request body`);
      for (const p of (op.parameters ?? []).map(deref))
        if (p.in === 'path' && e.parameters?.[p.name] === undefined) missing.push(`${key}: no value for the path parameter ${p.name}`);
    }
    assert.deepEqual(missing, []);
  });

  it('validates every request, parameter and answer against the document’s schemas', () => {
    const columns = documentedColumns();
    for (const [key, example] of Object.entries(examples)) {
      const op = operations.get(key)!;
      const requestSchema = op.requestBody?.content?.['application/json']?.schema;
      if (example.request !== undefined) {
        assert.ok(requestSchema, `${key}: a request example for an operation without a JSON body`);
        check(requestSchema, example.request, `${key} request`);
      }
      const parameters = (op.parameters ?? []).map(deref);
      for (const [name, value] of Object.entries(example.parameters ?? {})) {
        const p = parameters.find((q) => q.name === name && (q.in === 'path' || q.in === 'query'));
        assert.ok(p, `${key}: the parameter ${name} is not documented`);
        check(p.schema ?? {}, value, `${key} parameter ${name}`);
      }
      const r = example.response;
      if (!r) continue;
      const response = op.responses[String(r.status)];
      assert.ok(response, `${key}: status ${r.status} is not documented`);
      assert.ok(r.status >= 200 && r.status < 300, `${key}: not a success`);
      if (r.status === 204) {
        assert.equal(r.body, null, key);
        assert.equal(response.content, undefined, `${key}: 204 documents a body`);
        continue;
      }
      const media = r.media ?? 'application/json';
      const documented = response.content?.[media];
      assert.ok(documented?.schema, `${key}: no ${media} answer documented for ${r.status}`);
      if (media === 'application/pdf' || media === 'application/zip') {
        assert.equal(r.body, null, `${key}: a binary answer has no value in a JSON file`);
        assert.ok(r.bytes && r.bytes > 100, `${key}: the recorded size`);
        assert.ok(r.starts_with?.startsWith(media === 'application/pdf' ? '%PDF-' : 'PK\\x03\\x04'), `${key}: starts ${r.starts_with}`);
        assert.ok(r.summary?.includes(String(r.bytes)), `${key}: the summary says the size`);
        continue;
      }
      check(documented.schema, r.body, `${key} response`);
      if (media === 'text/csv') {
        const kind = /\/v1\/exports\/(\w+)\.csv$/.exec(key)![1]!;
        assert.ok(columns.has(kind), `docs/exports.md documents no columns for ${kind}`);
        assert.deepEqual((r.body as string).split('\r\n')[0]!.split(','), columns.get(kind), `${key}: the header line`);
        assert.ok((r.body as string).split('\r\n').length > 2, `${key}: rows under the header`);
      }
      if (media === 'text/html') assert.match(r.body as string, /^<!doctype html>/i, key);
    }
  });

  it('validates every recorded error: a status the operation lists, the envelope, a code of that status', () => {
    const errorSchema = { $ref: '#/components/schemas/Error' };
    let count = 0;
    for (const [key, example] of Object.entries(examples)) {
      const op = operations.get(key)!;
      for (const [status, body] of Object.entries(example.errors ?? {})) {
        assert.ok(op.responses[status], `${key}: answered ${status}, which it does not list`);
        check(errorSchema, body, `${key} error ${status}`);
        const code = (body as { error: { code: string } }).error.code;
        assert.equal(statusOf.get(code), Number(status), `${key}: ${code} is not a ${status} code`);
        count++;
      }
    }
    assert.ok(count >= 100, `only ${count} recorded errors`);
  });

  it('the built document carries them: every /v1 operation has a request and answer example, and every error it lists has one', () => {
    const built = buildOpenApiDocument(AREAS, examples) as unknown as Doc;
    const hasExample = (m: Media | undefined) => m !== undefined && (m.example !== undefined || Object.keys(m.examples ?? {}).length > 0);
    const gaps: string[] = [];
    for (const key of v1) {
      const [method, p] = key.split(' ') as [string, string];
      const op = built.paths[p]![method.toLowerCase()]!;
      const request = op.requestBody?.content?.['application/json'];
      if (request && request.example === undefined) gaps.push(`${key}: request body`);
      for (const param of op.parameters ?? []) if (!param.$ref && param.in === 'path' && param.example === undefined) gaps.push(`${key}: path parameter ${param.name}`);
      // At least one success answer with an example (a second success, such as a replay's 200, may have none); every error.
      let answered = ALWAYS_REFUSED[key] !== undefined;
      for (const [status, listed] of Object.entries(op.responses)) {
        if (status === 'default') continue;
        const response = listed.$ref ? (built.components.responses![listed.$ref.split('/').pop()!] as Response) : listed;
        const media = Object.values(response.content ?? {});
        if (Number(status) >= 400) {
          if (!hasExample(response.content?.['application/json'])) gaps.push(`${key}: error ${status}`);
        } else if (media.length === 0 || media.some(hasExample)) answered = true;
      }
      if (!answered) gaps.push(`${key}: no success answer with an example`);
    }
    assert.deepEqual(gaps, []);
  });

  it('holds no usable key or secret (test-mode ids stay, keys, secrets and OAuth values are placeholders)', () => {
    const text = readFileSync(EXAMPLES_FILE, 'utf8');
    const leaks = [...text.matchAll(/\b(?:(?:sk|rk|pk)_(?:test|live)_|whsec_)[A-Za-z0-9_-]+/g)].map((m) => m[0]).filter((s) => !s.endsWith('_REDACTED'));
    assert.deepEqual(leaks, []);
    assert.doesNotMatch(text, /\/portal\/open\/(?!TOKEN_REDACTED)/);
    assert.deepEqual(
      [...text.matchAll(/[?&](?:state|code)=(?!REDACTED)[^&"]*/g)].map((m) => m[0]),
      [],
      'OAuth values in a URL',
    );
    assert.deepEqual(
      [...text.matchAll(/"(password|api_token|access_token|refresh_token|client_secret|secret)": "(?!\1_REDACTED"|whsec_REDACTED")[^"]*"/g)].map((m) => m[0]),
      [],
      'a credential field',
    );
    assert.doesNotMatch(text, /127\.0\.0\.1/, 'a loopback address of the test run');
  });

  it('the validation is not vacuous: a response off its schema, an unknown field in a request, a wrong CSV header and a misfiled error fail', () => {
    const [key, example] = Object.entries(examples).find(([k, e]) => k === 'POST /v1/customers' && e.response?.body)!;
    const op = operations.get(key)!;
    const schema = op.responses[String(example.response!.status)]!.content!['application/json']!.schema;
    assert.throws(() => check(schema, { ...(example.response!.body as object), email: 42 }, key));
    assert.throws(() => check(op.requestBody!.content!['application/json']!.schema, { email: 7 }, key));
    assert.throws(() => check({ $ref: '#/components/schemas/Error' }, { error: { code: 'resource_missing' } }, key));
    assert.notDeepEqual('id,status'.split(','), documentedColumns().get('invoices'));
    assert.notEqual(statusOf.get('resource_missing'), 400);
  });
});
