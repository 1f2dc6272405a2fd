// Moves a subscription between active, past_due and unpaid after its invoices changed
// (statusAfterCollection in ./dunning.ts decides; this reads the invoices and writes the row).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Subscription } from '../../generated/prisma/client';
import type { RecordedEvent } from '../../events';
import { statusAfterCollection } from './dunning';
import { recordSubscriptionEvent } from './subscription-events';

export async function refreshCollectionStatus(db: TenantDb, tenant: Tenant, sub: Subscription, now: Date): Promise<{ subscription: Subscription; events: RecordedEvent[] }> {
  const uncollectible = (await db.invoice.count({ where: { subscriptionId: sub.id, status: 'uncollectible' } })) > 0;
  const overdue =
    (await db.invoice.count({
      where: {
        subscriptionId: sub.id,
        status: 'open',
        OR: [
          { collectionMethod: 'charge_automatically', attemptCount: { gt: 0 } },
          { collectionMethod: 'send_invoice', dueDate: { lte: now } },
          // no claim stands for it (refused, or dropped by the bank): the merchant must act
          { collectionMethod: 'send_invoice', nextPaymentAttemptAt: null },
        ],
      },
    })) > 0;
  const next = statusAfterCollection(sub.status, { uncollectible, overdue });
  if (next === sub.status) return { subscription: sub, events: [] };
  const updated = await db.subscription.update({ where: { id: sub.id }, data: { status: next } });
  return { subscription: updated, events: [await recordSubscriptionEvent(db, tenant, 'subscription.updated', updated)] };
}
