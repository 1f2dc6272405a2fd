// Issue 33 item 2 ("a reference people learn from"): every /v1 operation of the public document
// carries a description in its route declaration (api/routes/<area>/router.ts and the like) of
// plain English, at least MIN_LENGTH characters and more than its summary, and the OpenAPI builder
// emits it as the operation's `description`. There is no allow-list: a new /v1 route without a
// description fails here, and so does a route that loses its description.
import assert from 'node:assert/strict';
import { AREAS } from '../../api/areas';
import { area, declarationsOf, route } from '../../api/route';
import { buildOpenApiDocument, scopeOf } from '../../api/openapi/document';
import { openApiPath } from '../../api/openapi/describe';

const MIN_LENGTH = 40;

type Doc = { paths: Record<string, Record<string, { summary?: string; description?: string }>> };

/** What is wrong with the descriptions of a document's /v1 operations, one line per operation. */
function descriptionProblems(doc: Doc): string[] {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries(item)) {
      const text = (op.description ?? '').trim();
      if (text.length < MIN_LENGTH) problems.push(`${method.toUpperCase()} ${path}: description is ${text.length} characters: ${JSON.stringify(text)}`);
      else if (text === (op.summary ?? '').trim()) problems.push(`${method.toUpperCase()} ${path}: the description only repeats the summary`);
    }
  }
  return problems;
}

const operationsOf = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

describe('operation descriptions (issue 33 item 2)', () => {
  const declarations = declarationsOf(AREAS);
  const doc = buildOpenApiDocument(AREAS) as unknown as Doc;

  it('every /v1 operation of the public document has a description of at least 40 characters that is more than its summary', () => {
    const v1 = operationsOf(doc).filter((op) => op.split(' ')[1]!.startsWith('/v1/'));
    assert.ok(v1.length >= 115, `only ${v1.length} /v1 operations in the document`);
    assert.equal(v1.length, operationsOf(doc).length, 'the public document holds only /v1 operations');
    assert.deepEqual(descriptionProblems(doc), []);
  });

  it('the document carries each declaration’s description unchanged', () => {
    for (const d of declarations.filter((x) => scopeOf(x) === 'api')) {
      const op = doc.paths[openApiPath(d.path)]?.[d.method];
      assert.ok(op, `the document has no ${d.method.toUpperCase()} ${d.path}`);
      assert.equal(op.description, d.description, `${d.method.toUpperCase()} ${d.path}: the document's description differs from the declaration`);
    }
  });

  it('fails on a planted /v1 operation without a description, with a short one, or with one that repeats its summary', () => {
    const planted = area('planted', [
      route({
        method: 'get',
        path: '/v1/planted',
        operationId: 'listPlanted',
        tag: 'Customers',
        summary: 'List planted things',
        auth: 'secret',
        handler: () => async () => undefined,
      }),
      route({
        method: 'get',
        path: '/v1/planted/:id',
        operationId: 'retrievePlanted',
        tag: 'Customers',
        summary: 'Retrieve a planted thing',
        description: 'Too short.',
        auth: 'secret',
        handler: () => async () => undefined,
      }),
      route({
        method: 'post',
        path: '/v1/planted',
        operationId: 'createPlanted',
        tag: 'Customers',
        summary: 'Create a planted thing with a summary long enough to pass',
        description: 'Create a planted thing with a summary long enough to pass',
        auth: 'secret',
        handler: () => async () => undefined,
      }),
      route({
        method: 'delete',
        path: '/v1/planted/:id',
        operationId: 'deletePlanted',
        tag: 'Customers',
        summary: 'Delete a planted thing',
        description: 'Deletes the planted thing at once; a second call answers 404 resource_missing.',
        auth: 'secret',
        handler: () => async () => undefined,
      }),
      // Outside /v1 (a page): not held to the rule, and not in the public document at all.
      route({
        method: 'get',
        path: '/planted-page',
        operationId: 'retrievePlantedPage',
        tag: 'Customers',
        summary: 'A page',
        auth: 'none',
        kind: 'html',
        handler: () => async () => undefined,
      }),
    ]);
    const plantedDoc = buildOpenApiDocument([planted], {}) as unknown as Doc;
    assert.equal(plantedDoc.paths['/planted-page'], undefined, 'a page is not in the public document');
    const problems = descriptionProblems(plantedDoc);
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems.join('\n'), /GET \/v1\/planted: description is 0 characters/);
    assert.match(problems.join('\n'), /GET \/v1\/planted\/\{id\}: description is 10 characters/);
    assert.match(problems.join('\n'), /POST \/v1\/planted: the description only repeats the summary/);
  });

  it('an operation declared without a description has none in the document (nothing is invented)', () => {
    const all = buildOpenApiDocument(AREAS, undefined, 'all') as unknown as Doc;
    const without = declarations.filter((d) => d.description === undefined && !d.outsideRouter);
    for (const d of without) {
      const op = all.paths[openApiPath(d.path)]?.[d.method];
      if (op) assert.equal(op.description, undefined, `${d.method} ${d.path}`);
    }
  });
});
