// Inputs and outputs of the refund workflow and its activities, and the acquirer failure types
// that activities must not retry. Workflow-safe: no Prisma, no gateways import (workflows cannot
// import src/gateways). test/workflows/refund.test.ts checks the list equals the gateway's own.
import { NON_RETRYABLE_GATEWAY_ERROR_TYPES } from './gateway-failures';

export const REFUND_WORKFLOW = 'refundWorkflow';

/**
 * `name`s of the gateway errors an activity that calls the acquirer must not retry (its retry
 * policy's nonRetryableErrorTypes). The gateways' list (src/contracts/gateway-failures.ts); GatewayUnavailable (timeouts) stays retryable, with the same key.
 */
export const NON_RETRYABLE_ACQUIRER_ERROR_TYPES: readonly string[] = NON_RETRYABLE_GATEWAY_ERROR_TYPES;

export interface RefundWorkflowInput {
  refundId: string;
  merchantId: string;
  mode: 'test' | 'live';
}

export type RefundOutcome = 'succeeded' | 'failed';

export interface RefundWorkflowResult {
  refundId: string;
  status: RefundOutcome;
}

/** What the acquirer said about a refund (activity `refundAtAcquirer`). */
export type AcquirerRefundAnswer =
  | { status: 'succeeded'; acquirerRefundId: string }
  | { status: 'failed'; acquirerRefundId: string | null; code: string; message: string }
  /** The refund was no longer pending when the activity looked (a repeated run): nothing sent. */
  | { status: 'not_pending'; current: RefundOutcome };

export interface RecordRefundOutcomeInput extends RefundWorkflowInput {
  answer: { status: 'succeeded'; acquirerRefundId: string } | { status: 'failed'; acquirerRefundId: string | null; code: string; message: string };
}

/** Every minute (schedule `payments/refund-reconciler`): starts the workflow of refunds left pending without one. */
export const REFUND_RECONCILER_WORKFLOW = 'refundReconcilerWorkflow';

export interface RefundReconcileInput {
  /** Refunds younger than this are still being started by the request that created them. */
  minAgeSeconds: number;
  batchSize: number;
}

export interface RefundReconcileResult {
  /** Refund workflows started (pending refunds whose workflow never started or failed). */
  started: number;
}
