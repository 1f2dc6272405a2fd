// The client side of a refund's workflow `refund/ref_…` (workflows/refund.ts). The id is derived
// from the refund, so a repeated start never runs a refund twice:
//  - after the refund's transaction committed: reuse policy REJECT_DUPLICATE;
//  - from the reconciler: ALLOW_DUPLICATE_FAILED_ONLY, so a workflow that failed or was
//    terminated is started again (the acquirer call is idempotent on the refund id) while a
//    running or completed one is left alone.
import type { Client } from '@temporalio/client';
import { workflowIds } from './workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../contracts/search-attributes';
import { connectedClient, type TemporalTarget } from './connection';
import { startOnce } from './start-once';
import { REFUND_WORKFLOW, type RefundWorkflowInput } from '../contracts/payments';

export interface RefundWorkflowClient {
  /** Starts the refund's workflow; false when it had been started before. */
  start(input: RefundWorkflowInput): Promise<boolean>;
  /** The reconciler's start: false when a workflow for it runs or completed. */
  restartUnlessDone(input: RefundWorkflowInput): Promise<boolean>;
}

export function refundWorkflowClient(target: TemporalTarget): RefundWorkflowClient {
  const client = (): Promise<Client> => connectedClient(target);
  const start = async (input: RefundWorkflowInput, reuse: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY'): Promise<boolean> => {
    const c = await client();
    return startOnce(() =>
      c.workflow.start(REFUND_WORKFLOW, {
        taskQueue: target.taskQueue,
        workflowId: workflowIds.refund(input.refundId),
        args: [input] as [RefundWorkflowInput],
        workflowIdReusePolicy: reuse,
        workflowIdConflictPolicy: 'FAIL',
        typedSearchAttributes: [
          { key: SA_MERCHANT, value: input.merchantId },
          { key: SA_MODE, value: input.mode },
        ],
      }),
    );
  };
  return {
    start: (input) => start(input, 'REJECT_DUPLICATE'),
    restartUnlessDone: (input) => start(input, 'ALLOW_DUPLICATE_FAILED_ONLY'),
  };
}
