// Objects a portal session may act on: only its own customer's. Anything else (another
// customer's, another merchant's, the other mode's, or unknown) answers 404 resource_missing,
// exactly as an unknown id, so a portal session learns nothing about other customers.
import type { TenantDb } from '../../db/tenancy';
import type { CreditNote, Invoice, PaymentMethod, Subscription } from '../../generated/prisma/client';
import { errors } from '../../errors';

export async function customerSubscription(db: TenantDb, customerId: string, id: string): Promise<Subscription> {
  const row = await db.subscription.findFirst({ where: { id, customerId } });
  if (!row) throw errors.resourceMissing(`No such subscription: '${id}'`, 'id');
  return row;
}

export async function customerInvoice(db: TenantDb, customerId: string, id: string): Promise<Invoice> {
  const row = await db.invoice.findFirst({ where: { id, customerId } });
  if (!row) throw errors.resourceMissing(`No such invoice: '${id}'`, 'id');
  return row;
}

export async function customerCreditNote(db: TenantDb, customerId: string, id: string): Promise<CreditNote> {
  const row = await db.creditNote.findFirst({ where: { id, invoice: { customerId } } });
  if (!row) throw errors.resourceMissing(`No such credit note: '${id}'`, 'id');
  return row;
}

export async function customerPaymentMethod(db: TenantDb, customerId: string, id: string): Promise<PaymentMethod> {
  const row = await db.paymentMethod.findFirst({ where: { id, customerId, detachedAt: null } });
  if (!row) throw errors.resourceMissing(`No such payment method: '${id}'`, 'id');
  return row;
}
