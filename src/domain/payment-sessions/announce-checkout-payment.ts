// After a checkout payment (payCheckoutSession, step-wise: its transactions have committed): the
// payment's events are dispatched, and a completed session's expiry workflow is told so through
// its client module. The checkout has no request transaction to wait for, so this runs at once.
// Neither step fails the payment: an undispatched event is picked up by the dispatch reconciler;
// a lost signal leaves the workflow's timer, whose activity finds the session complete.
import { dispatchEvents, type ApiDispatchDeps } from '../../events';
import type { WorkflowClients } from '../../temporal/workflow-clients';
import type { WorkflowCallDeps } from '../workflow-calls';
import type { CheckoutPaymentResult } from './complete-checkout';

export type AnnounceCheckoutDeps = ApiDispatchDeps & WorkflowCallDeps & { workflows: Pick<WorkflowClients, 'paymentSession'> };

export async function announceCheckoutPayment(deps: AnnounceCheckoutDeps, sessionId: string, result: CheckoutPaymentResult): Promise<void> {
  await dispatchEvents(deps, result.events);
  if (result.outcome !== 'succeeded') return;
  try {
    await deps.workflows.paymentSession.signalCompleted(sessionId);
  } catch (err) {
    deps.log(`payment session ${sessionId}: completion signal failed: ${(err as Error).message}`);
  }
}
