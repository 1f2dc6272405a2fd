// The rules the views display come from the domain, once (issue 29): what of a payment may be
// refunded (the refund use case and the dashboard's payment page) and whether a customer may pay
// an invoice now (the portal's Pay button, from the invoice action table).
import assert from 'node:assert/strict';
import { paymentRefundable, promisedRefunds, refundableAmount } from '../../../src/domain/refunds/refundable-amount';
import { customerMayPayInvoice, type PayableInvoice } from '../../../src/domain/invoices/invoice-payability';

describe('rules the views display', () => {
  describe('refundableAmount', () => {
    const paid = { status: 'succeeded', amount: 10_000n, acquirerChargeId: 'ch_1' };

    it('is the amount less the refunds pending or succeeded; failed refunds do not count', () => {
      const promised = promisedRefunds([
        { status: 'succeeded', amount: 2_000n },
        { status: 'pending', amount: 1_500n },
        { status: 'failed', amount: 5_000n },
      ]);
      assert.equal(promised, 3_500n);
      assert.equal(refundableAmount(paid, promised), 6_500n);
      assert.equal(refundableAmount({ ...paid, status: 'partially_refunded' }, promised), 6_500n);
    });

    it('is 0 once everything is promised (never negative)', () => {
      assert.equal(refundableAmount(paid, 10_000n), 0n);
      assert.equal(refundableAmount(paid, 12_000n), 0n);
    });

    it('is 0 for a payment without an acquirer charge, whatever its status says (the check the dashboard used to miss)', () => {
      assert.equal(paymentRefundable({ status: 'succeeded', acquirerChargeId: null }), false);
      assert.equal(refundableAmount({ ...paid, acquirerChargeId: null }, 0n), 0n);
    });

    it('is 0 for payments that did not succeed', () => {
      for (const status of ['requires_payment_method', 'processing', 'failed', 'canceled', 'refunded']) {
        assert.equal(refundableAmount({ ...paid, status }, 0n), 0n, status);
      }
    });
  });

  describe('customerMayPayInvoice', () => {
    const open: PayableInvoice = { status: 'open', subscriptionId: 'sub_1', collectionMethod: 'charge_automatically', amountDue: 5_000, amountPaid: 0 };

    it('an open card-collected subscription invoice with something left to pay', () => {
      assert.equal(customerMayPayInvoice(open), true);
      assert.equal(customerMayPayInvoice({ ...open, collectionMethod: null }), true);
    });

    it('not: paid, void, draft or uncollectible (nothing remains or the pay rule refuses)', () => {
      for (const status of ['paid', 'void', 'draft', 'uncollectible'] as const) assert.equal(customerMayPayInvoice({ ...open, status }), false, status);
    });

    it('not: a bank-claim invoice, a one-off invoice, or nothing left to pay', () => {
      assert.equal(customerMayPayInvoice({ ...open, collectionMethod: 'send_invoice' }), false);
      assert.equal(customerMayPayInvoice({ ...open, subscriptionId: null }), false);
      assert.equal(customerMayPayInvoice({ ...open, amountPaid: 5_000 }), false);
    });
  });
});
