// The OpenAPI document of the application's areas (api/areas.ts): what GET /v1/openapi.json serves
// and `npm run openapi` commits as docs/openapi.json.
import { AREAS } from '../areas';
import { buildOpenApiDocument, type OpenApiDocument } from './document';

/** The document (built once per process). */
export function openApiDocument(): OpenApiDocument {
  return buildOpenApiDocument(AREAS);
}

/** The document as committed in docs/openapi.json: two-space JSON and a final newline. */
export function openApiJson(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
