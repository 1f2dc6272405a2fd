import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
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
    description:
      "Lists the deliveries of events to the merchant's webhook endpoints, newest first, each with its status (`pending`, `succeeded`, `failed`), attempt count and last answer. `endpoint` and `event` filter by an endpoint or event id; an unknown or deleted one answers 404. Reads only.",
    query: listWebhookDeliveriesQuery,
    list: 'WebhookDelivery',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const filter = parseQuery(listWebhookDeliveriesQuery, ctx.query);
      return listWebhookDeliveries(dbOf(ctx), filter, pageParams(ctx.query));
    }, presentWebhookDelivery),
  }),
  route({
    method: 'get',
    path: '/v1/webhook_deliveries/:id',
    operationId: 'retrieveWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Retrieve a webhook delivery with its attempts',
    description: "Returns one delivery of an event to an endpoint: its status, the next retry time and every attempt made so far with the receiver's HTTP status. Reads only.",
    response: 'WebhookDelivery',
    ...secretKey(),
    handler: retrieveById(getWebhookDelivery, presentWebhookDelivery),
  }),
  route({
    method: 'post',
    path: '/v1/webhook_deliveries/:id/retry',
    operationId: 'retryWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Retry a webhook delivery now',
    description:
      "Sends the delivery again now, whatever its status (failed, pending or even succeeded): it is set back to `pending` and its delivery workflow is told to attempt at once, signed with the endpoint's live secret(s). The endpoint must still exist and be enabled (409 invalid_state otherwise). Answers the delivery as pending; the attempt's outcome shows on the delivery afterwards. 503 when the workflow service cannot be reached.",
    response: 'WebhookDelivery',
    errors: ['invalid_state'],
    ...secretKey('steps'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const retried = await retryWebhookDelivery(deps, scopeOf(ctx), pathId(ctx.params.id));
        ctx.body = presentWebhookDelivery(retried);
      },
  }),
]);
