// What of a payment may still be refunded: the one rule for the refund use case
// (create-refund.ts, which applies it under the payment's row lock) and every view that offers a
// refund (the dashboard's payment page). Pure.
//   - only a succeeded or partially refunded payment with a charge at the acquirer is refundable;
//   - refunds promised already (pending or succeeded) count against it; failed ones do not.

/** Refund statuses that count against what is left to refund. */
export const PROMISED_REFUND_STATUSES = ['pending', 'succeeded'] as const;

export interface RefundablePayment {
  status: string;
  amount: bigint;
  acquirerChargeId: string | null;
}

/** Whether the payment can be refunded at all (whatever was refunded already). */
export function paymentRefundable(payment: Omit<RefundablePayment, 'amount'>): boolean {
  return (payment.status === 'succeeded' || payment.status === 'partially_refunded') && payment.acquirerChargeId !== null;
}

/** The sum of the refunds that count against the payment. */
export function promisedRefunds(refunds: ReadonlyArray<{ status: string; amount: bigint }>): bigint {
  return refunds.filter((r) => (PROMISED_REFUND_STATUSES as readonly string[]).includes(r.status)).reduce((sum, r) => sum + r.amount, 0n);
}

/** What may still be refunded (minor units): 0 when nothing. */
export function refundableAmount(payment: RefundablePayment, promised: bigint): bigint {
  if (!paymentRefundable(payment)) return 0n;
  const remaining = payment.amount - promised;
  return remaining > 0n ? remaining : 0n;
}
