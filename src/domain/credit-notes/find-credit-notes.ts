// Credit notes are issued by the refund workflow (src/domain/refunds/process-refund.ts); the API
// only reads them. The list is bounded: at most `limit`, newest first, no cursor, no has_more.
import type { TenantDb } from '../../db/tenancy';
import type { CreditNote } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newestFirst } from '../../db/paging';

export async function findCreditNote(db: TenantDb, id: string): Promise<CreditNote> {
  const row = await db.creditNote.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such credit note: '${id}'`, 'id');
  return row;
}

export async function listCreditNotes(db: TenantDb, filter: { invoiceId?: string }, limit: number): Promise<CreditNote[]> {
  if (filter.invoiceId !== undefined) {
    const inv = await db.invoice.findFirst({ where: { id: filter.invoiceId }, select: { id: true } });
    if (!inv) throw errors.resourceNotFound(`No such invoice: '${filter.invoiceId}'`, 'invoice');
  }
  return db.creditNote.findMany({
    where: filter.invoiceId !== undefined ? { invoiceId: filter.invoiceId } : {},
    orderBy: newestFirst(),
    take: limit,
  });
}
