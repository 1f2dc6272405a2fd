// A customer removes a saved card in the portal. The default card cannot be removed there (the
// customer makes another card the default first): subscriptions charge the default, and a
// portal must not leave them without one by accident. The API's detach has no such rule.
import type { TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { detachPaymentMethod } from '../payment-methods/manage-payment-methods';
import { customerPaymentMethod } from './customer-owned';

export async function removeCustomerCard(db: TenantDb, customerId: string, paymentMethodId: string, now: Date): Promise<{ id: string; removed: boolean }> {
  const pm = await db.paymentMethod.findFirst({ where: { id: paymentMethodId, customerId } });
  // Removed already (a double submit): nothing to do.
  if (pm && pm.detachedAt !== null) return { id: pm.id, removed: false };
  await customerPaymentMethod(db, customerId, paymentMethodId);
  const customer = await db.customer.findFirstOrThrow({ where: { id: customerId }, select: { defaultPaymentMethodId: true } });
  if (customer.defaultPaymentMethodId === paymentMethodId) {
    throw errors.invalidState('The default card cannot be removed here; make another card the default first', 'id');
  }
  await detachPaymentMethod(db, paymentMethodId, now);
  return { id: paymentMethodId, removed: true };
}
