// Whether a customer may pay an invoice now (the portal's Pay button), from the same rules the
// pay action applies: the invoice action table (INVOICE_ACTION_RULES: what "pay now" does to an
// invoice of each status), only a subscription's invoice collected by card (a send_invoice
// invoice is paid through its bank claim), and something left to pay (amountRemaining). Pure.
import { invoiceActionVerdict } from '../../contracts/subscription-commands';
import { amountRemaining, type InvoiceStatusName } from '../../billing/invoice-amounts';

export interface PayableInvoice {
  status: InvoiceStatusName;
  subscriptionId: string | null;
  collectionMethod: string | null;
  amountDue: bigint | number;
  amountPaid: bigint | number;
}

export function customerMayPayInvoice(invoice: PayableInvoice): boolean {
  return invoiceActionVerdict('pay', invoice.status) === 'apply' && invoice.subscriptionId !== null && invoice.collectionMethod !== 'send_invoice' && amountRemaining(invoice) > 0;
}
