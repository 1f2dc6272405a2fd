// Starts `refund/<ref_id>` after the refund's transaction committed. The id is derived from the
// refund and the reuse policy rejects duplicates, so a repeated start never runs a refund twice.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { REFUND_WORKFLOW, type RefundWorkflowInput } from '../../contracts/payments';
import { workflowIds } from '../../temporal/workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../../temporal/search-attributes';

export async function startRefundWorkflow(target: { client: Client; taskQueue: string }, input: RefundWorkflowInput): Promise<boolean> {
  try {
    await target.client.workflow.start(REFUND_WORKFLOW, {
      taskQueue: target.taskQueue,
      workflowId: workflowIds.refund(input.refundId),
      args: [input] as [RefundWorkflowInput],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      typedSearchAttributes: [
        { key: SA_MERCHANT, value: input.merchantId },
        { key: SA_MODE, value: input.mode },
      ],
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}
