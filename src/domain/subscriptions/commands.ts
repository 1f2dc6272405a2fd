// Commands to subscriptions from outside a request's own subscription (a deleted test clock
// cancels the subscriptions of its customers). Each goes to the subscription's workflow as an
// Update with a deterministic update id, so repeating it applies it once.
import type { Db } from '../../db/client';
import type { Tenant } from '../../db/tenancy';
import { executeSubscriptionCommand, type WorkflowTarget } from './workflow-control';

/** After a clock was deleted: cancel every subscription of its customers now (at the clock's time). */
export async function cancelSubscriptionsOfDeletedClock(db: Db, t: WorkflowTarget, tenant: Tenant, subscriptionIds: string[], clockTime: Date): Promise<void> {
  for (const id of subscriptionIds) {
    const sub = await db.subscription.findFirst({ where: { id, merchantId: tenant.merchantId, mode: tenant.mode }, select: { id: true, customerId: true, status: true } });
    if (!sub || sub.status === 'canceled') continue;
    try {
      await executeSubscriptionCommand(
        t,
        { subscriptionId: sub.id, merchantId: tenant.merchantId, mode: tenant.mode, customerId: sub.customerId, status: sub.status, clockTime: clockTime.toISOString() },
        { kind: 'cancel', atPeriodEnd: false },
        `clock-deleted:${sub.id}`,
      );
    } catch {
      // Finished already, or refused: nothing more to cancel.
    }
  }
}
