// Retrieve and list portal links. The list is bounded (like refunds and credit notes): at most
// `limit` links of one customer (or of the whole tenant), newest first, no cursor, no has_more.
import type { TenantDb } from '../../db/tenancy';
import type { CustomerPortalLink } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newestFirst } from '../../db/paging';
import { requireCustomer } from '../customers/find-customers';

export async function findPortalLink(db: TenantDb, id: string): Promise<CustomerPortalLink> {
  const row = await db.customerPortalLink.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such customer portal link: '${id}'`, 'id');
  return row;
}

export async function listPortalLinks(db: TenantDb, filter: { customerId?: string }, limit: number): Promise<CustomerPortalLink[]> {
  if (filter.customerId !== undefined) await requireCustomer(db, filter.customerId);
  return db.customerPortalLink.findMany({
    where: filter.customerId !== undefined ? { customerId: filter.customerId } : {},
    orderBy: newestFirst(),
    take: limit,
  });
}
