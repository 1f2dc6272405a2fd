// Changes url, events, description, or enables/disables. Disabling stops the endpoint's pending
// retries at once (their deliveries become `failed`; a waiting workflow finds that on waking and
// ends without an attempt); re-enabling does not revive them (retry them manually). A new URL is
// used from the next attempt on; a new events list applies to events recorded from now on.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Prisma, WebhookEndpoint } from '../../generated/prisma/client';
import { ENDPOINT_DISABLED_ERROR } from './attempt-delivery';
import { assertDeliverableUrl } from './endpoint-url';
import { getWebhookEndpoint } from './list-webhook-endpoints';
import { normalizeSubscribedEvents } from './subscribed-events';
import type { WebhookTestingOptions } from './testing';

export interface UpdateWebhookEndpointInput {
  url?: string;
  events?: string[];
  description?: string | null;
  disabled?: boolean;
}

export async function updateWebhookEndpoint(
  db: TenantDb,
  tenant: Tenant,
  id: string,
  input: UpdateWebhookEndpointInput,
  testing?: WebhookTestingOptions,
): Promise<WebhookEndpoint> {
  await getWebhookEndpoint(db, id);
  const data: Prisma.WebhookEndpointUpdateManyMutationInput = {};
  if (input.events !== undefined) data.events = normalizeSubscribedEvents(input.events);
  if (input.url !== undefined) {
    await assertDeliverableUrl(input.url, tenant.mode, testing);
    data.url = input.url;
  }
  if (input.description !== undefined) data.description = input.description;
  if (input.disabled !== undefined) data.status = input.disabled ? 'disabled' : 'enabled';
  if (Object.keys(data).length > 0) {
    await db.webhookEndpoint.updateMany({ where: { id, deletedAt: null }, data });
  }
  if (input.disabled === true) await stopPendingDeliveries(db, id, ENDPOINT_DISABLED_ERROR);
  return getWebhookEndpoint(db, id);
}

export async function stopPendingDeliveries(db: TenantDb, endpointId: string, reason: string): Promise<number> {
  const r = await db.webhookDelivery.updateMany({
    where: { endpointId, status: 'pending' },
    data: { status: 'failed', nextRetryAt: null, lastError: reason },
  });
  return r.count;
}
