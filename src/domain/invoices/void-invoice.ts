// POST /v1/invoices/{id}/void and every other void (portal, dashboard): an open, draft or
// uncollectible subscription invoice becomes void, its bank claim is cancelled and dunning
// stops; a void invoice is left as it is, a paid one refused (src/contracts/subscription-commands.ts).
// Runs in the subscription's workflow as the command `void_invoice`; when the workflow has
// finished, here, through the same apply-command.ts as the workflow's activity.
import { invoiceActionVerdict } from '../../contracts/subscription-commands';
import type { RequestScope } from '../request-scope';
import { applySubscriptionCommand } from '../subscriptions/apply-command';
import { dispatchAfterCommit, type CommandDeps } from '../subscriptions/command-deps';
import { refusalError } from '../subscriptions/command-refusal';
import { sendSubscriptionCommand, WORKFLOW_ENDED } from '../subscriptions/send-subscription-command';
import { subscriptionNow } from '../subscriptions/subscription-now';
import { findSubscriptionInvoice } from './subscription-invoice';

export async function voidInvoice(deps: CommandDeps, scope: RequestScope, invoiceId: string): Promise<void> {
  const { invoice, subscription } = await findSubscriptionInvoice(scope.db, invoiceId);
  const verdict = invoiceActionVerdict('void', invoice.status);
  if (verdict === 'unchanged') return;
  if (verdict !== 'apply') throw refusalError(verdict);
  const command = { kind: 'void_invoice' as const, invoiceId };
  const sent = await sendSubscriptionCommand(deps, scope, subscription, command);
  if (sent !== WORKFLOW_ENDED) return;
  const now = (await subscriptionNow(scope.db, subscription.id)).toISOString();
  const ref = { subscriptionId: subscription.id, merchantId: scope.tenant.merchantId, mode: scope.tenant.mode };
  await applySubscriptionCommand(deps, { ...ref, commandId: `${subscription.id}:${scope.requestKey}`, now, command }, async (events) => dispatchAfterCommit(deps, scope, events));
}
