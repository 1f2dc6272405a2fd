// A manual "pay now" of an open invoice: what the workflow's `pay_invoice` command does through
// its activities, done here for an invoice whose subscription's workflow has finished. The step
// is chosen by manualCollectionStep (src/contracts/subscription-commands.ts), as in the workflow.
import { manualCollectionStep } from '../../contracts/subscription-commands';
import type { InvoiceStepInput } from '../../contracts/subscriptions';
import { chargeSubscriptionInvoice } from './steps/charge-invoice';
import { checkInvoiceBankClaim } from './steps/check-bank-claim';
import type { BillingStepDeps, StepOutcome } from './steps/step-sql';

export async function collectInvoiceNow(deps: BillingStepDeps, input: InvoiceStepInput, invoice: { collectionMethod: string | null; attemptCount: number }): Promise<StepOutcome> {
  const step = manualCollectionStep(invoice);
  if (step.kind === 'check_bank_claim') return checkInvoiceBankClaim(deps, { ...input, force: true });
  return chargeSubscriptionInvoice(deps, { ...input, attempt: step.attempt, manual: true });
}
