// POST /v1/invoices/{id}/pay and every other "pay now" (portal, dashboard): retry collection of
// a subscription invoice at once: one more charge attempt with the default payment method
// (charge_automatically) or a read of the bank claim (send_invoice). A paid invoice is left as
// it is; a draft or void one is refused (src/contracts/subscription-commands.ts). The work runs
// in the subscription's workflow, under the lock of its billing steps; when the workflow has
// finished, here, with the same step functions.
import { invoiceActionVerdict } from '../../contracts/subscription-commands';
import type { RequestScope } from '../request-scope';
import { dispatchAfterCommit, type CommandDeps } from '../subscriptions/command-deps';
import { refusalError } from '../subscriptions/command-refusal';
import { collectInvoiceNow } from '../subscriptions/collect-invoice-now';
import { sendSubscriptionCommand, WORKFLOW_ENDED } from '../subscriptions/send-subscription-command';
import { subscriptionNow } from '../subscriptions/subscription-now';
import { findSubscriptionInvoice } from './subscription-invoice';

export async function payInvoiceNow(deps: CommandDeps, scope: RequestScope, invoiceId: string): Promise<void> {
  const { invoice, subscription } = await findSubscriptionInvoice(scope.db, invoiceId);
  const verdict = invoiceActionVerdict('pay', invoice.status);
  if (verdict === 'unchanged') return;
  if (verdict !== 'apply') throw refusalError(verdict);
  const sent = await sendSubscriptionCommand(deps, scope, subscription, { kind: 'pay_invoice', invoiceId });
  if (sent !== WORKFLOW_ENDED) return;
  const now = (await subscriptionNow(scope.db, subscription.id)).toISOString();
  const ref = { subscriptionId: subscription.id, merchantId: scope.tenant.merchantId, mode: scope.tenant.mode, invoiceId, now };
  const r = await collectInvoiceNow(deps, ref, invoice);
  dispatchAfterCommit(deps, scope, r.events);
}
