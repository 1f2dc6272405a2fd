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

  it('attaches parameters, a text or binary answer under its media type, and errors: shared per status, inlined where an operation’s own differs', () => {
    const notFound = (id: string) => ({
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such thing: ${id}`,
        param: 'id',
        doc_url: '/docs/errors#resource_missing',
        request_id: 'req_1',
      },
    });
    const doc = buildOpenApiDocument(AREAS, {
      'GET /v1/customers/{id}': { parameters: { id: 'cus_1' }, response: { status: 200, body: { id: 'cus_1' } }, errors: { '404': notFound('a') } },
      'GET /v1/invoices/{id}': { parameters: { id: 'in_1' }, response: { status: 200, body: { id: 'in_1' } }, errors: { '404': notFound('b') } },
      'GET /v1/invoices/{id}/html': { response: { status: 200, media: 'text/html', body: '<!doctype html><p>Invoice</p>' } },
      'GET /v1/invoices/{id}/pdf': { response: { status: 200, media: 'application/pdf', body: null, summary: 'A recorded PDF document of 2000 bytes, starting `%PDF-1.3`' } },
      'GET /v1/exports/invoices.csv': {
        parameters: { from: '2026-01-01', to: '2026-01-31' },
        response: { status: 200, media: 'text/csv', body: 'id\r\nin_1\r\n', summary: 'Cut' },
      },
    }) as unknown as { paths: Record<string, Record<string, any>>; components: { responses: Record<string, any> } };
    const customer = doc.paths['/v1/customers/{id}']!.get;
    assert.equal(customer.parameters.find((p: any) => p.name === 'id').example, 'cus_1');
    // The first recorded 404 (by operation key) is the shared example; the other operation's own is inlined.
    assert.deepEqual(doc.components.responses.Error404.content['application/json'].example, notFound('a'));
    assert.equal(customer.responses['404'].$ref, '#/components/responses/Error404');
    const invoice = doc.paths['/v1/invoices/{id}']!.get;
    assert.deepEqual(invoice.responses['404'].content['application/json'].example, notFound('b'));
    assert.equal(invoice.responses['404'].description, doc.components.responses.Error404.description);
    assert.equal(doc.paths['/v1/invoices/{id}/html']!.get.responses['200'].content['text/html'].example, '<!doctype html><p>Invoice</p>');
    assert.deepEqual(doc.paths['/v1/invoices/{id}/pdf']!.get.responses['200'].content['application/pdf'].examples, {
      recorded: { summary: 'A recorded PDF document of 2000 bytes, starting `%PDF-1.3`' },
    });
    const csv = doc.paths['/v1/exports/invoices.csv']!.get;
    assert.deepEqual(csv.responses['200'].content['text/csv'].examples, { recorded: { summary: 'Cut', value: 'id\r\nin_1\r\n' } });
    assert.deepEqual(
      csv.parameters.map((p: any) => [p.name, p.example]),
      [
        ['from', '2026-01-01'],
        ['to', '2026-01-31'],
      ],
    );
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
