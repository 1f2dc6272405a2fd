// Refunds newest first with a cursor, for the dashboard's list (the API's list is bounded
// without one, as the contract says: find-refunds.ts).
import type { TenantDb } from '../../db/tenancy';
import type { Refund } from '../../generated/prisma/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export async function pageRefunds(db: TenantDb, filter: { paymentId?: string }, params: PageParams): Promise<Page<Refund>> {
  const where = filter.paymentId ? { paymentId: filter.paymentId } : {};
  return listPage({
    params,
    findCursor: async (id) => {
      const r = await db.refund.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return r && { id: r.id, sortKey: r.createdAt };
    },
    fetch: (after, take) => db.refund.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
