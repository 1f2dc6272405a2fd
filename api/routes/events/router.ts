// Merchant-facing webhook events. `/v1/events` is the usage-event API (docs/metering.md), so these live at
// `/v1/webhook_events` (docs/events.md).
import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { getEvent, listEvents } from '../../../src/domain/webhooks/list-events';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listEventsQuery } from './schemas';
import { presentEvent } from '../../../src/objects/events';

export function webhookEventsRoutes(router: Router<AppState>, _deps: AppDeps, auth: Auth): void {
  router.get('/v1/webhook_events', auth(), async (ctx) => {
    const filter = parseQuery(listEventsQuery, ctx.query);
    const page = await listEvents(dbOf(ctx), filter, pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentEvent), has_more: page.hasMore };
  });

  router.get('/v1/webhook_events/:id', auth(), async (ctx) => {
    ctx.body = presentEvent(await getEvent(dbOf(ctx), pathId(ctx.params.id)));
  });
}
