// The payment as the API returns it (and as payment.* events carry it). Amounts are minor units.
import type { Payment } from '../generated/prisma/client';
import { iso } from './iso';

export function presentPayment(p: Payment, invoiceId: string | null) {
  return {
    id: p.id,
    object: 'payment',
    status: p.status,
    amount: Number(p.amount),
    amount_refunded: Number(p.amountRefunded),
    currency: p.currency,
    customer: p.customerId,
    description: p.description,
    payment_method: p.paymentMethodId,
    invoice: invoiceId,
    external_reference: p.externalReference,
    failure_code: p.failureCode,
    failure_message: p.failureMessage,
    metadata: (p.metadata ?? {}) as Record<string, string>,
    succeeded_at: iso(p.succeededAt),
    canceled_at: iso(p.canceledAt),
    created_at: iso(p.createdAt),
  };
}
export type PaymentJson = ReturnType<typeof presentPayment>;
