// docs/openapi-examples.json holds, per /v1 operation, a request and response recorded from a real
// call (test/api/openapi-examples-tour.test.ts run with RECORD_OPENAPI_EXAMPLES=1; docs/openapi.md
// "Examples"). Every example is validated against the document's schemas (ajv, draft 2020-12, as
// the contract tests do), so none can drift from the contract; an example for an operation the
// document does not have fails, and so does a /v1 operation without an example unless it is in
// the explicit allowance below.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../api/openapi/app-document';
import { EXAMPLES_FILE, type ExamplesFile } from '../support/example-recorder';

/** /v1 operations without a recorded example, and why. */
const NO_EXAMPLE_YET: Record<string, string> = {
  // Dashboard-session routes: an API key is refused (403 wrong_auth_method); the tour calls with a key.
  'GET /v1/allowed_origins': 'dashboard session',
  'PUT /v1/allowed_origins': 'dashboard session',
  'GET /v1/redirect_domains': 'dashboard session',
  'PUT /v1/redirect_domains': 'dashboard session',
  'GET /v1/bank_invoice_settings': 'dashboard session',
  'PUT /v1/bank_invoice_settings': 'dashboard session',
  'PATCH /v1/merchants/current': 'dashboard session',
  'POST /v1/merchants/current/go_live': 'dashboard session',
  // The accounting link needs the provider simulator's OAuth round trip (test/api/accounting).
  'GET /v1/accounting_link': 'accounting provider',
  'DELETE /v1/accounting_link': 'accounting provider',
  'GET /v1/accounting_link/callback/{provider}': 'accounting provider (a browser redirect)',
  'GET /v1/accounting_link/chart_of_accounts': 'accounting provider',
  'POST /v1/accounting_link/complete': 'accounting provider',
  'POST /v1/accounting_link/connect': 'accounting provider',
  'GET /v1/accounting_link/providers': 'accounting provider',
  'POST /v1/accounting_link/settings': 'accounting provider',
  'GET /v1/accounting_link/sync_records': 'accounting provider',
  'POST /v1/accounting_link/sync_records/{id}/resync': 'accounting provider',
  'GET /v1/accounting_link/vat_codes': 'accounting provider',
  // Not JSON: the file's format holds JSON bodies.
  'GET /v1/invoices/{id}/html': 'HTML',
  'GET /v1/invoices/{id}/pdf': 'PDF',
  'GET /v1/credit_notes/{id}/html': 'HTML',
  'GET /v1/credit_notes/{id}/pdf': 'PDF',
  'GET /v1/exports/credit_notes.csv': 'CSV',
  'GET /v1/exports/invoices.csv': 'CSV',
  'GET /v1/exports/ledger_entries.csv': 'CSV',
  'GET /v1/exports/payments.csv': 'CSV',
  'GET /v1/exports/refunds.csv': 'CSV',
  'GET /v1/exports/trial_balance.csv': 'CSV',
  'GET /v1/exports/invoice_documents.zip': 'ZIP',
  'OPTIONS /v1/payment_sessions': 'CORS preflight, no body',
  'GET /v1/openapi.json': 'the document itself',
};

interface Operation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe('docs/openapi-examples.json (recorded examples)', () => {
  const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, Operation>>; components: unknown };
  const examples = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as ExamplesFile;
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) operations.set(`${method.toUpperCase()} ${path}`, op);
  const v1 = [...operations.keys()].filter((k) => k.split(' ')[1]!.startsWith('/v1/'));
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  let n = 0;
  const check = (schema: unknown, value: unknown, where: string) => {
    const validate = ajv.compile({ $id: `urn:example:${n++}`, components: doc.components, allOf: [schema] });
    if (!validate(value)) assert.fail(`${where}: ${ajv.errorsText(validate.errors)}`);
  };

  it('has examples only for operations of the document', () => {
    assert.ok(Object.keys(examples).length >= 80, `only ${Object.keys(examples).length} examples`);
    assert.deepEqual(
      Object.keys(examples).filter((k) => !operations.has(k)),
      [],
    );
  });

  it('has an example for every /v1 operation but the listed ones, and none for a listed one', () => {
    assert.deepEqual(
      v1.filter((k) => !examples[k] && !Object.hasOwn(NO_EXAMPLE_YET, k)),
      [],
      'operations without an example',
    );
    assert.deepEqual(
      Object.keys(NO_EXAMPLE_YET).filter((k) => examples[k] || !operations.has(k)),
      [],
      'allowance entries that have an example or name no operation (remove them)',
    );
  });

  it('validates every request and response against the document’s schemas', () => {
    for (const [key, example] of Object.entries(examples)) {
      const op = operations.get(key)!;
      const requestSchema = op.requestBody?.content?.['application/json']?.schema;
      if (example.request !== undefined) {
        assert.ok(requestSchema, `${key}: a request example for an operation without a JSON body`);
        check(requestSchema, example.request, `${key} request`);
      }
      const response = op.responses[String(example.response.status)];
      assert.ok(response, `${key}: status ${example.response.status} is not documented`);
      assert.ok(example.response.status >= 200 && example.response.status < 300, `${key}: not a success`);
      if (example.response.status === 204) {
        assert.equal(example.response.body, null, key);
        continue;
      }
      const responseSchema = response.content?.['application/json']?.schema;
      assert.ok(responseSchema, `${key}: no JSON response documented for ${example.response.status}`);
      check(responseSchema, example.response.body, `${key} response`);
    }
  });

  it('holds no usable key or secret (test-mode ids stay, keys and secrets are placeholders)', () => {
    const text = readFileSync(EXAMPLES_FILE, 'utf8');
    const leaks = [...text.matchAll(/\b(?:(?:sk|rk|pk)_(?:test|live)_|whsec_)[A-Za-z0-9_-]+/g)].map((m) => m[0]).filter((s) => !s.endsWith('_REDACTED'));
    assert.deepEqual(leaks, []);
    assert.doesNotMatch(text, /\/portal\/open\/(?!TOKEN_REDACTED)/);
  });

  it('the validation is not vacuous: a response off its schema and an unknown field in a request fail', () => {
    const [key, example] = Object.entries(examples).find(([k, e]) => k === 'POST /v1/customers' && e.response.body)!;
    const op = operations.get(key)!;
    const schema = op.responses[String(example.response.status)]!.content!['application/json']!.schema;
    assert.throws(() => check(schema, { ...(example.response.body as object), email: 42 }, key));
    assert.throws(() => check(op.requestBody!.content!['application/json']!.schema, { email: 7 }, key));
  });
});
