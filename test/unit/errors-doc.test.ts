// The error codes are listed once, in src/errors.ts; docs/errors.md's tables and the service's
// error reference page (GET /docs/errors, api/docs/errors-page.ts) are generated from that list.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_DOC_PATH, ERROR_TYPES, errorBody, errorCatalog, errors } from '../../src/errors';
import { ERRORS_DOC_FILE, generatedErrorsDoc } from '../../api/docs/generate-errors-doc';
import { errorsPageHtml } from '../../api/docs/errors-page';

describe('error codes: one list, generated docs', () => {
  it('docs/errors.md holds the tables generated from src/errors.ts (run node dist/api/docs/generate-errors-doc.js)', () => {
    const doc = readFileSync(ERRORS_DOC_FILE, 'utf8');
    assert.equal(doc, generatedErrorsDoc(doc));
    const documented = new Map<string, number>();
    for (const m of doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)) documented.set(m[1]!, Number(m[2]));
    assert.deepEqual(
      [...documented.entries()].sort(),
      errorCatalog()
        .map((e) => [e.code, e.status] as [string, number])
        .sort(),
    );
  });

  it('lists each code once, with a status, a known type and a description', () => {
    const codes = errorCatalog().map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length, 'a code listed twice');
    for (const e of errorCatalog()) {
      assert.match(e.code, /^[a-z][a-z_]*$/);
      assert.ok(e.status >= 400 && e.status < 600, e.code);
      assert.ok(Object.hasOwn(ERROR_TYPES, e.type), e.code);
      assert.ok(e.description.length > 10, `${e.code} has no description`);
      // The factory makes errors of its own code.
      const made = (errors as Record<string, (m: string) => { code: string; status: number }>)[Object.keys(errors).find((k) => errors[k as keyof typeof errors].code === e.code)!]!(
        'x',
      );
      assert.deepEqual([made.code, made.status], [e.code, e.status]);
    }
  });

  it('doc_url is the code anchor on the error reference, and the page has an anchor for every code', () => {
    const body = errorBody(errors.validationFailed('bad', 'mode'), 'req_1');
    assert.equal(body.error.doc_url, `${ERROR_DOC_PATH}#validation_failed`);
    const html = errorsPageHtml();
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    for (const e of errorCatalog()) assert.ok(ids.has(e.code), `no anchor #${e.code}`);
    for (const type of Object.keys(ERROR_TYPES)) assert.ok(ids.has(`type-${type}`), `no anchor #type-${type}`);
  });
});
