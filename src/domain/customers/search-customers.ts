// The dashboard's customer search: one box that finds a customer by e-mail, name, kennitala or
// the merchant's external id (case-insensitive substring; a kennitala also matches typed with a
// hyphen), newest first and paged like every list.
import type { TenantDb } from '../../db/tenancy';
import type { Customer } from '../../generated/prisma/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export const SEARCH_MAX_LENGTH = 200;

export async function searchCustomers(db: TenantDb, query: string, params: PageParams): Promise<Page<Customer>> {
  const q = query.trim().slice(0, SEARCH_MAX_LENGTH);
  const digits = q.replace(/[\s-]/g, '');
  const where = q
    ? {
        OR: [
          { email: { contains: q, mode: 'insensitive' as const } },
          { name: { contains: q, mode: 'insensitive' as const } },
          { externalId: { contains: q, mode: 'insensitive' as const } },
          ...(/^\d{1,10}$/.test(digits) ? [{ kennitala: { contains: digits } }] : []),
        ],
      }
    : {};
  return listPage({
    params,
    findCursor: async (id) => {
      const c = await db.customer.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return c && { id: c.id, sortKey: c.createdAt };
    },
    fetch: (after, take) => db.customer.findMany({ where: { AND: [where, after ?? {}] }, orderBy: newestFirst(), take }),
  });
}
