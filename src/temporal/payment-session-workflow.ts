// The client side of a payment session's workflow `payment-session/ps_…` (expiry at
// expires_at, workflows/payment-session.ts). Started after the session's transaction committed,
// with reuse policy REJECT_DUPLICATE, so a repeat never makes a second run; a failed start
// leaves the session to expire lazily: checkout refuses it after expires_at and the API reads
// it as `expired` (docs/checkout.md).
import type { Client } from '@temporalio/client';
import { workflowIds } from './workflow-ids';
import { SA_CUSTOMER, SA_MERCHANT, SA_MODE } from '../contracts/search-attributes';
import { connectedClient, type TemporalTarget } from './connection';
import { signalIfRunning, startOnce } from './start-once';
import { PAYMENT_SESSION_COMPLETED_SIGNAL, PAYMENT_SESSION_WORKFLOW, type PaymentSessionWorkflowInput } from '../contracts/payment-sessions';

export interface PaymentSessionRef {
  id: string;
  merchantId: string;
  mode: 'test' | 'live';
  customerId: string | null;
  expiresAt: Date;
}

export interface PaymentSessionWorkflowClient {
  /** Starts the session's expiry workflow; false when it had been started before. */
  start(session: PaymentSessionRef, now?: Date): Promise<boolean>;
  /** Tells the workflow the session completed; a missing or finished workflow is fine (its activity re-checks the row). */
  signalCompleted(sessionId: string): Promise<void>;
}

export function paymentSessionWorkflowClient(target: TemporalTarget): PaymentSessionWorkflowClient {
  const client = (): Promise<Client> => connectedClient(target);
  return {
    async start(session, now = new Date()) {
      const args: [PaymentSessionWorkflowInput] = [
        {
          sessionId: session.id,
          merchantId: session.merchantId,
          mode: session.mode,
          expiresAt: session.expiresAt.toISOString(),
          waitMs: Math.max(1, session.expiresAt.getTime() - now.getTime()),
        },
      ];
      const c = await client();
      return startOnce(() =>
        c.workflow.start(PAYMENT_SESSION_WORKFLOW, {
          taskQueue: target.taskQueue,
          workflowId: workflowIds.paymentSession(session.id),
          args,
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          workflowIdConflictPolicy: 'FAIL',
          typedSearchAttributes: [
            { key: SA_MERCHANT, value: session.merchantId },
            { key: SA_MODE, value: session.mode },
            ...(session.customerId ? [{ key: SA_CUSTOMER, value: session.customerId }] : []),
          ],
        }),
      );
    },

    async signalCompleted(sessionId) {
      const c = await client();
      await signalIfRunning(() => c.workflow.getHandle(workflowIds.paymentSession(sessionId)).signal(PAYMENT_SESSION_COMPLETED_SIGNAL));
    },
  };
}
