// The life of one payment session: workflow id `payment-session/<ps_id>` (src/temporal/workflow-ids.ts),
// started after the session's transaction commits (src/temporal/payment-session-workflow.ts).
//
// It waits for whichever comes first: the completion signal (checkout succeeded; the session row
// is already `complete`) or the session's expiry time. At expiry an idempotent activity marks the
// session `expired`, cancels its unpaid payment and voids that payment's invoice, all in one
// transaction that re-checks the row, so a completion that raced the timer wins and a retried
// activity changes nothing. The workflow reads no clock: the wait comes from the starter, and
// the activity answers `not_due` with the remaining time if the database clock disagrees.
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { PaymentSessionActivities } from '../activities/payment-sessions';
import { PAYMENT_SESSION_COMPLETED_SIGNAL, type PaymentSessionWorkflowInput, type PaymentSessionWorkflowResult } from '../src/contracts/payment-sessions';

// A database outage must delay the expiry, not drop it: retried without a limit.
const { expirePaymentSession } = proxyActivities<PaymentSessionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export const paymentSessionCompletedSignal = defineSignal(PAYMENT_SESSION_COMPLETED_SIGNAL);

/** Bounds a `not_due` loop caused by a clock that keeps disagreeing. */
const MAX_NOT_DUE_ROUNDS = 10;

export async function paymentSessionWorkflow(input: PaymentSessionWorkflowInput): Promise<PaymentSessionWorkflowResult> {
  let completed = false;
  setHandler(paymentSessionCompletedSignal, () => {
    completed = true;
  });

  let waitMs = Math.max(1, input.waitMs);
  for (let round = 0; ; round++) {
    if (await condition(() => completed, waitMs)) return { sessionId: input.sessionId, outcome: 'complete' };
    const result = await expirePaymentSession({ sessionId: input.sessionId, merchantId: input.merchantId, mode: input.mode });
    if (result.outcome === 'not_due' && round < MAX_NOT_DUE_ROUNDS) {
      waitMs = Math.max(1, result.waitMs);
      continue;
    }
    return { sessionId: input.sessionId, outcome: result.outcome };
  }
}
