// POST /v1/test_helpers/invoices/{id}/pay_bank_claim (test mode): the customer pays the
// invoice's bank claim in their bank, at the subscription's time. The claim is read at once (as
// the workflow would on its next check), then the workflow is asked to reload.
import { errors } from '../../errors';
import type { RequestScope } from '../request-scope';
import { dispatchAfterCommit, type CommandDeps } from '../subscriptions/command-deps';
import { checkInvoiceBankClaim } from '../subscriptions/steps/check-bank-claim';
import { subscriptionNow } from '../subscriptions/subscription-now';
import { findSubscriptionInvoice } from './subscription-invoice';

export async function payTestBankClaim(deps: CommandDeps, scope: RequestScope, invoiceId: string, amount: number | undefined): Promise<void> {
  const { subscription } = await findSubscriptionInvoice(scope.db, invoiceId);
  const claim = await scope.db.invoiceBankClaim.findFirst({ where: { invoiceId } });
  if (!claim) throw errors.invalidState('The invoice has no bank claim (it is not a send_invoice invoice, or its claim is not issued yet)', 'id');
  const { merchantId, mode } = scope.tenant;
  const now = await subscriptionNow(scope.db, subscription.id);
  const bank = deps.gateways.simulators.bankClaims;
  try {
    await bank.payClaim({ merchantId, claimId: claim.claimId, at: now, ...(amount ? { amount } : {}) });
  } catch (err) {
    throw errors.invalidState(`The bank claim cannot be paid: ${(err as Error).message}`, 'id');
  }
  const r = await checkInvoiceBankClaim(deps, { subscriptionId: subscription.id, merchantId, mode, invoiceId, now: now.toISOString(), force: true });
  dispatchAfterCommit(deps, scope, r.events);
  scope.afterCommit(() => deps.workflows.subscription.refresh(subscription.id));
}
