// The billing steps' outcomes as counted from what each step returned.
import assert from 'node:assert/strict';
import { createMetrics } from '../../../src/observability/metrics';
import { countBillingStep } from '../../../src/observability/step-outcomes';
import type { RecordedEvent } from '../../../src/events/record-event';

const ev = (type: string): RecordedEvent => ({ id: `evt_${type}`, type: type as RecordedEvent['type'], merchantId: 'merch_1', mode: 'test', createdAt: new Date() });

async function value(metrics: ReturnType<typeof createMetrics>, name: string, outcome: string): Promise<number> {
  const m = (await metrics.registry.getMetricsAsJSON()).find((x) => x.name === name);
  return (m?.values as Array<{ value: number; labels: Record<string, string> }> | undefined)?.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

describe('billing step outcomes', () => {
  it('counts renewals by what the period end did, and the invoice and charge outcomes from the events', async () => {
    const metrics = createMetrics();
    countBillingStep(metrics, 'period_end', [], 'renewal');
    countBillingStep(metrics, 'period_end', [], 'canceled');
    countBillingStep(metrics, 'finalize_invoice', [ev('invoice.finalized')]);
    countBillingStep(metrics, 'charge_invoice', [ev('payment.succeeded'), ev('invoice.paid')]);
    countBillingStep(metrics, 'charge_invoice', [ev('payment.failed'), ev('invoice.payment_failed')]);
    countBillingStep(metrics, 'charge_invoice', []);
    countBillingStep(metrics, 'check_bank_claim', []);
    countBillingStep(metrics, 'check_bank_claim', [ev('invoice.paid')]);
    assert.equal(await value(metrics, 'billing_renewals_total', 'renewal'), 1);
    assert.equal(await value(metrics, 'billing_renewals_total', 'canceled'), 1);
    assert.equal(await value(metrics, 'billing_invoices_total', 'finalized'), 1);
    assert.equal(await value(metrics, 'billing_invoices_total', 'paid'), 2);
    assert.equal(await value(metrics, 'billing_invoices_total', 'payment_failed'), 1);
    assert.equal(await value(metrics, 'billing_charges_total', 'succeeded'), 1);
    assert.equal(await value(metrics, 'billing_charges_total', 'failed'), 1);
    assert.equal(await value(metrics, 'billing_charges_total', 'none'), 1);
    assert.equal(await value(metrics, 'billing_bank_claims_total', 'pending'), 1);
    assert.equal(await value(metrics, 'billing_bank_claims_total', 'paid'), 1);
  });

  it('the accounting sync lag is the largest over the links, and a caught-up link drops out', async () => {
    const metrics = createMetrics();
    metrics.setAccountingSyncLag('al_1', 30);
    metrics.setAccountingSyncLag('al_2', 90);
    assert.match(await metrics.registry.metrics(), /^billing_accounting_sync_lag_seconds 90$/m);
    metrics.setAccountingSyncLag('al_2', 0);
    assert.match(await metrics.registry.metrics(), /^billing_accounting_sync_lag_seconds 30$/m);
  });
});
