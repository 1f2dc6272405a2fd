// Creates a refund (status `pending`) of a succeeded or partially refunded payment; the refund
// workflow then asks the acquirer and records the outcome (process-refund.ts). The payment row
// is locked while the refundable remainder is computed from the pending and succeeded refunds,
// so concurrent requests can never promise more than the charge: the second one waits for the
// first to commit and then sees its refund. Runs inside the caller's transaction; the caller
// starts the workflow and dispatches `events` after commit.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Refund } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { datingEventsAt, recordEvent, type RecordedEvent } from '../../events';
import { customerClockTime } from '../test-clocks/customer-clock-time';
import { lockPayment } from '../payments/lock-payment';
import { checkMetadata, checkText } from '../checks/payment-fields';
import { presentRefund } from '../../objects/refunds';
import { paymentRefundable, PROMISED_REFUND_STATUSES, refundableAmount } from './refundable-amount';

export const REFUND_REASON_MAX = 200;

export async function createRefund(
  db: TenantDb,
  tenant: Tenant,
  input: { paymentId: string; amount?: number | null; reason?: string | null; metadata?: Record<string, string> | null },
): Promise<{ refund: Refund; events: RecordedEvent[] }> {
  checkText(input.reason, REFUND_REASON_MAX, 'reason');
  const metadata = checkMetadata(input.metadata);
  if (input.amount !== undefined && input.amount !== null && (!Number.isSafeInteger(input.amount) || input.amount < 1)) {
    throw errors.validationFailed("amount must be a positive integer in the currency's minor unit", 'amount');
  }
  const payment = await lockPayment(db, tenant, input.paymentId);
  if (!payment) throw errors.resourceNotFound(`No such payment: '${input.paymentId}'`, 'payment');
  if (!paymentRefundable(payment)) {
    throw errors.invalidState(`The payment is ${payment.status}; only a succeeded or partially refunded payment can be refunded`, 'payment');
  }
  const promised = await db.refund.aggregate({ _sum: { amount: true }, where: { paymentId: payment.id, status: { in: [...PROMISED_REFUND_STATUSES] } } });
  const remaining = refundableAmount(payment, promised._sum.amount ?? 0n);
  if (remaining <= 0n) {
    throw errors.invalidState('The payment has been refunded in full (counting refunds still pending)', 'payment');
  }
  const amount = input.amount === undefined || input.amount === null ? remaining : BigInt(input.amount);
  if (amount > remaining) {
    throw errors.validationFailed(`amount ${amount} exceeds the ${remaining} left to refund of this payment (counting refunds still pending)`, 'amount');
  }
  // A test-clock customer's refund happens at the clock's time (docs/test-clocks.md "Timestamps").
  const clockTime = await customerClockTime(db, payment.customerId);
  const refund = await db.refund.create({
    data: {
      ...(clockTime ? { createdAt: clockTime } : {}),
      id: newId('refund'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      paymentId: payment.id,
      amount,
      currency: payment.currency,
      status: 'pending',
      reason: input.reason ?? null,
      metadata,
    },
  });
  const record = () => recordEvent(db, tenant, { type: 'refund.created', data: presentRefund(refund) });
  const event = clockTime ? await datingEventsAt(clockTime, record) : await record();
  return { refund, events: [event] };
}
