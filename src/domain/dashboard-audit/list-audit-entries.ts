// The audit log of a merchant, newest first, paged like every list.
import type { Db } from '../../db/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import type { DashboardAuditEntry } from '../../generated/prisma/client';

export async function listAuditEntries(db: Pick<Db, 'dashboardAuditEntry'>, merchantId: string, params: PageParams): Promise<Page<DashboardAuditEntry>> {
  return listPage({
    params,
    findCursor: async (id) => {
      const row = await db.dashboardAuditEntry.findFirst({ where: { id, merchantId } });
      return row ? { id: row.id, sortKey: row.createdAt } : null;
    },
    fetch: (after, take) => db.dashboardAuditEntry.findMany({ where: { merchantId, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
