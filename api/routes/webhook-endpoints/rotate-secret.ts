// POST /v1/webhook_endpoints/{id}/rotate_secret: a new signing secret, shown once; the old one
// keeps signing for `expires_in` seconds (docs/webhooks.md "Rotating the secret").
import type Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { rotateWebhookEndpointSecret } from '../../../src/domain/webhooks/rotate-webhook-secret';
import { presentWebhookEndpoint } from '../../../src/objects/webhook-endpoints';
import { parseBody, pathId } from '../../validate';
import { rotateWebhookSecretSchema } from './schemas';

export function rotateWebhookSecretRoute(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  router.post('/v1/webhook_endpoints/:id/rotate_secret', auth(), transactional(deps), async (ctx) => {
    const input = parseBody(rotateWebhookSecretSchema, ctx.state.body);
    const rotated = await rotateWebhookEndpointSecret(dbOf(ctx), deps.config, pathId(ctx.params.id), { expiresInSeconds: input.expires_in });
    ctx.state.redactOnReplay = ['secret'];
    ctx.body = presentWebhookEndpoint(rotated.endpoint, { secret: rotated.secret });
  });
}
