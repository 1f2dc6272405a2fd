import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { archiveMeter, createMeter, findMeter, listMeters } from '../../../src/domain/meters/manage-meters';
import { getMeterQuantities } from '../../../src/domain/meters/get-meter-quantities';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { parseEventTimestamp } from '../../../src/domain/usage-events/event-input';
import { createMeterSchema, listMetersQuery, quantitiesQuery } from './schemas';
import { presentMeter, presentQuantity } from '../../../src/objects/meters';

function timestampParam(raw: string, param: string): Date {
  const d = parseEventTimestamp(raw);
  if (!d) throw errors.validationFailed(`${param} must be an ISO 8601 timestamp such as 2026-03-01T00:00:00.000Z`, param);
  return d;
}

export function metersRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/meters', auth(), tx, async (ctx) => {
    const input = parseBody(createMeterSchema, ctx.state.body);
    ctx.status = 201;
    ctx.body = presentMeter(await createMeter(dbOf(ctx), tenantOf(ctx), input));
  });

  router.get('/v1/meters', auth(), async (ctx) => {
    const q = parseQuery(listMetersQuery, ctx.query);
    const page = await listMeters(dbOf(ctx), pageParams(ctx.query), { includeArchived: q.archived === true });
    ctx.body = { data: page.data.map(presentMeter), has_more: page.hasMore };
  });

  router.get('/v1/meters/:id', auth(), async (ctx) => {
    ctx.body = presentMeter(await findMeter(dbOf(ctx), pathId(ctx.params.id)));
  });

  router.delete('/v1/meters/:id', auth(), tx, async (ctx) => {
    ctx.body = presentMeter(await archiveMeter(dbOf(ctx), tenantOf(ctx), pathId(ctx.params.id)));
  });

  router.get('/v1/meters/:id/quantities', auth(), async (ctx) => {
    const meterId = pathId(ctx.params.id);
    const q = parseQuery(quantitiesQuery, ctx.query);
    const from = timestampParam(q.period_start, 'period_start');
    const to = timestampParam(q.period_end, 'period_end');
    const r = await getMeterQuantities(dbOf(ctx), tenantOf(ctx), { meterId, customerId: q.customer, from, to });
    ctx.body = presentQuantity({ meterId: r.meter.id, customerId: r.customerId, from, to, quantity: r.quantity });
  });
}
