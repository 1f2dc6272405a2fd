// Retrieve and list subscriptions and their items within the tenant (an id of another merchant
// or mode is unknown).
import type { TenantDb } from '../../db/tenancy';
import type { Subscription, SubscriptionItem, SubscriptionStatus } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export interface SubscriptionWithItems {
  subscription: Subscription;
  items: SubscriptionItem[];
}

/** The live items of a subscription, oldest first (deleted items are gone for the API and billing). */
export async function itemsOf(db: TenantDb, subscriptionId: string): Promise<SubscriptionItem[]> {
  return db.subscriptionItem.findMany({ where: { subscriptionId, deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function findSubscription(db: TenantDb, id: string, param = 'id'): Promise<Subscription> {
  const row = await db.subscription.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such subscription: '${id}'`, param);
  return row;
}

/** For ids given in a body (`subscription`): unknown answers 404 resource_not_found. */
export async function requireSubscription(db: TenantDb, id: string, param = 'subscription'): Promise<Subscription> {
  const row = await db.subscription.findFirst({ where: { id } });
  if (!row) throw errors.resourceNotFound(`No such subscription: '${id}'`, param);
  return row;
}

export async function findSubscriptionWithItems(db: TenantDb, id: string, param = 'id'): Promise<SubscriptionWithItems> {
  const subscription = await findSubscription(db, id, param);
  return { subscription, items: await itemsOf(db, subscription.id) };
}

export async function findSubscriptionItem(db: TenantDb, id: string, param = 'id'): Promise<SubscriptionItem> {
  const row = await db.subscriptionItem.findFirst({ where: { id, deletedAt: null } });
  if (!row) throw errors.resourceMissing(`No such subscription item: '${id}'`, param);
  return row;
}

export async function listSubscriptions(db: TenantDb, filter: { customerId?: string; status?: SubscriptionStatus }, params: PageParams): Promise<Page<SubscriptionWithItems>> {
  if (filter.customerId !== undefined) {
    const c = await db.customer.findFirst({ where: { id: filter.customerId }, select: { id: true } });
    if (!c) throw errors.resourceNotFound(`No such customer: '${filter.customerId}'`, 'customer');
  }
  const where = {
    ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
    ...(filter.status !== undefined ? { status: filter.status } : {}),
  };
  const page = await listPage({
    params,
    findCursor: async (id) => {
      const s = await db.subscription.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return s && { id: s.id, sortKey: s.createdAt };
    },
    fetch: (after, take) => db.subscription.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
  const ids = page.data.map((s) => s.id);
  const items = ids.length ? await db.subscriptionItem.findMany({ where: { subscriptionId: { in: ids }, deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }) : [];
  const bySub = new Map<string, SubscriptionItem[]>();
  for (const it of items) bySub.set(it.subscriptionId, [...(bySub.get(it.subscriptionId) ?? []), it]);
  return { data: page.data.map((s) => ({ subscription: s, items: bySub.get(s.id) ?? [] })), hasMore: page.hasMore };
}
