// Issue 33 item 2 ("a reference people learn from"): the /v1 operations of the areas listed
// below each carry a description in their route declaration (api/routes/<area>/router.ts) of
// plain English, at least MIN_LENGTH characters, and the OpenAPI builder emits it as the
// operation's `description`. The covered operations are listed explicitly (method and path),
// so a declaration that loses its description, or a covered route that disappears, fails here.
import assert from 'node:assert/strict';
import { AREAS } from '../../api/areas';
import { declarationsOf } from '../../api/route';
import { buildOpenApiDocument } from '../../api/openapi/document';

const MIN_LENGTH = 40;

/** `METHOD path` as the router registers it, per area, in the order. */
const COVERED: Record<string, string[]> = {
  customers: ['post /v1/customers', 'get /v1/customers', 'get /v1/customers/:id', 'patch /v1/customers/:id'],
  products: ['post /v1/products', 'get /v1/products', 'get /v1/products/:id', 'patch /v1/products/:id'],
  prices: ['post /v1/prices', 'get /v1/prices', 'get /v1/prices/:id', 'patch /v1/prices/:id'],
  subscriptions: [
    'post /v1/subscriptions',
    'get /v1/subscriptions',
    'get /v1/subscriptions/:id',
    'post /v1/subscriptions/:id',
    'post /v1/subscriptions/:id/cancel',
    'post /v1/subscriptions/:id/uncancel',
    'post /v1/subscriptions/:id/pause',
    'post /v1/subscriptions/:id/resume',
  ],
  'subscription items': ['post /v1/subscription_items', 'get /v1/subscription_items/:id', 'post /v1/subscription_items/:id', 'delete /v1/subscription_items/:id'],
  invoices: ['get /v1/invoices', 'get /v1/invoices/:id', 'post /v1/invoices/:id/pay', 'post /v1/invoices/:id/void'],
  'invoice items': ['post /v1/invoice_items', 'get /v1/invoice_items', 'get /v1/invoice_items/:id'],
  'payment methods': ['get /v1/payment_methods', 'get /v1/payment_methods/:id', 'delete /v1/payment_methods/:id', 'post /v1/payment_methods/:id/set_default'],
  payments: ['post /v1/payments', 'get /v1/payments', 'get /v1/payments/:id', 'post /v1/payments/:id/confirm', 'post /v1/payments/:id/cancel'],
  refunds: ['post /v1/refunds', 'get /v1/refunds', 'get /v1/refunds/:id'],
  'credit notes': ['get /v1/credit_notes', 'get /v1/credit_notes/:id'],
  'usage events': ['post /v1/events', 'post /v1/events/batch', 'get /v1/events'],
  meters: ['post /v1/meters', 'get /v1/meters', 'get /v1/meters/:id', 'delete /v1/meters/:id', 'get /v1/meters/:id/quantities'],
  'webhook endpoints': [
    'post /v1/webhook_endpoints',
    'get /v1/webhook_endpoints',
    'get /v1/webhook_endpoints/:id',
    'patch /v1/webhook_endpoints/:id',
    'delete /v1/webhook_endpoints/:id',
  ],
  'test clocks': [
    'post /v1/test_helpers/test_clocks',
    'get /v1/test_helpers/test_clocks',
    'get /v1/test_helpers/test_clocks/:id',
    'post /v1/test_helpers/test_clocks/:id/advance',
    'post /v1/test_helpers/test_clocks/:id/customers',
    'delete /v1/test_helpers/test_clocks/:id',
  ],
};

const COVERED_KEYS = Object.values(COVERED).flat();

/** `/v1/customers/:id` → `/v1/customers/{id}` (the document's form). */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('operation descriptions (issue 33 item 2)', () => {
  const declarations = declarationsOf(AREAS);
  const byKey = new Map(declarations.map((d) => [`${d.method} ${d.path}`, d]));

  it('lists no operation twice', () => {
    assert.equal(new Set(COVERED_KEYS).size, COVERED_KEYS.length);
  });

  for (const [area, keys] of Object.entries(COVERED)) {
    describe(area, () => {
      for (const key of keys) {
        it(`${key} is declared with a description of at least ${MIN_LENGTH} characters`, () => {
          const d = byKey.get(key);
          assert.ok(d, `no route declares ${key}`);
          const text = (d.description ?? '').trim();
          assert.ok(text.length >= MIN_LENGTH, `${key}: description is ${text.length} characters: ${JSON.stringify(text)}`);
          assert.notEqual(text, d.summary.trim(), `${key}: the description only repeats the summary`);
        });
      }
    });
  }

  it('the document carries each covered description as the operation description', () => {
    const doc = buildOpenApiDocument(AREAS) as unknown as { paths: Record<string, Record<string, { description?: string }>> };
    for (const key of COVERED_KEYS) {
      const [method, path] = key.split(' ') as [string, string];
      const op = doc.paths[openApiPath(path)]?.[method];
      assert.ok(op, `the document has no ${key}`);
      assert.equal(op.description, byKey.get(key)!.description, `${key}: the document's description differs from the declaration`);
    }
  });

  it('an operation declared without a description has none in the document (nothing is invented)', () => {
    const doc = buildOpenApiDocument(AREAS) as unknown as { paths: Record<string, Record<string, { description?: string }>> };
    const without = declarations.filter((d) => d.description === undefined && !d.outsideRouter);
    for (const d of without) {
      const op = doc.paths[openApiPath(d.path)]?.[d.method];
      if (op) assert.equal(op.description, undefined, `${d.method} ${d.path}`);
    }
  });
});
