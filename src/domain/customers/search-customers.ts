// The dashboard's customer search: one box that finds a customer by e-mail, name, kennitala or
// the merchant's external id (case-insensitive substring; a kennitala also matches typed with a
// hyphen), newest first and paged like every list.
import type { TenantDb } from '../../db/tenancy';
import type { Customer, Prisma } from '../../generated/prisma/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export const SEARCH_MAX_LENGTH = 200;

/** The search text as the lists use it: trimmed and cut to SEARCH_MAX_LENGTH. */
export function searchText(query: string): string {
  return query.trim().slice(0, SEARCH_MAX_LENGTH);
}

/**
 * A case-insensitive "contains" filter on the text as typed. Prisma passes `contains` to LIKE
 * without escaping its wildcards, so `%`, `_` and `\` are escaped here: "%" finds a percent sign,
 * not every row.
 */
export function containsText(q: string): { contains: string; mode: 'insensitive' } {
  return { contains: q.replace(/[\\%_]/g, (c) => `\\${c}`), mode: 'insensitive' };
}

/**
 * The one rule for "this customer matches the search box": e-mail, name or external id contain
 * it (any case), or its digits (spaces and hyphens dropped) are part of the kennitala. A Prisma
 * filter: parameterised, and run on a tenant-scoped client it sees one merchant and mode only.
 * Used by the customer search and, through the invoice's customer, by the invoice search.
 */
export function customerMatch(q: string): Prisma.CustomerWhereInput {
  const digits = q.replace(/[\s-]/g, '');
  return {
    OR: [{ email: containsText(q) }, { name: containsText(q) }, { externalId: containsText(q) }, ...(/^\d{1,10}$/.test(digits) ? [{ kennitala: { contains: digits } }] : [])],
  };
}

export async function searchCustomers(db: TenantDb, query: string, params: PageParams): Promise<Page<Customer>> {
  const q = searchText(query);
  const where = q ? customerMatch(q) : {};
  return listPage({
    params,
    findCursor: async (id) => {
      const c = await db.customer.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return c && { id: c.id, sortKey: c.createdAt };
    },
    fetch: (after, take) => db.customer.findMany({ where: { AND: [where, after ?? {}] }, orderBy: newestFirst(), take }),
  });
}
