// Retrieve and list customers within the tenant (an id of another merchant or mode is unknown).
import type { TenantDb } from '../../db/tenancy';
import type { Customer } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export async function findCustomer(db: TenantDb, id: string): Promise<Customer> {
  const row = await db.customer.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such customer: '${id}'`, 'id');
  return row;
}

/** For ids given in a body or query (`customer`): unknown answers 404 resource_not_found. */
export async function requireCustomer(db: TenantDb, id: string, param = 'customer'): Promise<Customer> {
  const row = await db.customer.findFirst({ where: { id } });
  if (!row) throw errors.resourceNotFound(`No such customer: '${id}'`, param);
  return row;
}

export async function listCustomers(db: TenantDb, params: PageParams): Promise<Page<Customer>> {
  return listPage({
    params,
    findCursor: async (id) => {
      const c = await db.customer.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return c && { id: c.id, sortKey: c.createdAt };
    },
    fetch: (after, take) => db.customer.findMany({ where: { ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
