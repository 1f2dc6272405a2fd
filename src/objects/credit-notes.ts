// Credit notes as the API returns them (and as credit_note.created carries them).
import type { CreditNote } from '../generated/prisma/client';
import { iso } from './iso';
import { presentVatBreakdown } from './vat-breakdown';

export function presentCreditNote(cn: CreditNote) {
  return {
    id: cn.id,
    object: 'credit_note',
    invoice: cn.invoiceId,
    refund: cn.refundId,
    amount: Number(cn.amount),
    currency: cn.currency,
    vat_amount: Number(cn.vatAmount),
    vat_breakdown: presentVatBreakdown(cn.vatBreakdown),
    reason: cn.reason,
    status: cn.status,
    created_at: iso(cn.createdAt),
  };
}
