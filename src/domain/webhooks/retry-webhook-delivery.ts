// Manual retry (POST /v1/webhook_deliveries/{id}/retry and the dashboard's Retry button): attempt
// now, whatever the schedule and whatever the delivery's status (a succeeded delivery is sent
// again: receivers deduplicate on the event id). The delivery is marked pending and committed
// first (the caller runs step-wise: scope.db is the scoped root client, no transaction is held
// while Temporal is asked, docs/architecture.md), then the delivery workflow is signalled (or
// started again) through its client module; its attempt activity records the outcome after that,
// so the final status is always the attempt's. Temporal unavailable answers 503 with Retry-After
// (askWorkflow) and leaves the delivery pending: the retry request may be sent again.
import { errors } from '../../errors';
import type { WorkflowClients } from '../../temporal/workflow-clients';
import type { RequestScope } from '../request-scope';
import { askWorkflow, type WorkflowCallDeps } from '../workflow-calls';
import { getWebhookDelivery } from './list-webhook-deliveries';
import type { DeliveryWithAttempts } from '../../objects/webhook-deliveries';

export interface RetryDeliveryDeps extends WorkflowCallDeps {
  workflows: Pick<WorkflowClients, 'delivery'>;
}

export async function retryWebhookDelivery(deps: RetryDeliveryDeps, scope: RequestScope, id: string, now: Date = new Date()): Promise<DeliveryWithAttempts> {
  const db = scope.db;
  const delivery = await getWebhookDelivery(db, id);
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: delivery.endpointId }, select: { status: true, deletedAt: true } });
  if (!endpoint || endpoint.deletedAt !== null) {
    throw errors.invalidState('The endpoint of this delivery was deleted; it receives nothing more.', 'id');
  }
  if (endpoint.status !== 'enabled') {
    throw errors.invalidState('The endpoint of this delivery is disabled; enable it (PATCH disabled: false) before retrying.', 'id');
  }
  await db.webhookDelivery.updateMany({ where: { id }, data: { status: 'pending', nextRetryAt: now } });
  const ref = { deliveryId: delivery.id, eventId: delivery.eventId, endpointId: delivery.endpointId, merchantId: delivery.merchantId, mode: delivery.mode };
  await askWorkflow(deps, `webhook retry of ${delivery.id}`, 'The retry could not be scheduled right now; try again shortly.', () => deps.workflows.delivery.retryNow(ref));
  return { ...delivery, status: 'pending', nextRetryAt: now };
}
