// The API's own description, without a key: GET /v1/openapi.json (the OpenAPI 3.1 document) and
// GET /docs/api, the API reference page, rendered by Swagger UI from the swagger-ui-dist package
// (served from node_modules by this service: no CDN). docs/openapi.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import cors from '@koa/cors';
import { route, area } from '../route';
import { errors } from '../../src/errors';
import { buildOpenApiDocument } from './document';
import type { Middleware } from '../context';
import { ERRORS_PAGE_PATH, errorsPageHtml } from '../docs/errors-page';

export const OPENAPI_PATH = '/v1/openapi.json';
export const REFERENCE_PATH = '/docs/api';

const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The page's script: renders the document served by this service. */
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#swagger-ui', deepLinking: true, defaultModelsExpandDepth: 0, docExpansion: 'list' });
});
`;

const ASSETS: Record<string, { type: string; load: () => string | Buffer }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', load: () => readFileSync(path.join(SWAGGER_DIR, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'application/javascript; charset=utf-8', load: () => readFileSync(path.join(SWAGGER_DIR, 'swagger-ui-bundle.js')) },
  'init.js': { type: 'application/javascript; charset=utf-8', load: () => INIT_JS },
};
const loaded = new Map<string, string | Buffer>();

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Billing service API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${REFERENCE_PATH}/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${REFERENCE_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PATH}/assets/init.js"></script>
</body>
</html>
`;

/** `Access-Control-Allow-Origin: *` (by @koa/cors) on the document, so browser tools can load it. */
const anyOrigin = cors({ origin: '*' }) as Middleware;

export const openApiRoutes = area('openapi', [
  route({
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'retrieveOpenApiDocument',
    tag: 'API reference',
    summary: 'This OpenAPI document',
    description:
      'Returns this OpenAPI 3.1 document: every /v1 operation with its parameters, request and response schemas, error codes and recorded examples, built from the route declarations the service runs. No key needed; served with `Access-Control-Allow-Origin: *` so browser tools can load it. The pages, assets and health probes are not in it (docs/openapi.md).',
    auth: 'none',
    response: { type: 'object' },
    use: () => [anyOrigin],
    handler:
      ({ areas }) =>
      async (ctx) => {
        ctx.body = buildOpenApiDocument(areas);
      },
  }),
  route({
    method: 'get',
    path: REFERENCE_PATH,
    operationId: 'retrieveApiReferencePage',
    tag: 'API reference',
    summary: 'The API reference page',
    auth: 'none',
    kind: 'html',
    handler: () => async (ctx) => {
      ctx.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
    },
  }),
  // The error reference every error's doc_url points to (docs/errors.md).
  route({
    method: 'get',
    path: ERRORS_PAGE_PATH,
    operationId: 'retrieveErrorReferencePage',
    tag: 'API reference',
    summary: 'The error reference page: every error code, one anchor each (doc_url)',
    auth: 'none',
    kind: 'html',
    handler: () => async (ctx) => {
      ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'");
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = errorsPageHtml();
    },
  }),
  route({
    method: 'get',
    path: `${REFERENCE_PATH}/assets/:file`,
    operationId: 'retrieveApiReferenceAsset',
    tag: 'API reference',
    summary: "The reference page's scripts and styles",
    auth: 'none',
    kind: 'javascript',
    also: [{ status: 200, description: 'A stylesheet', kind: 'css' }],
    handler: () => async (ctx) => {
      const name = ctx.params.file ?? '';
      const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!asset) throw errors.resourceMissing('No such asset', 'file');
      if (!loaded.has(name)) loaded.set(name, asset.load());
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.type = asset.type;
      ctx.body = loaded.get(name);
    },
  }),
]);
