// The OpenAPI documents of the application's areas (api/areas.ts): the public one, what
// GET /v1/openapi.json serves and `npm run openapi` commits as docs/openapi.json (the JSON API under
// /v1/), and the pages document, committed as docs/openapi-pages.json (pages, assets and probes;
// not served). docs/openapi.md "What is in the document".
import { AREAS } from '../areas';
import { buildOpenApiDocument, type OpenApiDocument } from './document';

/** The public document (built once per process). */
export function openApiDocument(): OpenApiDocument {
  return buildOpenApiDocument(AREAS);
}

/** The document of the pages, assets and probes (everything outside /v1/). */
export function pagesDocument(): OpenApiDocument {
  return buildOpenApiDocument(AREAS, undefined, 'pages');
}

/** Every operation of both documents: what the tests' response checker and route-set test read. */
export function contractDocument(): OpenApiDocument {
  return buildOpenApiDocument(AREAS, undefined, 'all');
}

/** A document as committed: two-space JSON and a final newline. */
export function documentJson(doc: OpenApiDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The public document as committed in docs/openapi.json. */
export function openApiJson(): string {
  return documentJson(openApiDocument());
}
