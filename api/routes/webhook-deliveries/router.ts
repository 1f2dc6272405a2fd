import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, scopeOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { stepwise } from '../../middleware/transaction';
import { getWebhookDelivery, listWebhookDeliveries } from '../../../src/domain/webhooks/list-webhook-deliveries';
import { retryWebhookDelivery } from '../../../src/domain/webhooks/retry-webhook-delivery';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listWebhookDeliveriesQuery } from './schemas';
import { presentWebhookDelivery } from '../../../src/objects/webhook-deliveries';

export function webhookDeliveriesRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  // The retry signals the delivery workflow: step-wise, so no transaction is held across it.
  const steps = stepwise(deps);

  router.get('/v1/webhook_deliveries', auth(), async (ctx) => {
    const filter = parseQuery(listWebhookDeliveriesQuery, ctx.query);
    const page = await listWebhookDeliveries(dbOf(ctx), filter, pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentWebhookDelivery), has_more: page.hasMore };
  });

  router.get('/v1/webhook_deliveries/:id', auth(), async (ctx) => {
    ctx.body = presentWebhookDelivery(await getWebhookDelivery(dbOf(ctx), pathId(ctx.params.id)));
  });

  router.post('/v1/webhook_deliveries/:id/retry', auth(), steps, async (ctx) => {
    const retried = await retryWebhookDelivery(deps, scopeOf(ctx), pathId(ctx.params.id));
    ctx.body = presentWebhookDelivery(retried);
  });
}
