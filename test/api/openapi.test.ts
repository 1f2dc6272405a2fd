// The OpenAPI documents as the contract (docs/openapi.md): the public one (the /v1/ API) and the
// pages document (pages, assets, probes) together name every route of the router and nothing else, the served document is the committed docs/openapi.json, the committed client
// types are what openapi-typescript makes of it, the reference page renders it, and the response
// checker that every API test goes through (test/support/openapi-contract.ts) really refuses a
// response that does not match.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { testEnv, type TestEnv } from '../support/env';
import { call, newMerchant } from '../support/api';
import { assertMatchesContract } from '../support/openapi-contract';
import { createApp } from '../../api/app';
import { createWorkflowClients } from '../../src/temporal/workflow-clients';
import { AREAS } from '../../api/areas';
import { declarationsOf } from '../../api/route';
import { PAGE_DEFAULT, PAGE_MAX } from '../../api/validate';
import { openApiPath } from '../../api/openapi/describe';
import { contractDocument, documentJson, openApiDocument, pagesDocument } from '../../api/openapi/app-document';
import { CLIENT_TYPES_FILE, DOCUMENT_FILE, PAGES_DOCUMENT_FILE, clientTypes } from '../../api/openapi/generate';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '../support/chromium';

describe('OpenAPI document', () => {
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('documents every route of the router, and nothing else', async () => {
    const app = createApp({ db: env.db, config: env.config, temporal: env.temporal, workflows: createWorkflowClients(env.temporal), gateways: env.gateways, log: () => undefined });
    try {
      const registered = new Set<string>();
      for (const layer of app.router.stack) {
        if (typeof layer.path !== 'string') continue;
        for (const method of layer.methods) if (method !== 'HEAD') registered.add(`${method} ${openApiPath(layer.path)}`);
      }
      const operationsOf = (doc: { paths: Record<string, object> }) =>
        Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
      const documented = new Set(operationsOf(contractDocument()));
      // The public document is the /v1/ API; everything else is in the pages document; no operation in both.
      const api = operationsOf(openApiDocument());
      const pages = operationsOf(pagesDocument());
      assert.deepEqual([...api, ...pages].sort(), [...documented].sort(), 'the two documents together are every operation');
      assert.deepEqual(
        api.filter((op) => !op.split(' ')[1]!.startsWith('/v1/')),
        [],
        'only /v1/ operations in the public document',
      );
      assert.deepEqual(
        pages.filter((op) => op.split(' ')[1]!.startsWith('/v1/')),
        [],
        'no /v1/ operation in the pages document',
      );
      for (const page of ['GET /checkout/{id}', 'GET /portal', 'GET /docs/api', 'GET /healthz', 'GET /livez']) assert.ok(pages.includes(page), `${page} is in the pages document`);
      assert.ok(api.length > 100 && pages.length > 20, `${api.length} API operations, ${pages.length} page operations`);
      assert.ok(registered.size > 100, `only ${registered.size} routes in the router`);
      assert.deepEqual([...registered].filter((r) => !documented.has(r)).sort(), [], 'routes registered without a declaration (api/route.ts)');
      const outside = new Set(
        declarationsOf(AREAS)
          .filter((d) => d.outsideRouter)
          .map((d) => `${d.method.toUpperCase()} ${openApiPath(d.path)}`),
      );
      assert.deepEqual([...documented].filter((r) => !registered.has(r) && !outside.has(r)).sort(), [], 'documented operations that no route serves');
      assert.deepEqual(
        [...outside].filter((r) => registered.has(r)),
        [],
        'outsideRouter is only for what the router does not serve',
      );
      assert.equal(declarationsOf(AREAS).length, documented.size);
    } finally {
      await app.shutdown();
    }
  });

  it('is served without a key at GET /v1/openapi.json, equal to the committed docs/openapi.json', async () => {
    const res = await call(env, 'GET', '/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    const committed = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8'));
    assert.deepEqual(res.body, committed, 'docs/openapi.json is out of date: run `npm run openapi`');
    assert.equal(readFileSync(PAGES_DOCUMENT_FILE, 'utf8'), documentJson(pagesDocument()), 'docs/openapi-pages.json is out of date: run `npm run openapi`');
  });

  it('keeps the committed client types equal to what openapi-typescript makes of the document', async () => {
    assert.equal(readFileSync(CLIENT_TYPES_FILE, 'utf8'), await clientTypes(), 'clients/typescript/schema.d.ts is out of date: run `npm run openapi`');
  });

  it('has valid JSON Schemas (draft 2020-12) for every component, body and parameter (both documents)', () => {
    const doc = contractDocument();
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      assert.ok(ajv.validateSchema(schema), `components.schemas.${name}: ${ajv.errorsText(ajv.errors)}`);
    }
    let bodies = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const body = (op.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content?.['application/json']?.schema;
        if (body) {
          bodies++;
          assert.ok(ajv.validateSchema(body as object), `${method} ${path} body: ${ajv.errorsText(ajv.errors)}`);
        }
        assert.ok(Array.isArray(op.security), `${method} ${path}: security is stated`);
        assert.ok(op.responses.default, `${method} ${path}: the error envelope is the default response`);
      }
    }
    assert.ok(bodies >= 40, `only ${bodies} request bodies`);
  });

  it('describes the request bodies from the routes’ yup schemas (required fields and types)', () => {
    const create = openApiDocument().paths['/v1/customers']!.post!.requestBody as {
      content: Record<string, { schema: { required?: string[]; properties: Record<string, { type: unknown }> } }>;
    };
    const schema = create.content['application/json']!.schema;
    assert.deepEqual(schema.required, ['email']);
    assert.equal(schema.properties.email!.type, 'string');
    const post = openApiDocument().paths['/v1/customers']!.post!;
    assert.deepEqual(
      ['413', '415'].map((s) => (post.responses[s] as { $ref?: string } | undefined)?.$ref),
      ['#/components/responses/Error413', '#/components/responses/Error415'],
      'a JSON-body operation lists 413 and 415',
    );
    for (const [path, item] of Object.entries(openApiDocument().paths)) {
      for (const [method, op] of Object.entries(item)) if (op.requestBody) assert.ok(op.responses['413'] && op.responses['415'], `${method} ${path}: 413 and 415`);
    }
    let typedMetadata = 0;
    for (const [path, item] of Object.entries(openApiDocument().paths)) {
      for (const [method, op] of Object.entries(item)) {
        const schema = (
          op.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, { type?: unknown; additionalProperties?: { type?: unknown } }> } }> } | undefined
        )?.content?.['application/json']?.schema;
        const m = schema?.properties?.metadata;
        if (!m || path === '/v1/events') continue;
        typedMetadata++;
        assert.deepEqual(
          [m.type, m.additionalProperties?.type],
          [
            ['object', 'null'],
            ['string', 'null'],
          ],
          `${method} ${path}: request metadata is an object of strings`,
        );
      }
    }
    assert.ok(typedMetadata >= 14, `only ${typedMetadata} bodies with metadata`);
    const limit = (openApiDocument().components.parameters as Record<string, { schema: unknown }>).Limit!.schema;
    assert.deepEqual(limit, { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT }, 'limit is bounded as pageParams clamps it');
    const list = openApiDocument().paths['/v1/customers']!.get!;
    assert.deepEqual(
      (list.parameters ?? []).map((p) => (p as { $ref?: string }).$ref),
      ['#/components/parameters/Limit', '#/components/parameters/StartingAfter'],
    );
  });

  it('refuses responses that do not match the document', () => {
    const headers = new Headers({ 'content-type': 'application/json', 'x-request-id': 'req_1' });
    const customer = {
      id: 'cus_1',
      email: 'a@example.is',
      name: null,
      phone: null,
      kennitala: null,
      external_id: null,
      vat_number: null,
      currency: null,
      metadata: {},
      billing_address: null,
      created_at: '2026-01-01T00:00:00.000Z',
      test_clock: null,
    };
    const ok = { status: 200, headers, body: customer, text: JSON.stringify(customer) };
    assertMatchesContract('GET', '/v1/customers/cus_1', ok);
    const extra = { ...customer, secret: 'x' };
    assert.throws(() => assertMatchesContract('GET', '/v1/customers/cus_1', { ...ok, body: extra, text: JSON.stringify(extra) }), /body does not match/);
    const wrongType = { ...customer, created_at: 12 };
    assert.throws(() => assertMatchesContract('GET', '/v1/customers/cus_1', { ...ok, body: wrongType, text: '{}' }), /body does not match/);
    assert.throws(
      () => assertMatchesContract('GET', '/v1/customers/cus_1', { ...ok, status: 201 }),
      /body does not match/,
      'an undocumented success status falls to the error envelope',
    );
    assert.throws(() => assertMatchesContract('GET', '/v1/customers/cus_1', { ...ok, headers: new Headers({ 'content-type': 'application/json' }) }), /X-Request-Id/);
    assert.throws(() => assertMatchesContract('GET', '/v1/no_such_thing', ok), /no documented operation/);
  });

  it('renders the API reference page at /docs/api from the packaged Swagger UI', async function () {
    this.timeout(120_000);
    const res = await call(env, 'GET', '/docs/api');
    assert.equal(res.status, 200);
    assert.match(res.text, /\/docs\/api\/assets\/swagger-ui-bundle\.js/);
    assert.doesNotMatch(res.text, /https?:\/\//, 'no script or style from another host');
    ensureChromium();
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('requestfailed', (r) => errors.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
      page.on('response', (r) => void (r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`)));
      // A deep link to one operation (Swagger UI renders the sections near the view as it scrolls).
      await page.goto(`${env.baseUrl}/docs/api#/Customers/retrieveCustomer`);
      await page.waitForSelector('#operations-Customers-retrieveCustomer .opblock-summary-path', { timeout: 60_000 });
      assert.equal((await page.textContent('#operations-Customers-retrieveCustomer .opblock-summary-path'))?.replace(/\u200b/g, '').trim(), '/v1/customers/{id}');
      const operations = Object.values(openApiDocument().paths).reduce((n, item) => n + Object.keys(item).length, 0);
      const parsed = await page.evaluate(() => (globalThis as unknown as { ui: { specSelectors: { operations(): { size: number } } } }).ui.specSelectors.operations().size);
      assert.equal(parsed, operations, 'the page read every operation of the served document');
      assert.match((await page.textContent('body')) ?? '', /Billing service API/);
      assert.deepEqual(errors, [], 'no script error or failed request on the page');
    } finally {
      await browser.close();
    }
  });

  it('checks a real list response of a merchant through the shared helper', async () => {
    const m = await newMerchant(env);
    const created = await m.call('POST', '/v1/customers', { body: { email: 'contract@example.is' } });
    assert.equal(created.status, 201);
    const list = await m.call('GET', '/v1/customers?limit=1');
    assert.equal(list.status, 200);
    assert.equal(list.body.data[0].id, created.body.id);
  });
});
