// amount_remaining per invoice status (src/billing/invoice-amounts.ts, docs/invoices.md).
import assert from 'node:assert/strict';
import { amountRemaining, type InvoiceStatusName } from '../../../src/billing';

describe('amountRemaining', () => {
  const cases: Array<[InvoiceStatusName, number, number, number]> = [
    ['open', 4990, 0, 4990],
    ['open', 4990, 4990, 0],
    ['open', 0, 0, 0],
    ['draft', 4990, 0, 0],
    ['paid', 4990, 4990, 0],
    ['void', 4990, 0, 0],
    ['uncollectible', 3100, 0, 0],
  ];
  for (const [status, due, paid, expected] of cases) {
    it(`${status}: due ${due}, paid ${paid} -> ${expected}`, () => {
      assert.equal(amountRemaining({ status, amountDue: BigInt(due), amountPaid: BigInt(paid) }), expected);
      assert.equal(amountRemaining({ status, amountDue: due, amountPaid: paid }), expected);
    });
  }
  it('never negative', () => {
    assert.equal(amountRemaining({ status: 'open', amountDue: 100n, amountPaid: 150n }), 0);
  });
});
