import type { WebhookEndpoint } from '../generated/prisma/client';
import { iso } from './iso';

/** `secret` (the plain secret, given by the caller) only in the create and rotate responses. */
export function presentWebhookEndpoint(e: WebhookEndpoint, opts: { secret?: string } = {}) {
  return {
    id: e.id,
    object: 'webhook_endpoint',
    url: e.url,
    events: e.events,
    description: e.description,
    status: e.status,
    ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
}
