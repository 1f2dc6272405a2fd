// Builds one subscription invoice (status `draft`) inside the caller's transaction: gathers the
// items, prices, meter quantities, rollover credit and pending invoice items, runs the pure
// assembler (src/billing assembleSubscriptionInvoice) and stores the invoice, its lines and the
// attachments. Exactly once: the invoice's period_key is UNIQUE per merchant and mode, and an
// existing invoice with the key is returned instead of a second one (docs/subscriptions.md).
//
// period_key = `${subscriptionId}:${keyPart}:${billingReason}` where keyPart is the boundary's
// ISO instant for cycle and create invoices (the instant the invoice is issued: the start of the
// period billed in advance), and the command id for invoices of an item change (always_invoice):
// two changes may happen at the same instant on a test clock.
//
// In three parts (one file each): gather (every database read: ./gather-invoice-inputs.ts) →
// assemble (pure, unit-tested: ./assemble-invoice.ts) → persist (the writes:
// ./persist-invoice.ts). The statements and their order are those of one function before.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, InvoiceLine } from '../../generated/prisma/client';
import { gatherInvoiceInputs } from './gather-invoice-inputs';
import { assembleInvoiceDraft } from './assemble-invoice';
import { persistInvoiceDraft } from './persist-invoice';
import type { BuildInvoiceInput, SubscriptionBillingReason } from './build-invoice-input';

export type { BuildInvoiceInput, Period, SubscriptionBillingReason } from './build-invoice-input';

export function periodKey(subscriptionId: string, keyPart: string, reason: SubscriptionBillingReason): string {
  return `${subscriptionId}:${keyPart}:${reason}`;
}

export interface BuiltInvoice {
  invoice: Invoice;
  created: boolean;
  /** The lines this call wrote, in position order (only when it created the invoice). */
  lines?: InvoiceLine[];
}

/** Null when the invoice would have no line at all (nothing to bill): no invoice is made. */
export async function buildSubscriptionInvoice(db: TenantDb, tenant: Tenant, input: BuildInvoiceInput): Promise<BuiltInvoice | null> {
  const key = periodKey(input.subscription.id, input.keyPart, input.billingReason);
  const gathered = await gatherInvoiceInputs(db, tenant, input, key);
  if (gathered.existing) return { invoice: gathered.existing, created: false };
  const draft = assembleInvoiceDraft(input, gathered);
  if (draft === null) return null;
  const { invoice, lines } = await persistInvoiceDraft(db, tenant, input, key, gathered, draft);
  return { invoice, created: true, lines };
}
