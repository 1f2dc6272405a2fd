// Usage events (`ue_` ids) at /v1/events, as the contract names the route; webhook events (`evt_`)
// live elsewhere.
import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
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

export function usageEventsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/events', auth(), tx, async (ctx) => {
    const r = await recordUsageEvent(dbOf(ctx), tenantOf(ctx), ctx.state.body, new Date());
    ctx.status = r.created ? 201 : 200;
    ctx.body = presentUsageEvent(r.event);
  });

  router.post('/v1/events/batch', auth(), tx, async (ctx) => {
    const r = await ingestUsageEvents(dbOf(ctx), tenantOf(ctx), ctx.state.body.events, new Date());
    ctx.body = presentBatchResult(r);
  });

  router.get('/v1/events', auth(), async (ctx) => {
    const q = parseQuery(listEventsQuery, ctx.query);
    const page = await listUsageEvents(dbOf(ctx), pageParams(ctx.query), {
      customer: q.customer,
      eventName: q.event_name,
      from: timestampParam(q.from, 'from'),
      to: timestampParam(q.to, 'to'),
    });
    ctx.body = { data: page.data.map(presentUsageEvent), has_more: page.hasMore };
  });
}
