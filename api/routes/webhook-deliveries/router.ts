import { areaOf } from '../../route';
import { dbOf, scopeOf } from '../../context';
import { stepwise } from '../../middleware/transaction';
import { getWebhookDelivery, listWebhookDeliveries } from '../../../src/domain/webhooks/list-webhook-deliveries';
import { retryWebhookDelivery } from '../../../src/domain/webhooks/retry-webhook-delivery';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listWebhookDeliveriesQuery } from './schemas';
import { presentWebhookDelivery } from '../../../src/objects/webhook-deliveries';

const { route, area } = areaOf((deps) => {
  // The retry signals the delivery workflow: step-wise, so no transaction is held across it.
  const steps = stepwise(deps);
  return { steps };
});

export const webhookDeliveriesRoutes = area('webhook-deliveries', [
  route({
    method: 'get',
    path: '/v1/webhook_deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'List webhook deliveries',
    auth: 'secret',
    query: listWebhookDeliveriesQuery,
    list: 'WebhookDelivery',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const filter = parseQuery(listWebhookDeliveriesQuery, ctx.query);
      const page = await listWebhookDeliveries(dbOf(ctx), filter, pageParams(ctx.query));
      ctx.body = { data: page.data.map(presentWebhookDelivery), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhook_deliveries/:id',
    operationId: 'retrieveWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook delivery with its attempts',
    auth: 'secret',
    response: 'WebhookDelivery',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentWebhookDelivery(await getWebhookDelivery(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
  route({
    method: 'post',
    path: '/v1/webhook_deliveries/:id/retry',
    operationId: 'retryWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Retry a webhook delivery now',
    auth: 'secret',
    response: 'WebhookDelivery',
    errors: ['invalid_state'],
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const retried = await retryWebhookDelivery(deps, scopeOf(ctx), pathId(ctx.params.id));
        ctx.body = presentWebhookDelivery(retried);
      },
  }),
]);
