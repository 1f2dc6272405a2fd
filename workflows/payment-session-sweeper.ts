// Every minute (schedule `payments/payment-session-sweeper`): expires payment sessions left open
// past their expiry because their `payment-session/<ps_id>` workflow never started (Temporal was
// unreachable after the commit). The sessions already cannot be paid after `expires_at`; this
// makes them `expired` and cancels their unpaid payments, as the workflow would have.
import { log, proxyActivities } from '@temporalio/workflow';
import type { PaymentSessionActivities } from '../activities/payment-sessions';
import type { SweepPaymentSessionsInput, SweepPaymentSessionsResult } from '../src/contracts/payment-sessions';

const { sweepOverduePaymentSessions } = proxyActivities<PaymentSessionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 5 },
});

const MAX_BATCHES = 20;

export async function paymentSessionSweeperWorkflow(input: SweepPaymentSessionsInput): Promise<SweepPaymentSessionsResult> {
  const total: SweepPaymentSessionsResult = { looked: 0, expired: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const batch = await sweepOverduePaymentSessions(input);
    total.looked += batch.looked;
    total.expired += batch.expired;
    // Rows that were not expired (completed meanwhile) are not progress: stop on a short or idle batch.
    if (batch.looked < input.batchSize || batch.expired === 0) break;
  }
  if (total.expired > 0) log.info('expired overdue payment sessions', { ...total });
  return total;
}
