// POST /v1/webhook_endpoints/{id}/rotate_secret: a new signing secret, shown once; the old one
// keeps signing for `expires_in` seconds (docs/webhooks.md "Rotating the secret").
import { route, area } from '../../route';
import { dbOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { rotateWebhookEndpointSecret } from '../../../src/domain/webhooks/rotate-webhook-secret';
import { presentWebhookEndpoint } from '../../../src/objects/webhook-endpoints';
import { parseBody, pathId } from '../../validate';
import { rotateWebhookSecretSchema } from './schemas';

export const rotateWebhookSecretRoute = area('webhook-endpoints-rotate-secret', [
  route({
    method: 'post',
    path: '/v1/webhook_endpoints/:id/rotate_secret',
    operationId: 'rotateWebhookEndpointSecret',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret (the new one is shown once; the old one signs for expires_in more seconds)',
    auth: 'secret',
    body: rotateWebhookSecretSchema,
    response: 'WebhookEndpoint',
    errors: ['resource_conflict'],
    use: ({ auth, deps }) => [auth(), transactional(deps)],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(rotateWebhookSecretSchema, ctx.state.body);
        const rotated = await rotateWebhookEndpointSecret(dbOf(ctx), deps.config, pathId(ctx.params.id), { expiresInSeconds: input.expires_in });
        ctx.state.redactOnReplay = ['secret'];
        ctx.body = presentWebhookEndpoint(rotated.endpoint, { secret: rotated.secret });
      },
  }),
]);
