// POST /v1/refunds and the dashboard's Refund: the refund is created in the request's
// transaction (create-refund.ts: the rules, refund.created recorded with it); after commit the
// event is dispatched and the refund's workflow started, which asks the acquirer
// (process-refund.ts). A start lost with Temporal down leaves the refund pending; the refund
// reconciler starts it (docs/payments.md).
import type { Refund } from '../../generated/prisma/client';
import type { ApiDispatchDeps } from '../../events';
import type { WorkflowClients } from '../../temporal/workflow-clients';
import { dispatchAfterCommit } from '../dispatch-after-commit';
import type { RequestScope } from '../request-scope';
import { afterCommit, type WorkflowCallDeps } from '../workflow-calls';
import { createRefund } from './create-refund';

export type RefundPaymentDeps = ApiDispatchDeps &
  WorkflowCallDeps & {
    workflows: Pick<WorkflowClients, 'refund'>;
  };

export async function refundPayment(deps: RefundPaymentDeps, scope: RequestScope, input: Parameters<typeof createRefund>[2]): Promise<Refund> {
  const { refund, events } = await createRefund(scope.db, scope.tenant, input);
  dispatchAfterCommit(deps, scope, events);
  afterCommit(deps, scope, `refund ${refund.id}: workflow not started (the reconciler starts it)`, () =>
    deps.workflows.refund.start({ refundId: refund.id, merchantId: scope.tenant.merchantId, mode: scope.tenant.mode }),
  );
  return refund;
}
