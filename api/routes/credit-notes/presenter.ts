// Credit notes as the API returns them (and as credit_note.created carries them).
import type { CreditNote } from '../../../src/generated/prisma/client';
import { iso } from '../../validate';

export function presentCreditNote(cn: CreditNote) {
  return {
    id: cn.id,
    object: 'credit_note',
    invoice: cn.invoiceId,
    refund: cn.refundId,
    amount: Number(cn.amount),
    currency: cn.currency,
    reason: cn.reason,
    status: cn.status,
    created_at: iso(cn.createdAt),
  };
}
