// Merchant-facing webhook events. `/v1/events` is the usage-event API (docs/metering.md), so these live at
// `/v1/webhook_events` (docs/events.md).
import { answerPage, area, retrieveById, route, secretKey } from '../../route';
import { dbOf } from '../../context';
import { getEvent, listEvents } from '../../../src/domain/webhooks/list-events';
import { pageParams, parseQuery } from '../../validate';
import { listEventsQuery } from './schemas';
import { presentEvent } from '../../../src/objects/events';

export const webhookEventsRoutes = area('events', [
  route({
    method: 'get',
    path: '/v1/webhook_events',
    operationId: 'listEvents',
    tag: 'Webhooks',
    summary: 'List events',
    description:
      "Lists the webhook events recorded for the merchant in the key's mode (what endpoints receive, such as `invoice.paid` or `subscription.updated`), newest first; `type` filters by one event type (docs/events.md lists them). Reads only.",
    query: listEventsQuery,
    list: 'Event',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const filter = parseQuery(listEventsQuery, ctx.query);
      return listEvents(dbOf(ctx), filter, pageParams(ctx.query));
    }, presentEvent),
  }),
  route({
    method: 'get',
    path: '/v1/webhook_events/:id',
    operationId: 'retrieveEvent',
    tag: 'Webhooks',
    summary: 'Retrieve an event',
    description: 'Returns one webhook event (`evt_…`): its type, when it happened and `data`, the payload the deliveries of this event carry. Reads only.',
    response: 'Event',
    ...secretKey(),
    handler: retrieveById(getEvent, presentEvent),
  }),
]);
