// The subscription reconciler, started every minute by the schedule `subscriptions/reconciler`
// (src/domain/subscriptions/reconcile-subscriptions.ts): starts the workflow of every
// subscription row that has none and wakes test clocks whose advance signal was lost.
import { log, proxyActivities } from '@temporalio/workflow';
import type { SubscriptionActivities } from '../../activities/subscriptions';
import type { ReconcileSubscriptionsInput, ReconcileSubscriptionsResult } from '../../src/contracts/subscriptions';

const { reconcileSubscriptionWorkflows } = proxyActivities<SubscriptionActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

export async function subscriptionReconcilerWorkflow(input: ReconcileSubscriptionsInput): Promise<ReconcileSubscriptionsResult> {
  const result = await reconcileSubscriptionWorkflows(input);
  if (result.started > 0 || result.clocksNudged > 0) log.info('subscription reconciler repaired', { ...result });
  return result;
}
