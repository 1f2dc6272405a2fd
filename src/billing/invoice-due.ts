// When an invoice is due and whether it is past due: the one rule for the invoice object's
// `due_date`, its document, the dashboard (lists, the home figure, its chart and the attention
// panel), the portal and the exports (docs/invoices.md "Due date and past due").
//
// Due date
//   send_invoice (a bank claim)       the claim's due date, set when the invoice is finalized
//   charge_automatically (a card)     the issue date (finalized_at): the card is charged at once
//   draft                             none: not issued yet
//
// Past due: an open invoice that still owes money (amountRemaining > 0) and
//   - a card invoice in payment retry: at least one collection attempt failed (an open card
//     invoice with an attempt behind it failed that attempt; a charge that succeeds pays it), or
//   - a bank claim whose due date has passed.
// A void, uncollectible, paid or draft invoice is never past due (it owes 0, amountRemaining).
// A card invoice not yet attempted is not past due, whatever its due date: its charge is on its way.
//
// Days past due count from the due date; the SQL form is ../domain/invoices/past-due-sql.ts.
import { amountRemaining, type InvoiceStatusName } from './invoice-amounts';

export interface InvoiceDueFields {
  status: InvoiceStatusName;
  collectionMethod: string | null;
  dueDate: Date | null;
  finalizedAt: Date | null;
}

export interface InvoicePastDueFields extends InvoiceDueFields {
  amountDue: bigint | number;
  amountPaid: bigint | number;
  attemptCount: number;
}

/** A bank claim invoice; every other invoice (card subscriptions, payments) is charged to a card. */
export function isBankInvoice(invoice: { collectionMethod: string | null }): boolean {
  return invoice.collectionMethod === 'send_invoice';
}

/** The date the invoice is due, as every surface shows it; null for a draft. */
export function invoiceDueDate(invoice: InvoiceDueFields): Date | null {
  if (invoice.status === 'draft') return null;
  if (isBankInvoice(invoice)) return invoice.dueDate ?? invoice.finalizedAt;
  return invoice.finalizedAt ?? invoice.dueDate;
}

export function isPastDue(invoice: InvoicePastDueFields, now: Date): boolean {
  if (invoice.status !== 'open' || amountRemaining(invoice) <= 0) return false;
  if (isBankInvoice(invoice)) return invoice.dueDate !== null && invoice.dueDate.getTime() < now.getTime();
  return invoice.attemptCount > 0;
}

/** Whole days since the due date of a past-due invoice (0 on its due day). */
export function daysPastDue(invoice: InvoiceDueFields, now: Date): number {
  const due = invoiceDueDate(invoice);
  if (!due) return 0;
  return Math.max(0, Math.floor((now.getTime() - due.getTime()) / 86_400_000));
}
