// Merchant-facing webhook events. `/v1/events` is the usage-event API (docs/metering.md), so these live at
// `/v1/webhook_events` (docs/events.md).
import { route, area } from '../../route';
import { dbOf } from '../../context';
import { getEvent, listEvents } from '../../../src/domain/webhooks/list-events';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listEventsQuery } from './schemas';
import { presentEvent } from '../../../src/objects/events';

export const webhookEventsRoutes = area('events', [
  route({
    method: 'get',
    path: '/v1/webhook_events',
    operationId: 'listEvents',
    tag: 'Webhooks',
    summary: 'List events',
    auth: 'secret',
    query: listEventsQuery,
    list: 'Event',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const filter = parseQuery(listEventsQuery, ctx.query);
      const page = await listEvents(dbOf(ctx), filter, pageParams(ctx.query));
      ctx.body = { data: page.data.map(presentEvent), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/webhook_events/:id',
    operationId: 'retrieveEvent',
    tag: 'Webhooks',
    summary: 'Retrieve an event',
    auth: 'secret',
    response: 'Event',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentEvent(await getEvent(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
]);
