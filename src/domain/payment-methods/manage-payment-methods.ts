// Retrieve, list, detach and set_default for saved payment methods. A detached method is kept
// for the payments that used it but is gone for the API: not listed, not retrievable
// (resource_missing), never charged again; detaching the customer's default leaves the customer
// without a default (docs/payments.md). The default lives on the customer
// (customers.default_payment_method_id).
import type { TenantDb } from '../../db/tenancy';
import type { PaymentMethod } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { requireCustomer } from '../customers/find-customers';
import { customerClockTime } from '../test-clocks/customer-clock-time';

export interface PaymentMethodView {
  paymentMethod: PaymentMethod;
  isDefault: boolean;
}

async function defaultsOf(db: TenantDb, customerIds: string[]): Promise<Set<string>> {
  if (customerIds.length === 0) return new Set();
  const rows = await db.customer.findMany({ where: { id: { in: [...new Set(customerIds)] } }, select: { defaultPaymentMethodId: true } });
  return new Set(rows.map((r) => r.defaultPaymentMethodId).filter((id): id is string => id !== null));
}

async function view(db: TenantDb, pm: PaymentMethod): Promise<PaymentMethodView> {
  const defaults = await defaultsOf(db, [pm.customerId]);
  return { paymentMethod: pm, isDefault: defaults.has(pm.id) };
}

async function findAttached(db: TenantDb, id: string): Promise<PaymentMethod> {
  const pm = await db.paymentMethod.findFirst({ where: { id, detachedAt: null } });
  if (!pm) throw errors.resourceMissing(`No such payment method: '${id}'`, 'id');
  return pm;
}

export async function findPaymentMethod(db: TenantDb, id: string): Promise<PaymentMethodView> {
  return view(db, await findAttached(db, id));
}

export async function listPaymentMethods(db: TenantDb, filter: { customerId?: string }, params: PageParams): Promise<Page<PaymentMethodView>> {
  if (filter.customerId !== undefined) {
    await requireCustomer(db, filter.customerId);
  }
  const where = { detachedAt: null, ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}) };
  const page = await listPage({
    params,
    findCursor: async (id) => {
      const pm = await db.paymentMethod.findFirst({ where: { id, ...where }, select: { id: true, createdAt: true } });
      return pm && { id: pm.id, sortKey: pm.createdAt };
    },
    fetch: (after, take) => db.paymentMethod.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
  const defaults = await defaultsOf(
    db,
    page.data.map((pm) => pm.customerId),
  );
  return { hasMore: page.hasMore, data: page.data.map((pm) => ({ paymentMethod: pm, isDefault: defaults.has(pm.id) })) };
}

/** Irreversible. A second detach answers resource_missing, like any unknown id. */
export async function detachPaymentMethod(db: TenantDb, id: string, now: Date): Promise<{ id: string }> {
  const pm = await findAttached(db, id);
  // A test-clock customer's method is detached at the clock's time (docs/test-clocks.md).
  const at = (await customerClockTime(db, pm.customerId)) ?? now;
  const done = await db.paymentMethod.updateMany({ where: { id: pm.id, detachedAt: null }, data: { detachedAt: at } });
  if (done.count !== 1) throw errors.resourceMissing(`No such payment method: '${id}'`, 'id');
  await db.customer.updateMany({ where: { id: pm.customerId, defaultPaymentMethodId: pm.id }, data: { defaultPaymentMethodId: null } });
  return { id: pm.id };
}

export async function setDefaultPaymentMethod(db: TenantDb, id: string): Promise<PaymentMethodView> {
  const pm = await findAttached(db, id);
  await db.customer.updateMany({ where: { id: pm.customerId }, data: { defaultPaymentMethodId: pm.id } });
  // A detach that committed meanwhile must not leave a detached default behind.
  const still = await db.paymentMethod.findFirst({ where: { id: pm.id, detachedAt: null }, select: { id: true } });
  if (!still) throw errors.resourceMissing(`No such payment method: '${id}'`, 'id');
  return { paymentMethod: pm, isDefault: true };
}
