// Replaces an endpoint's signing secret (shown once to the caller). Every attempt from now on,
// retries of older events included, is signed with the new secret; the old one stops at once.
import type { TenantDb } from '../../db/tenancy';
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { generateEndpointSecret } from '../../webhooks/signature';
import { getWebhookEndpoint } from './list-webhook-endpoints';

export async function rotateWebhookEndpointSecret(db: TenantDb, id: string): Promise<WebhookEndpoint> {
  await getWebhookEndpoint(db, id);
  await db.webhookEndpoint.updateMany({ where: { id, deletedAt: null }, data: { secret: generateEndpointSecret() } });
  return getWebhookEndpoint(db, id);
}
