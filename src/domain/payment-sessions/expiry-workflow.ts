// Starting and signalling a session's workflow `payment-session/<ps_id>` (workflows/payment-session.ts).
// Both run after the session's transaction committed. Start uses REJECT_DUPLICATE, so a repeat
// never makes a second run; a failed start is logged and leaves the session to expire lazily:
// checkout refuses it after expires_at and the API reads it as `expired` (docs/checkout.md).
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { PaymentSession } from '../../generated/prisma/client';
import { workflowIds } from '../../temporal/workflow-ids';
import { SA_CUSTOMER, SA_MERCHANT, SA_MODE } from '../../temporal/search-attributes';
import { PAYMENT_SESSION_COMPLETED_SIGNAL, PAYMENT_SESSION_WORKFLOW, type PaymentSessionWorkflowInput } from '../../contracts/payment-sessions';

export interface WorkflowTarget {
  client: Client;
  taskQueue: string;
}

export async function startPaymentSessionWorkflow(
  target: WorkflowTarget,
  session: Pick<PaymentSession, 'id' | 'merchantId' | 'mode' | 'customerId' | 'expiresAt'>,
  now: Date = new Date(),
): Promise<boolean> {
  const args: [PaymentSessionWorkflowInput] = [
    {
      sessionId: session.id,
      merchantId: session.merchantId,
      mode: session.mode,
      expiresAt: session.expiresAt.toISOString(),
      waitMs: Math.max(1, session.expiresAt.getTime() - now.getTime()),
    },
  ];
  try {
    await target.client.workflow.start(PAYMENT_SESSION_WORKFLOW, {
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
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** Tells the workflow the session completed; a missing or finished workflow is fine (the activity re-checks the row). */
export async function signalPaymentSessionCompleted(target: Pick<WorkflowTarget, 'client'>, sessionId: string): Promise<void> {
  try {
    await target.client.workflow.getHandle(workflowIds.paymentSession(sessionId)).signal(PAYMENT_SESSION_COMPLETED_SIGNAL);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return;
    throw err;
  }
}
