import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { createWebhookEndpoint } from '../../../src/domain/webhooks/create-webhook-endpoint';
import { getWebhookEndpoint, listWebhookEndpoints } from '../../../src/domain/webhooks/list-webhook-endpoints';
import { updateWebhookEndpoint } from '../../../src/domain/webhooks/update-webhook-endpoint';
import { deleteWebhookEndpoint } from '../../../src/domain/webhooks/delete-webhook-endpoint';
import { pageParams, parseBody, pathId } from '../../validate';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema } from './schemas';
import { presentWebhookEndpoint } from '../../../src/objects/webhook-endpoints';

const { route, area } = areaOf(withTransaction);

export const webhookEndpointsRoutes = area('webhook-endpoints', [
  route({
    method: 'post',
    path: '/v1/webhook_endpoints',
    operationId: 'createWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Create a webhook endpoint (the signing secret is shown once)',
    description:
      'Registers an HTTPS URL to receive the listed event types (`["*"]`: every type, including later ones) of the key\'s mode; loopback, private and other refused addresses answer 400 url_not_allowed, and an unknown event type validation_failed. The answer is the only one that shows the `whsec_` signing secret, which is stored encrypted; a replay with the same Idempotency-Key shows `secret: null`. Records no event.',
    body: createWebhookEndpointSchema,
    status: 201,
    response: 'WebhookEndpoint',
    errors: ['url_not_allowed'],
    ...secretKey('tx'),
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
    description:
      "Lists the merchant's webhook endpoints in the key's mode, newest first, one page at a time, without their signing secrets. Deleted endpoints are not listed. Reads only: records no event.",
    list: 'WebhookEndpoint',
    ...secretKey(),
    handler: answerPage(
      (ctx) => listWebhookEndpoints(dbOf(ctx), pageParams(ctx.query)),
      (e) => presentWebhookEndpoint(e),
    ),
  }),
  route({
    method: 'get',
    path: '/v1/webhook_endpoints/:id',
    operationId: 'retrieveWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook endpoint',
    description:
      'Retrieves one webhook endpoint by id: its URL, event types, description and status, never its signing secret. A deleted endpoint, or one of another merchant or mode, answers 404 resource_missing. Reads only: records no event.',
    response: 'WebhookEndpoint',
    ...secretKey(),
    handler: retrieveById(getWebhookEndpoint, presentWebhookEndpoint),
  }),
  route({
    method: 'patch',
    path: '/v1/webhook_endpoints/:id',
    operationId: 'updateWebhookEndpoint',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint',
    description:
      "Changes an endpoint's `url` (used from the next attempt on, also for deliveries already waiting), `events` (applies to events recorded from then on), `description` or `disabled`. Disabling stops pending retries at once (those deliveries become `failed`); enabling again does not revive them, and events recorded while disabled are never delivered. Records no event.",
    body: updateWebhookEndpointSchema,
    response: 'WebhookEndpoint',
    errors: ['url_not_allowed'],
    ...secretKey('tx'),
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
    description:
      'Deletes a webhook endpoint: it disappears from the API at once, its pending retries stop (failed with `endpoint_deleted`) and nothing more is delivered to it. Its delivery records stay listed. Answers `{ id, object, deleted: true }` and records no event.',
    response: 'DeletedObject',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const deleted = await deleteWebhookEndpoint(dbOf(ctx), pathId(ctx.params.id), new Date());
      ctx.body = { id: deleted.id, object: 'webhook_endpoint', deleted: true };
    },
  }),
]);
