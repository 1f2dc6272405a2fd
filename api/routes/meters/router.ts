import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { archiveMeter, createMeter, findMeter, listMeters } from '../../../src/domain/meters/manage-meters';
import { getMeterQuantities } from '../../../src/domain/meters/get-meter-quantities';
import { pageParams, parseBody, parseQuery, pathId, timestampParam } from '../../validate';
import { createMeterSchema, listMetersQuery, quantitiesQuery } from './schemas';
import { presentMeter, presentQuantity } from '../../../src/objects/meters';

const { route, area } = areaOf(withTransaction);

export const metersRoutes = area('meters', [
  route({
    method: 'post',
    path: '/v1/meters',
    operationId: 'createMeter',
    tag: 'Meters',
    summary: 'Create a meter',
    description:
      'Creates a meter: which usage events it counts (`event_name`, stored exactly, and an optional `filter` on their metadata) and how it aggregates them (`count`, `sum`, `max`, `min`, `avg` or `unique` of `aggregate_property`, times `unit_multiplier`). Several meters may share an event name. A metered price names a meter to bill its quantity per period. Records no event.',
    body: createMeterSchema,
    status: 201,
    response: 'Meter',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const input = parseBody(createMeterSchema, ctx.state.body);
      ctx.status = 201;
      ctx.body = presentMeter(await createMeter(dbOf(ctx), tenantOf(ctx), input));
    },
  }),
  route({
    method: 'get',
    path: '/v1/meters',
    operationId: 'listMeters',
    tag: 'Meters',
    summary: 'List meters',
    description: "Lists the merchant's meters in the key's mode, one page at a time. Archived meters are left out unless `archived=true` is given. Reads only: records no event.",
    query: listMetersQuery,
    list: 'Meter',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const q = parseQuery(listMetersQuery, ctx.query);
      return listMeters(dbOf(ctx), pageParams(ctx.query), { includeArchived: q.archived === true });
    }, presentMeter),
  }),
  route({
    method: 'get',
    path: '/v1/meters/:id',
    operationId: 'retrieveMeter',
    tag: 'Meters',
    summary: 'Retrieve a meter',
    description: 'Retrieves one meter by id, archived or not. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'Meter',
    ...secretKey(),
    handler: retrieveById(findMeter, presentMeter),
  }),
  route({
    method: 'delete',
    path: '/v1/meters/:id',
    operationId: 'archiveMeter',
    tag: 'Meters',
    summary: 'Archive a meter',
    description:
      'Archives a meter and answers it with `archived: true` and `archived_at` set; archiving an archived meter returns it unchanged. An archived meter stays retrievable and its history stays stable: only events received before archiving count, it cannot back new prices and it stops checking new events. Records no event.',
    response: 'Meter',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      ctx.body = presentMeter(await archiveMeter(dbOf(ctx), tenantOf(ctx), pathId(ctx.params.id)));
    },
  }),
  route({
    method: 'get',
    path: '/v1/meters/:id/quantities',
    operationId: 'retrieveMeterQuantity',
    tag: 'Meters',
    summary: "A customer's metered quantity over a period",
    description:
      "Answers a customer's quantity on a meter over `period_start`–`period_end` (inclusive), after `unit_multiplier`: the figure billing uses for metered prices. Empty periods give 0 for count, sum and unique and null for max, min and avg. An unknown meter answers 404 resource_missing and an unknown customer 404 resource_not_found. Reads only: records no event.",
    query: quantitiesQuery,
    response: 'MeterQuantity',
    ...secretKey(),
    handler: () => async (ctx) => {
      const meterId = pathId(ctx.params.id);
      const q = parseQuery(quantitiesQuery, ctx.query);
      const from = timestampParam(q.period_start, 'period_start');
      const to = timestampParam(q.period_end, 'period_end');
      const r = await getMeterQuantities(dbOf(ctx), tenantOf(ctx), { meterId, customerId: q.customer, from, to });
      ctx.body = presentQuantity({ meterId: r.meter.id, customerId: r.customerId, from, to, quantity: r.quantity });
    },
  }),
]);
