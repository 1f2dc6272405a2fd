// The delivery of one event to one endpoint: workflow id `delivery/<evt_id>/<we_id>`
// (src/temporal/workflow-ids.ts), started after the event's transaction commits (src/events/dispatch.ts).
//
// Attempts are made by an activity that checks the endpoint (deleted or disabled: stop), posts the
// signed event and records the attempt; between failed attempts the workflow sleeps on a timer for
// the delay the activity computed from the documented schedule (src/webhooks/retry-schedule.ts),
// so the recorded next_retry_at and the real wait are the same number. The workflow reads no
// clock: signature timestamps come from the activity.
//
// Manual retry (POST /v1/webhook_deliveries/{id}/retry) is a signal: a waiting run wakes and
// attempts at once; a finished one is started again under the same id by signal-with-start with
// `manual: true`, and that run makes one attempt (plus one per retry requested while it runs).
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks';
import { RETRY_DELIVERY_NOW_SIGNAL, type AttemptOutcome, type WebhookDeliveryInput, type WebhookDeliveryResult } from '../src/contracts/webhooks';

const { nextWebhookAttemptNumber } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

// 30 s per attempt (or less in tests) plus DNS and the database. Retried without limit on
// infrastructure errors (the sender itself never throws for anything the receiver does): a
// database outage must delay deliveries, not drop them.
const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export const retryDeliveryNowSignal = defineSignal(RETRY_DELIVERY_NOW_SIGNAL);

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  let retryRequested = false;
  setHandler(retryDeliveryNowSignal, () => {
    retryRequested = true;
  });

  const manualRun = input.manual === true;
  let attemptNumber = await nextWebhookAttemptNumber(input.deliveryId);
  let trigger: 'automatic' | 'manual' = manualRun ? 'manual' : 'automatic';
  let scheduleStep = 1;
  let attempts = 0;
  let outcome: AttemptOutcome = 'failed';

  for (;;) {
    // A manual attempt answers every retry request made before it started.
    if (trigger === 'manual') retryRequested = false;
    const result = await attemptWebhookDelivery({
      deliveryId: input.deliveryId,
      attemptNumber,
      scheduleStep,
      trigger,
      automaticRetries: !manualRun,
    });
    attempts += 1;
    attemptNumber += 1;
    outcome = result.outcome;
    if (outcome === 'stopped') break;
    if (retryRequested) {
      // Asked for while the attempt was out: the merchant wants another one now.
      trigger = 'manual';
      continue;
    }
    if (outcome === 'delivered' || result.retryDelayMs === null) break;
    // At least 1 ms: condition(fn, 0) would mean "no timeout" in old SDK semantics.
    const asked = await condition(() => retryRequested, Math.max(1, result.retryDelayMs));
    if (asked) {
      // A failed manual attempt does not use up a step of the schedule.
      trigger = 'manual';
    } else {
      trigger = 'automatic';
      scheduleStep += 1;
    }
  }
  return { deliveryId: input.deliveryId, outcome, attempts };
}
