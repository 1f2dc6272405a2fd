// Retrieve and list portal links: a paged list like every other (newest first, `starting_after`,
// `has_more`), of one customer or of the whole tenant.
import type { TenantDb } from '../../db/tenancy';
import type { CustomerPortalLink } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { requireCustomer } from '../customers/find-customers';

export async function findPortalLink(db: TenantDb, id: string): Promise<CustomerPortalLink> {
  const row = await db.customerPortalLink.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such customer portal link: '${id}'`, 'id');
  return row;
}

export async function listPortalLinks(db: TenantDb, filter: { customerId?: string }, params: PageParams): Promise<Page<CustomerPortalLink>> {
  if (filter.customerId !== undefined) await requireCustomer(db, filter.customerId);
  const where = filter.customerId !== undefined ? { customerId: filter.customerId } : {};
  return listPage({
    params,
    findCursor: async (id) => {
      const row = await db.customerPortalLink.findFirst({ where: { id, ...where }, select: { id: true, createdAt: true } });
      return row && { id: row.id, sortKey: row.createdAt };
    },
    fetch: (after, take) => db.customerPortalLink.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
