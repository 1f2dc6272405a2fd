// The outbox reconciler: started every minute by the schedule `webhooks/dispatch-reconciler`
// (src/temporal/schedules.ts). It dispatches events that committed but were never dispatched (a
// crash or a Temporal outage between commit and dispatch), so no event is ever lost. Dispatch is
// idempotent (src/events/dispatch.ts), so racing the creator's own dispatch is harmless.
import { log, proxyActivities } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
import type { DispatchReconcileInput, DispatchReconcileResult } from '../src/contracts/webhooks';

const { dispatchUndispatchedEvents } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** Bounded per run; the next minute's run continues. */
const MAX_BATCHES = 20;

export async function webhookDispatchReconcilerWorkflow(input: DispatchReconcileInput): Promise<DispatchReconcileResult> {
  let dispatched = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await dispatchUndispatchedEvents(input);
    dispatched += n;
    if (n < input.batchSize) break;
  }
  if (dispatched > 0) log.info('dispatched events left undispatched', { dispatched });
  return { dispatched };
}
