import { areaOf } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { createWebhookEndpoint } from '../../../src/domain/webhooks/create-webhook-endpoint';
import { getWebhookEndpoint, listWebhookEndpoints } from '../../../src/domain/webhooks/list-webhook-endpoints';
import { updateWebhookEndpoint } from '../../../src/domain/webhooks/update-webhook-endpoint';
import { deleteWebhookEndpoint } from '../../../src/domain/webhooks/delete-webhook-endpoint';
import { pageParams, parseBody, pathId } from '../../validate';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema } from './schemas';
import { presentWebhookEndpoint } from '../../../src/objects/webhook-endpoints';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const webhookEndpointsRoutes = area('webhook-endpoints', [
  route({
    method: 'post',
    path: '/v1/webhook_endpoints',
    operationId: 'createWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Create a webhook endpoint (the signing secret is shown once)',
    auth: 'secret',
    body: createWebhookEndpointSchema,
    status: 201,
    response: 'WebhookEndpoint',
    errors: ['url_not_allowed'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(createWebhookEndpointSchema, ctx.state.body);
        const created = await createWebhookEndpoint(dbOf(ctx), tenantOf(ctx), deps.config, input, deps.webhookTesting);
        ctx.state.redactOnReplay = ['secret'];
        ctx.status = 201;
        ctx.body = presentWebhookEndpoint(created.endpoint, { secret: created.secret });
      },
  }),
  route({
    method: 'get',
    path: '/v1/webhook_endpoints',
    operationId: 'listWebhookEndpoints',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    auth: 'secret',
    list: 'WebhookEndpoint',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const page = await listWebhookEndpoints(dbOf(ctx), pageParams(ctx.query));
      ctx.body = { data: page.data.map((e) => presentWebhookEndpoint(e)), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhook_endpoints/:id',
    operationId: 'retrieveWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook endpoint',
    auth: 'secret',
    response: 'WebhookEndpoint',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentWebhookEndpoint(await getWebhookEndpoint(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
  route({
    method: 'patch',
    path: '/v1/webhook_endpoints/:id',
    operationId: 'updateWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    auth: 'secret',
    body: updateWebhookEndpointSchema,
    response: 'WebhookEndpoint',
    errors: ['url_not_allowed'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(updateWebhookEndpointSchema, ctx.state.body);
        ctx.body = presentWebhookEndpoint(await updateWebhookEndpoint(dbOf(ctx), tenantOf(ctx), id, input, deps.webhookTesting));
      },
  }),
  route({
    method: 'delete',
    path: '/v1/webhook_endpoints/:id',
    operationId: 'deleteWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    auth: 'secret',
    response: 'DeletedObject',
    use: ({ auth, tx }) => [auth(), tx],
    handler: () => async (ctx) => {
      const deleted = await deleteWebhookEndpoint(dbOf(ctx), pathId(ctx.params.id), new Date());
      ctx.body = { id: deleted.id, object: 'webhook_endpoint', deleted: true };
    },
  }),
]);
