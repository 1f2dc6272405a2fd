// After a void: the invoice's bank claim is cancelled at the bank (the command void-subscription-invoice.ts).
import type { InvoiceStepInput } from '../../../contracts/subscriptions';
import type { BillingStepDeps } from './step-sql';

/** After a void: cancel the invoice's bank claim (safe to repeat). */
export async function cancelInvoiceBankClaim(deps: Pick<BillingStepDeps, 'gateways'>, input: InvoiceStepInput & { claimId: string }): Promise<void> {
  await deps.gateways
    .bankClaims(input.mode)
    .cancelClaim({ merchantId: input.merchantId, claimId: input.claimId, idempotencyKey: `${input.invoiceId}:claim:cancel`, now: new Date(input.now) });
}
