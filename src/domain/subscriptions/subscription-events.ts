// subscription.* events with the subscription as the API presents it (outbox: recorded in the
// transaction of the change, dispatched after commit).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Subscription } from '../../generated/prisma/client';
import { recordEvent, type EventType, type RecordedEvent } from '../../events';
import { presentSubscription } from '../../objects/subscriptions';
import { itemsOf } from './find-subscriptions';

export async function recordSubscriptionEvent(db: TenantDb, tenant: Tenant, type: Extract<EventType, `subscription.${string}`>, sub: Subscription): Promise<RecordedEvent> {
  return recordEvent(db, tenant, { type, data: presentSubscription(sub, await itemsOf(db, sub.id)) });
}
