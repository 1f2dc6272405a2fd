// The OpenAPI builder attaches examples (docs/openapi.md "Examples"): a declaration's own
// `examples`, else the recorded ones of docs/openapi-examples.json keyed "<METHOD> <OpenAPI path>";
// without any, the document is exactly what it was.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { area, route } from '../../api/route';
import { AREAS } from '../../api/areas';
import { buildOpenApiDocument, EXAMPLES_FILE, recordedExamples } from '../../api/openapi/document';

const things = area('things', [
  route({
    method: 'post',
    path: '/v1/customers',
    operationId: 'createThing',
    tag: 'Customers',
    summary: 'Create a thing',
    auth: 'secret',
    bodyJson: { type: 'object' },
    status: 201,
    response: 'Customer',
    handler: () => async () => undefined,
  }),
  route({
    method: 'get',
    path: '/v1/customers/:id',
    operationId: 'retrieveThing',
    tag: 'Customers',
    summary: 'Retrieve a thing',
    auth: 'secret',
    response: 'Customer',
    examples: { response: { status: 200, body: { id: 'declared' } } },
    handler: () => async () => undefined,
  }),
]);

type Op = { requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> };

describe('OpenAPI examples', () => {
  it('attaches recorded request and response examples by "<METHOD> <OpenAPI path>", declared ones first', () => {
    const doc = buildOpenApiDocument([things], {
      'POST /v1/customers': { request: { email: 'a@example.is' }, response: { status: 201, body: { id: 'cus_1' } } },
      'GET /v1/customers/{id}': { response: { status: 200, body: { id: 'recorded' } } },
    });
    const create = doc.paths['/v1/customers']!.post as unknown as Op;
    assert.deepEqual(create.requestBody!.content['application/json']!.example, { email: 'a@example.is' });
    assert.deepEqual(create.responses['201']!.content!['application/json']!.example, { id: 'cus_1' });
    const retrieve = doc.paths['/v1/customers/{id}']!.get as unknown as Op;
    assert.deepEqual(retrieve.responses['200']!.content!['application/json']!.example, { id: 'declared' });
  });

  it('changes nothing without examples', () => {
    const plain = JSON.stringify(buildOpenApiDocument([things], {}));
    assert.equal(plain.match(/"example"/g)?.length, 1, 'only the declared example');
    // The served document is the declarations plus exactly the recorded file's examples (none without it).
    const served = JSON.stringify(buildOpenApiDocument(AREAS));
    assert.equal(served, JSON.stringify(buildOpenApiDocument(AREAS, existsSync(EXAMPLES_FILE) ? recordedExamples() : {})));
    if (existsSync(EXAMPLES_FILE)) assert.notEqual(served, JSON.stringify(buildOpenApiDocument(AREAS, {})), 'the recorded examples reach the document');
  });
});
