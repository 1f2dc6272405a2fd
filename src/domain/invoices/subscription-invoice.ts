import type { TenantDb } from '../../db/tenancy';
import type { Invoice, Subscription } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { findInvoice } from './find-invoices';

/** An invoice of a subscription, with its subscription (the invoice actions apply only to those). */
export async function findSubscriptionInvoice(db: TenantDb, id: string): Promise<{ invoice: Invoice; subscription: Subscription }> {
  const { invoice } = await findInvoice(db, id);
  if (!invoice.subscriptionId) throw errors.invalidState('Only subscription invoices are collected here; a payment invoice follows its payment', 'id');
  const subscription = await db.subscription.findFirstOrThrow({ where: { id: invoice.subscriptionId } });
  return { invoice, subscription };
}
