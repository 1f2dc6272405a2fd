// Credit notes are issued by the refund workflow (src/domain/refunds/process-refund.ts); the API
// only reads them. The list is bounded: at most `limit`, newest first, no has_more;
// `starting_after` as on every list.
import type { TenantDb } from '../../db/tenancy';
import type { CreditNote } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export async function findCreditNote(db: TenantDb, id: string): Promise<CreditNote> {
  const row = await db.creditNote.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such credit note: '${id}'`, 'id');
  return row;
}

export async function listCreditNotes(db: TenantDb, filter: { invoiceId?: string }, params: PageParams): Promise<Page<CreditNote>> {
  if (filter.invoiceId !== undefined) {
    const parent = await db.invoice.findFirst({ where: { id: filter.invoiceId }, select: { id: true } });
    if (!parent) throw errors.resourceNotFound(`No such invoice: '${filter.invoiceId}'`, 'invoice');
  }
  const where = filter.invoiceId !== undefined ? { invoiceId: filter.invoiceId } : {};
  // starting_after, when given, must name one of the list's own rows (unknown, foreign or
  // other-mode ids answer resource_missing, as on every list).
  return listPage({
    params,
    findCursor: async (id) => {
      const row = await db.creditNote.findFirst({ where: { id, ...where }, select: { id: true, createdAt: true } });
      return row && { id: row.id, sortKey: row.createdAt };
    },
    fetch: (after, take) => db.creditNote.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
