// Usage events (`ue_` ids) at /v1/events, as the contract names the route; webhook events (`evt_`)
// live elsewhere.
import { areaOf, secretKey } from '../../route';
import { usageEventBody } from './schemas';
import { object, arrayOf } from '../../../src/objects/json-schema';
import { dbOf, tenantOf } from '../../context';
import { hasIdempotencyKey, withTransaction } from '../../middleware/transaction';
import { prismaSql, rawTransaction } from '../../../src/db/client';
import { ingestUsageEvents, recordUsageEvent } from '../../../src/domain/usage-events/ingest-usage-events';
import { listUsageEvents } from '../../../src/domain/usage-events/list-usage-events';
import { pageParams, parseQuery, timestampParam } from '../../validate';
import { listEventsQuery } from './schemas';
import { presentBatchResult, presentUsageEvent } from '../../../src/objects/usage-events';

function optionalTimestampParam(raw: string | undefined, param: string): Date | undefined {
  return raw === undefined || raw === '' ? undefined : timestampParam(raw, param);
}

const { route, area } = areaOf(withTransaction);

export const usageEventsRoutes = area('usage-events', [
  route({
    method: 'post',
    path: '/v1/events',
    operationId: 'createUsageEvent',
    tag: 'Usage events',
    summary: 'Record a usage event (200 when the idempotency key was seen before)',
    description:
      "Records one usage event for a customer, named by `customer` or by the merchant's `external_customer_id` (exactly one); meters with the same `event_name` aggregate it into metered prices. `timestamp` defaults to now (the clock's time for a test-clock customer); backfill is unlimited but more than 5 minutes in the future is refused, as is a non-numeric value of a property a live meter aggregates. An `idempotency_key` seen before records nothing and answers 200 with the event recorded first; a new event answers 201. Records no webhook event.",
    bodyJson: usageEventBody,
    status: 201,
    response: 'UsageEvent',
    also: [{ status: 200, description: 'The event was recorded before (same idempotency key)', schema: 'UsageEvent' }],
    ...secretKey('tx'),
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
    description:
      'Records 1–1,000 usage events in one request, each checked on its own under the rules of POST /v1/events, so one bad event never blocks the rest. Answers 200 with `ingested` (recorded now), `duplicates` (idempotency keys already recorded) and `errors` (by position in the request); together they count every event sent. Records no webhook event.',
    bodyJson: object({ events: arrayOf(usageEventBody) }),
    response: 'UsageBatchResult',
    // With an Idempotency-Key the batch runs in the request transaction that stores its answer;
    // without one, in a transaction of its own straight on node-postgres (no Prisma query runtime
    // on the highest-volume path; docs/metering.md "Ingestion cost").
    ...secretKey('txWhenKeyed'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const events = ctx.state.body.events;
        const r = hasIdempotencyKey(ctx)
          ? await ingestUsageEvents(prismaSql(dbOf(ctx)), tenantOf(ctx), events, new Date())
          : await rawTransaction(deps.db, (sql) => ingestUsageEvents(sql, tenantOf(ctx), events, new Date()));
        ctx.body = presentBatchResult(r);
      },
  }),
  route({
    method: 'get',
    path: '/v1/events',
    operationId: 'listUsageEvents',
    tag: 'Usage events',
    summary: 'List usage events',
    description:
      'Lists recorded usage events, newest first by `timestamp` (ties by id), one page at a time; `customer`, `event_name`, `from` and `to` (inclusive, ISO 8601) filter the list. A `customer` filter naming an unknown customer returns an empty list. Reads only: records no event.',
    query: listEventsQuery,
    list: 'UsageEvent',
    ...secretKey(),
    handler: () => async (ctx) => {
      const q = parseQuery(listEventsQuery, ctx.query);
      const page = await listUsageEvents(dbOf(ctx), pageParams(ctx.query), {
        customer: q.customer,
        eventName: q.event_name,
        from: optionalTimestampParam(q.from, 'from'),
        to: optionalTimestampParam(q.to, 'to'),
      });
      ctx.body = { data: page.data.map(presentUsageEvent), has_more: page.hasMore };
    },
  }),
]);
