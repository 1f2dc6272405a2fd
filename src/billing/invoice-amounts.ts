// What a customer still owes on one invoice (`amount_remaining`), per status. The one rule for
// the invoice object, its document, the dashboard, the portal and the ledger's invariant
// (docs/invoices.md "Amount remaining"):
//   open           amount_due − amount_paid (never below 0)
//   draft          0: not finalized, nothing is owed yet (amount_due shows what it will ask)
//   paid           0
//   void           0: no longer collectible; voiding reversed the receivable in the ledger
//   uncollectible  0: written off; the ledger moved the receivable to bad_debt (if it is paid
//                  later, the write-off is reversed before the payment and the invoice is paid)
// So, per customer, Σ amount_remaining over their invoices = their accounts_receivable balance.

export type InvoiceStatusName = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

/** The statuses whose invoices still owe money (the ones the ledger keeps in receivable). */
export const COLLECTIBLE_INVOICE_STATUSES: readonly InvoiceStatusName[] = ['open'];

export function amountRemaining(invoice: { status: InvoiceStatusName; amountDue: bigint | number; amountPaid: bigint | number }): number {
  if (!COLLECTIBLE_INVOICE_STATUSES.includes(invoice.status)) return 0;
  const remaining = Number(invoice.amountDue) - Number(invoice.amountPaid);
  return remaining > 0 ? remaining : 0;
}
