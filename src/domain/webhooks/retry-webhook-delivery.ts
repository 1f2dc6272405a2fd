// Manual retry: attempt now, whatever the schedule and whatever the delivery's status (a
// succeeded delivery is sent again: receivers deduplicate on the event id). The delivery is
// marked pending and committed first (the caller passes a root client, not a transaction: no
// transaction is held while Temporal is asked, docs/architecture.md), then the workflow is
// signalled (or started again); its attempt activity records the outcome after that, so the final
// status is always the attempt's. A failed signal answers 503 and leaves the delivery pending:
// the retry request may be sent again.
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
