// Deletes an endpoint: it disappears from the API at once, receives nothing more, and its
// pending retries stop. The row stays (deleted_at) so delivery records keep their endpoint.
import type { TenantDb } from '../../db/tenancy';
import { ENDPOINT_DELETED_ERROR } from './attempt-delivery';
import { getWebhookEndpoint } from './list-webhook-endpoints';
import { stopPendingDeliveries } from './update-webhook-endpoint';

export async function deleteWebhookEndpoint(db: TenantDb, id: string, now: Date): Promise<{ id: string }> {
  await getWebhookEndpoint(db, id);
  await db.webhookEndpoint.updateMany({ where: { id, deletedAt: null }, data: { deletedAt: now, status: 'disabled' } });
  await stopPendingDeliveries(db, id, ENDPOINT_DELETED_ERROR);
  return { id };
}
