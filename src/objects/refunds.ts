// Refunds as the API returns them (and as refund.* events carry them).
import type { Refund } from '../generated/prisma/client';
import { iso } from './iso';

export function presentRefund(r: Refund) {
  return {
    id: r.id,
    object: 'refund',
    payment: r.paymentId,
    amount: Number(r.amount),
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    failure_code: r.failureCode,
    failure_reason: r.failureMessage,
    metadata: (r.metadata ?? {}) as Record<string, string>,
    succeeded_at: iso(r.succeededAt),
    failed_at: iso(r.failedAt),
    created_at: iso(r.createdAt),
  };
}
