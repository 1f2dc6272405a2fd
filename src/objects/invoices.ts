// Invoices as the API returns them: `lines` only when given (retrieve and invoice.* events),
// never in list items. Amounts are minor units.
import { invoiceDueDate } from '../billing/invoice-due';
import type { Invoice, InvoiceLine } from '../generated/prisma/client';
import { amountRemaining } from '../billing/invoice-amounts';
import { iso } from './iso';
import { presentVatBreakdown } from './vat-breakdown';

export function presentInvoiceLine(l: InvoiceLine) {
  return {
    id: l.id,
    object: 'invoice_line',
    kind: l.kind,
    description: l.description,
    amount: Number(l.amount),
    unit_amount: l.unitAmount === null ? null : Number(l.unitAmount),
    quantity: Number(l.quantity),
    currency: l.currency,
    proration: l.proration,
    vat_rate: l.vatRate,
    vat_percent: l.vatBasisPoints / 100,
    vat_amount: Number(l.vatAmount),
    period_start: iso(l.periodStart),
    period_end: iso(l.periodEnd),
  };
}

export function presentInvoice(inv: Invoice, lines?: InvoiceLine[]) {
  return {
    id: inv.id,
    object: 'invoice',
    number: inv.number,
    customer: inv.customerId,
    subscription: inv.subscriptionId,
    payment: inv.paymentId,
    status: inv.status,
    billing_reason: inv.billingReason,
    /** `charge_automatically` (a card) or `send_invoice` (a bank claim): what the due date and past due mean (docs/invoices.md). */
    collection_method: inv.collectionMethod,
    currency: inv.currency,
    subtotal: Number(inv.subtotal),
    discount_amount: Number(inv.discountAmount),
    total: Number(inv.total),
    vat_amount: Number(inv.vatAmount),
    total_excluding_vat: Number(inv.total - inv.vatAmount),
    prices_include_vat: inv.pricesIncludeVat,
    vat_breakdown: presentVatBreakdown(inv.vatBreakdown),
    amount_due: Number(inv.amountDue),
    amount_paid: Number(inv.amountPaid),
    /** What is still owed, per status (docs/invoices.md "Amount remaining"): 0 unless open. */
    amount_remaining: amountRemaining(inv),
    period_start: iso(inv.periodStart),
    period_end: iso(inv.periodEnd),
    /** Card invoices: the issue date; bank claims: the claim's due date (invoiceDueDate, docs/invoices.md). */
    due_date: iso(invoiceDueDate(inv)),
    finalized_at: iso(inv.finalizedAt),
    paid_at: iso(inv.paidAt),
    voided_at: iso(inv.voidedAt),
    /** When the next automatic collection attempt is due; null when none is (paid, void, or waiting for the merchant). */
    next_payment_attempt: iso(inv.nextPaymentAttemptAt),
    /** Collection attempts made; an open card invoice with one or more is in payment retry (past due). */
    attempt_count: inv.attemptCount,
    /** The last failed collection attempt: a decline, or an outside system's refusal (docs/subscriptions.md "Refusals"). */
    last_payment_error:
      inv.lastPaymentErrorCode === null ? null : { code: inv.lastPaymentErrorCode, message: inv.lastPaymentErrorMessage, occurred_at: iso(inv.lastPaymentErrorAt) },
    metadata: (inv.metadata ?? {}) as Record<string, string>,
    created_at: iso(inv.createdAt),
    ...(lines ? { lines: [...lines].sort((a, b) => a.position - b.position).map(presentInvoiceLine) } : {}),
  };
}
export type InvoiceJson = ReturnType<typeof presentInvoice>;
