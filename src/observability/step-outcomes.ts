// Counts the outcome of one billing step of a subscription (src/domain/subscriptions) from what
// the step returned: the period end's `done`, and the events it recorded (committed with it).
import type { RecordedEvent } from '../events/record-event';
import type { Metrics } from './metrics';

export type BillingStepKind = 'period_end' | 'finalize_invoice' | 'charge_invoice' | 'check_bank_claim' | 'trial_notice';

const INVOICE_OUTCOMES: Record<string, string> = {
  'invoice.finalized': 'finalized',
  'invoice.paid': 'paid',
  'invoice.payment_failed': 'payment_failed',
  'invoice.voided': 'voided',
};

export function countBillingStep(metrics: Metrics, kind: BillingStepKind, events: readonly RecordedEvent[], periodEnd?: string): void {
  const types = new Set(events.map((e) => e.type as string));
  for (const t of types) if (INVOICE_OUTCOMES[t]) metrics.invoices.inc({ outcome: INVOICE_OUTCOMES[t] });
  if (kind === 'period_end' && periodEnd) metrics.renewals.inc({ outcome: periodEnd });
  if (kind === 'charge_invoice') {
    const outcome =
      types.has('invoice.paid') || types.has('payment.succeeded') ? 'succeeded' : types.has('invoice.payment_failed') || types.has('payment.failed') ? 'failed' : 'none';
    metrics.charges.inc({ outcome });
  }
  if (kind === 'check_bank_claim') {
    const outcome = types.has('invoice.paid') ? 'paid' : types.has('invoice.payment_failed') ? 'refused' : 'pending';
    metrics.bankClaims.inc({ outcome });
  }
}
