import type { WebhookEndpoint } from '../generated/prisma/client';
import { iso } from './iso';

/** `secret` only in the create response. */
export function presentWebhookEndpoint(e: WebhookEndpoint, opts: { withSecret?: boolean } = {}) {
  return {
    id: e.id,
    object: 'webhook_endpoint',
    url: e.url,
    events: e.events,
    description: e.description,
    status: e.status,
    ...(opts.withSecret ? { secret: e.secret } : {}),
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
}
