// Payment activities (the refund workflow's steps): thin wrappers over src/domain/refunds.
// refundAtAcquirer calls the acquirer with the refund id as idempotency key, so Temporal's
// at-least-once retries refund once; the workflow declares NON_RETRYABLE_ACQUIRER_ERROR_TYPES.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Db } from '../src/db/client';
import { dispatchEventsFromActivity } from '../src/events';
import { recordRefundOutcome, refundAtAcquirer } from '../src/domain/refunds/process-refund';
import { startPendingRefundWorkflows } from '../src/domain/refunds/reconcile-refunds';
import { workflowClientsOfActivity } from './workflow-clients';
import type { AcquirerRefundAnswer, RecordRefundOutcomeInput, RefundOutcome, RefundReconcileInput, RefundWorkflowInput } from '../src/contracts/payments';
import { AdapterNotConfiguredError, GatewayError, type ModeGateways } from '../src/gateways';

/**
 * Gateway errors become ApplicationFailures typed with the error's `name` (the names in
 * NON_RETRYABLE_ACQUIRER_ERROR_TYPES) and marked non-retryable when they are. Without this the
 * SDK would type the failure with the constructor's name (`GatewayInvalidRequestError`), which
 * matches no declared type, and retry a caller bug forever.
 */
function asActivityFailure(err: unknown): never {
  if (err instanceof GatewayError || err instanceof AdapterNotConfiguredError) {
    throw ApplicationFailure.create({ message: err.message, type: err.name, nonRetryable: !err.retryable, cause: err });
  }
  throw err;
}

export interface PaymentActivityDeps {
  db: Db;
  log: (line: string) => void;
  gateways: ModeGateways;
}

export function createPaymentActivities(deps: PaymentActivityDeps) {
  return {
    async refundAtAcquirer(input: RefundWorkflowInput): Promise<AcquirerRefundAnswer> {
      const tenant = { merchantId: input.merchantId, mode: input.mode };
      return refundAtAcquirer({ db: deps.db, acquirer: deps.gateways.cardAcquirer(input.mode) }, tenant, input.refundId).catch(asActivityFailure);
    },

    async recordRefundOutcome(input: RecordRefundOutcomeInput): Promise<RefundOutcome> {
      const tenant = { merchantId: input.merchantId, mode: input.mode };
      const recorded = await recordRefundOutcome({ db: deps.db }, tenant, input);
      await dispatchEventsFromActivity(deps.db, recorded.events, deps.log);
      return recorded.status;
    },

    /** One batch of the refund reconciler; returns how many refunds it looked at and started. */
    async startPendingRefundWorkflows(input: RefundReconcileInput): Promise<{ looked: number; started: number }> {
      const ctx = Context.current();
      const r = await startPendingRefundWorkflows({ db: deps.db, workflows: workflowClientsOfActivity(), now: new Date(), heartbeat: () => ctx.heartbeat() }, input);
      if (r.started > 0) deps.log(`refund reconciler started ${r.started} refund workflow(s) left unstarted`);
      return r;
    },
  };
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;
