// Manual retry: attempt now, whatever the schedule and whatever the delivery's status (a
// succeeded delivery is sent again: receivers deduplicate on the event id). The delivery is
// marked pending in the request's transaction; the workflow is signalled (or started again)
// before commit, and its attempt activity records the outcome only after this transaction
// commits (it waits for the row lock), so the final status is always the attempt's.
import type { TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { getWebhookDelivery } from './list-webhook-deliveries';
import type { DeliveryWithAttempts } from '../../objects/webhook-deliveries';

export type RequestRetry = (d: { deliveryId: string; eventId: string; endpointId: string; merchantId: string; mode: string }) => Promise<void>;

export async function retryWebhookDelivery(db: TenantDb, id: string, now: Date, requestRetry: RequestRetry): Promise<DeliveryWithAttempts> {
  const delivery = await getWebhookDelivery(db, id);
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: delivery.endpointId }, select: { status: true, deletedAt: true } });
  if (!endpoint || endpoint.deletedAt !== null) {
    throw errors.invalidState('The endpoint of this delivery was deleted; it receives nothing more.', 'id');
  }
  if (endpoint.status !== 'enabled') {
    throw errors.invalidState('The endpoint of this delivery is disabled; enable it (PATCH disabled: false) before retrying.', 'id');
  }
  await db.webhookDelivery.updateMany({ where: { id }, data: { status: 'pending', nextRetryAt: now } });
  await requestRetry({ deliveryId: delivery.id, eventId: delivery.eventId, endpointId: delivery.endpointId, merchantId: delivery.merchantId, mode: delivery.mode });
  return { ...delivery, status: 'pending', nextRetryAt: now };
}
