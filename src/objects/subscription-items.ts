import type { SubscriptionItem } from '../generated/prisma/client';
import { iso } from './iso';

export function presentSubscriptionItem(i: SubscriptionItem) {
  return {
    id: i.id,
    object: 'subscription_item',
    subscription: i.subscriptionId,
    price: i.priceId,
    quantity: i.quantity,
    credit_rollover: i.creditRollover,
    included_units: i.includedUnits === null ? null : Number(i.includedUnits),
    metadata: (i.metadata ?? {}) as Record<string, string>,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
  };
}

/** The answer to DELETE /v1/subscription_items/{id}. */
export function presentDeletedSubscriptionItem(i: SubscriptionItem) {
  return { id: i.id, object: 'subscription_item', subscription: i.subscriptionId, deleted: true };
}
