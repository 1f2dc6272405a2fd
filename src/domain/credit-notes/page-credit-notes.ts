// Credit notes newest first with a cursor, for the dashboard's list (the API's list is bounded
// without one, as the contract says: find-credit-notes.ts).
import type { TenantDb } from '../../db/tenancy';
import type { CreditNote, CreditNoteStatus } from '../../generated/prisma/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export async function pageCreditNotes(db: TenantDb, filter: { invoiceId?: string; status?: CreditNoteStatus }, params: PageParams): Promise<Page<CreditNote>> {
  const where = { ...(filter.invoiceId ? { invoiceId: filter.invoiceId } : {}), ...(filter.status ? { status: filter.status } : {}) };
  return listPage({
    params,
    findCursor: async (id) => {
      const r = await db.creditNote.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return r && { id: r.id, sortKey: r.createdAt };
    },
    fetch: (after, take) => db.creditNote.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
