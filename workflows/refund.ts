// One refund: workflow id `refund/<ref_id>` (src/temporal/workflow-ids.ts), started after the
// refund's transaction commits (POST /v1/refunds). Asks the acquirer (idempotency key = refund
// id; timeouts retried with the same key, without limit: an acquirer outage delays a refund, it
// never fails it), then records the outcome in the database. A non-retryable acquirer error (a
// caller bug, live mode without an acquirer) records the refund as `failed`.
import { ActivityFailure, ApplicationFailure, log, proxyActivities } from '@temporalio/workflow';
import type { PaymentActivities } from '../activities/payments';
import {
  NON_RETRYABLE_ACQUIRER_ERROR_TYPES,
  type AcquirerRefundAnswer,
  type RecordRefundOutcomeInput,
  type RefundReconcileInput,
  type RefundReconcileResult,
  type RefundWorkflowInput,
  type RefundWorkflowResult,
} from '../src/contracts/payments';

const { refundAtAcquirer } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '5 minutes',
    nonRetryableErrorTypes: [...NON_RETRYABLE_ACQUIRER_ERROR_TYPES],
  },
});

const { recordRefundOutcome } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function refundWorkflow(input: RefundWorkflowInput): Promise<RefundWorkflowResult> {
  let answer: AcquirerRefundAnswer;
  try {
    answer = await refundAtAcquirer(input);
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : undefined;
    if (!(cause instanceof ApplicationFailure) || !NON_RETRYABLE_ACQUIRER_ERROR_TYPES.includes(cause.type ?? '')) throw err;
    answer = { status: 'failed', acquirerRefundId: null, code: 'acquirer_error', message: cause.message };
  }
  if (answer.status === 'not_pending') return { refundId: input.refundId, status: answer.current };
  const record: RecordRefundOutcomeInput = { ...input, answer };
  const status = await recordRefundOutcome(record);
  return { refundId: input.refundId, status };
}

const { startPendingRefundWorkflows } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** Bounded per run; the next minute's run continues. */
const MAX_RECONCILE_BATCHES = 10;

/**
 * Started every minute by the schedule `payments/refund-reconciler`: starts the workflow of
 * refunds that committed but whose workflow never started (src/domain/refunds/reconcile-refunds.ts).
 */
export async function refundReconcilerWorkflow(input: RefundReconcileInput): Promise<RefundReconcileResult> {
  let started = 0;
  for (let i = 0; i < MAX_RECONCILE_BATCHES; i++) {
    const batch = await startPendingRefundWorkflows(input);
    started += batch.started;
    // Refunds whose workflow is already running stay pending: a full batch of them is not progress.
    if (batch.looked < input.batchSize || batch.started === 0) break;
  }
  if (started > 0) log.info('started refund workflows left unstarted', { started });
  return { started };
}
