// The error reference served by the service (GET /docs/errors, docs/errors.md): every code the API
// can answer (the Error schema's code enum of the document, which is src/errors.ts's list) has an
// anchor on the page, a real error's doc_url resolves against the called URL to that anchor, and
// the page is axe-clean in Chromium at laptop and phone widths.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { testEnv, type TestEnv } from '../support/env';
import { call, newMerchant } from '../support/api';
import { openApiDocument } from '../../api/openapi/app-document';
import { errorCatalog } from '../../src/errors';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '../support/chromium';
import { describeViolations, seriousViolations } from '../support/axe';

describe('error reference page (GET /docs/errors)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  const documentedCodes = (): string[] => {
    const schema = openApiDocument().components.schemas.Error as { properties: { error: { properties: { code: { enum: string[] } } } } };
    return schema.properties.error.properties.code.enum;
  };

  it('has an anchor for every code the document says the API can answer, and for every code of src/errors.ts', async () => {
    const res = await call(env, 'GET', '/docs/errors');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const ids = new Set([...res.text.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const codes = documentedCodes();
    assert.ok(codes.length >= 30, `only ${codes.length} codes in the document`);
    assert.deepEqual(
      codes.filter((c) => !ids.has(c)),
      [],
      'codes without an anchor',
    );
    assert.deepEqual(
      errorCatalog()
        .map((e) => e.code)
        .filter((c) => !ids.has(c)),
      [],
    );
    assert.doesNotMatch(res.text, /https?:\/\//, 'nothing from another host');
  });

  it("a real error's doc_url resolves against the called URL to the code's row", async () => {
    const m = await newMerchant(env);
    const url = `${env.baseUrl}/v1/customers`;
    const bad = await m.call('POST', '/v1/customers', { body: { email: 42 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.doc_url, `/docs/errors#${bad.body.error.code}`);
    const resolved = new URL(bad.body.error.doc_url, url);
    assert.equal(resolved.origin, new URL(env.baseUrl).origin);
    const page = await fetch(resolved);
    assert.equal(page.status, 200);
    assert.ok((await page.text()).includes(`id="${resolved.hash.slice(1)}"`));
    const unauth = await call(env, 'GET', '/v1/customers');
    assert.equal(unauth.body.error.doc_url, '/docs/errors#unauthorized');
  });

  it('is axe-clean in Chromium at laptop and phone widths, and an anchor scrolls to its row', async () => {
    ensureChromium();
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    try {
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 375, height: 740 },
      ]) {
        const page = await browser.newPage({ viewport });
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('console', (msg) => void (msg.type() === 'error' && problems.push(msg.text())));
        page.on('response', (r) => void (r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`)));
        await page.goto(`${env.baseUrl}/docs/errors#resource_missing`);
        const violations = await seriousViolations(page);
        assert.deepEqual(violations, [], describeViolations(`/docs/errors at ${viewport.width}px`, violations));
        assert.equal(await page.evaluate(() => document.querySelector(':target')?.id), 'resource_missing');
        const rowCount = await page.locator('tbody tr[id]').count();
        assert.ok(rowCount >= errorCatalog().length);
        assert.deepEqual(problems, [], 'no script error, CSP report or failed request');
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});
