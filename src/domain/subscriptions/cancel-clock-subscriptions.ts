// After a test clock was deleted: cancel every subscription of its customers now, at the clock's
// time. Each goes to the subscription's workflow as an Update with a deterministic update id,
// so repeating it applies it once.
import type { Db } from '../../db/client';
import type { Tenant } from '../../db/tenancy';
import type { SubscriptionWorkflowClient } from '../../temporal/subscription-workflow';

export async function cancelSubscriptionsOfDeletedClock(
  db: Db,
  workflows: { subscription: SubscriptionWorkflowClient },
  tenant: Tenant,
  subscriptionIds: string[],
  clockTime: Date,
): Promise<void> {
  for (const id of subscriptionIds) {
    const sub = await db.subscription.findFirst({ where: { id, merchantId: tenant.merchantId, mode: tenant.mode }, select: { id: true, customerId: true, status: true } });
    if (!sub || sub.status === 'canceled') continue;
    try {
      await workflows.subscription.command(
        { subscriptionId: sub.id, merchantId: tenant.merchantId, mode: tenant.mode, customerId: sub.customerId, status: sub.status, clockTime: clockTime.toISOString() },
        { kind: 'cancel', atPeriodEnd: false },
        `clock-deleted:${sub.id}`,
      );
    } catch {
      // Temporal unreachable: the clock is gone, and its subscriptions' workflows (or the
      // reconciler's next start) find the clock deleted.
    }
  }
}
