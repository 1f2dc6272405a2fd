// Usage events (`ue_` ids) at /v1/events, as the contract names the route; webhook events (`evt_`)
// live elsewhere.
import { areaOf } from '../../route';
import { usageEventBody } from './schemas';
import { object, arrayOf } from '../../../src/objects/json-schema';
import { dbOf, tenantOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { ingestUsageEvents, recordUsageEvent } from '../../../src/domain/usage-events/ingest-usage-events';
import { listUsageEvents } from '../../../src/domain/usage-events/list-usage-events';
import { parseEventTimestamp } from '../../../src/domain/usage-events/event-input';
import { pageParams, parseQuery } from '../../validate';
import { listEventsQuery } from './schemas';
import { presentBatchResult, presentUsageEvent } from '../../../src/objects/usage-events';

function timestampParam(raw: string | undefined, param: string): Date | undefined {
  if (raw === undefined || raw === '') return undefined;
  const d = parseEventTimestamp(raw);
  if (!d) throw errors.validationFailed(`${param} must be an ISO 8601 timestamp such as 2026-03-01T00:00:00.000Z`, param);
  return d;
}

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const usageEventsRoutes = area('usage-events', [
  route({
    method: 'post',
    path: '/v1/events',
    operationId: 'createUsageEvent',
    tag: 'Usage events',
    summary: 'Record a usage event (200 when the idempotency key was seen before)',
    auth: 'secret',
    bodyJson: usageEventBody,
    status: 201,
    response: 'UsageEvent',
    also: [{ status: 200, description: 'The event was recorded before (same idempotency key)', schema: 'UsageEvent' }],
    use: ({ auth, tx }) => [auth(), tx],
    handler: () => async (ctx) => {
      const r = await recordUsageEvent(dbOf(ctx), tenantOf(ctx), ctx.state.body, new Date());
      ctx.status = r.created ? 201 : 200;
      ctx.body = presentUsageEvent(r.event);
    },
  }),
  route({
    method: 'post',
    path: '/v1/events/batch',
    operationId: 'createUsageEventBatch',
    tag: 'Usage events',
    summary: 'Record a batch of usage events',
    auth: 'secret',
    bodyJson: object({ events: arrayOf(usageEventBody) }),
    response: 'UsageBatchResult',
    use: ({ auth, tx }) => [auth(), tx],
    handler: () => async (ctx) => {
      const r = await ingestUsageEvents(dbOf(ctx), tenantOf(ctx), ctx.state.body.events, new Date());
      ctx.body = presentBatchResult(r);
    },
  }),
  route({
    method: 'get',
    path: '/v1/events',
    operationId: 'listUsageEvents',
    tag: 'Usage events',
    summary: 'List usage events',
    auth: 'secret',
    query: listEventsQuery,
    list: 'UsageEvent',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listEventsQuery, ctx.query);
      const page = await listUsageEvents(dbOf(ctx), pageParams(ctx.query), {
        customer: q.customer,
        eventName: q.event_name,
        from: timestampParam(q.from, 'from'),
        to: timestampParam(q.to, 'to'),
      });
      ctx.body = { data: page.data.map(presentUsageEvent), has_more: page.hasMore };
    },
  }),
]);
