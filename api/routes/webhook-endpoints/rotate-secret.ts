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
    description:
      "Replaces the endpoint's signing secret with a new `whsec_` secret, returned in this response only (stored encrypted; null in an Idempotency-Key replay). With `expires_in` (seconds, 0 to 86,400; default 0) the old secret keeps signing for that long: meanwhile every delivery attempt, retries of older events included, carries one signature per live secret, so a receiver can switch without failing a delivery. With 0 the old secret stops at once. Rotating during an overlap keeps only the secret it replaces. Another change at the same time answers 409 resource_conflict. Records no webhook event.",
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
