import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { createWebhookEndpoint } from '../../../src/domain/webhooks/create-webhook-endpoint';
import { getWebhookEndpoint, listWebhookEndpoints } from '../../../src/domain/webhooks/list-webhook-endpoints';
import { updateWebhookEndpoint } from '../../../src/domain/webhooks/update-webhook-endpoint';
import { deleteWebhookEndpoint } from '../../../src/domain/webhooks/delete-webhook-endpoint';
import { pageParams, parseBody, pathId } from '../../validate';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema } from './schemas';
import { presentWebhookEndpoint } from '../../../src/objects/webhook-endpoints';

export function webhookEndpointsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/webhook_endpoints', auth(), tx, async (ctx) => {
    const input = parseBody(createWebhookEndpointSchema, ctx.state.body);
    const created = await createWebhookEndpoint(dbOf(ctx), tenantOf(ctx), deps.config, input, deps.webhookTesting);
    ctx.state.redactOnReplay = ['secret'];
    ctx.status = 201;
    ctx.body = presentWebhookEndpoint(created.endpoint, { secret: created.secret });
  });

  router.get('/v1/webhook_endpoints', auth(), async (ctx) => {
    const page = await listWebhookEndpoints(dbOf(ctx), pageParams(ctx.query));
    ctx.body = { data: page.data.map((e) => presentWebhookEndpoint(e)), has_more: page.hasMore };
  });

  router.get('/v1/webhook_endpoints/:id', auth(), async (ctx) => {
    ctx.body = presentWebhookEndpoint(await getWebhookEndpoint(dbOf(ctx), pathId(ctx.params.id)));
  });

  router.patch('/v1/webhook_endpoints/:id', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(updateWebhookEndpointSchema, ctx.state.body);
    ctx.body = presentWebhookEndpoint(await updateWebhookEndpoint(dbOf(ctx), tenantOf(ctx), id, input, deps.webhookTesting));
  });

  router.delete('/v1/webhook_endpoints/:id', auth(), tx, async (ctx) => {
    const deleted = await deleteWebhookEndpoint(dbOf(ctx), pathId(ctx.params.id), new Date());
    ctx.body = { id: deleted.id, object: 'webhook_endpoint', deleted: true };
  });
}
