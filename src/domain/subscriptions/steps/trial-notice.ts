// `subscription.trial_will_end`: the reminder that a trial is about to turn into paid periods,
// so the merchant can tell the customer (or ask for a payment method) before the first charge.
//
// When (src/contracts/subscription-schedule.ts, TRIAL_NOTICE_LEAD_MS): three days before trial_end, or at once when the trial is shorter
// than that (docs/subscriptions.md "Trial reminders"). Only while the subscription is `trialing`:
// a paused trial gets it when it resumes (if the trial has not ended by then); a trial that is
// canceled before the notice is due gets none. At most once per trial end: the row records the
// trial end the notice was sent for, so a retried activity or a repeated step does nothing.
import type { Db } from '../../../db/client';
import { scopedDb, type Tenant } from '../../../db/tenancy';
import type { RecordedEvent } from '../../../events';
import type { TrialNoticeInput } from '../../../contracts/subscriptions';
import { lockSubscription, STEP_TX } from '../lock-subscription';
import { recordSubscriptionEvent } from '../subscription-events';

export async function sendTrialWillEnd(db: Db, input: TrialNoticeInput): Promise<{ sent: boolean; events: RecordedEvent[] }> {
  const tenant: Tenant = { merchantId: input.merchantId, mode: input.mode };
  return scopedDb(db, tenant).$transaction(async (tx) => {
    await lockSubscription(tx, tenant, input.subscriptionId);
    const sub = await tx.subscription.findFirst({ where: { id: input.subscriptionId } });
    if (!sub || sub.status !== 'trialing' || sub.trialEnd === null) return { sent: false, events: [] };
    // A stale step (the trial end moved since the workflow read it) or one already done.
    if (sub.trialEnd.toISOString() !== input.trialEnd) return { sent: false, events: [] };
    if (sub.trialWillEndNotifiedFor !== null && sub.trialWillEndNotifiedFor.getTime() === sub.trialEnd.getTime()) return { sent: false, events: [] };
    const updated = await tx.subscription.update({ where: { id: sub.id }, data: { trialWillEndNotifiedFor: sub.trialEnd, updatedAt: sub.updatedAt } }); // bookkeeping: updated_at stays
    return { sent: true, events: [await recordSubscriptionEvent(tx, tenant, 'subscription.trial_will_end', updated)] };
  }, STEP_TX);
}
