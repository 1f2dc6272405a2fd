// Invoice items as the API returns them. `amount` is the unit amount; the invoice line is
// amount × quantity. `invoice` is null while the item is pending.
import type { InvoiceItem } from '../generated/prisma/client';
import { iso } from './iso';

export function presentInvoiceItem(ii: InvoiceItem) {
  return {
    id: ii.id,
    object: 'invoice_item',
    customer: ii.customerId,
    subscription: ii.subscriptionId,
    invoice: ii.invoiceId,
    pending: ii.invoiceId === null,
    amount: Number(ii.amount),
    quantity: ii.quantity,
    currency: ii.currency,
    description: ii.description,
    proration: ii.proration,
    vat_rate: ii.vatRate,
    period_start: iso(ii.periodStart),
    period_end: iso(ii.periodEnd),
    metadata: (ii.metadata ?? {}) as Record<string, string>,
    created_at: iso(ii.createdAt),
  };
}
