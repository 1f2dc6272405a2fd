// The sync log: one record per ledger posting queued for the link (pending → synced with the
// provider's id, or failed with the provider's message), newest first. (The manual re-sync of a
// failed record is resync-accounting-record.ts.)
import type { TenantDb } from '../../db/tenancy';
import type { AccountingSyncRecord, AccountingSyncStatus } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { findAccountingLink } from './find-accounting-link';

export type SyncRecordView = AccountingSyncRecord & { posting: { kind: string; invoiceId: string | null } };

/**
 * The current link's records, or with `linkId` those of any link the merchant had (a replaced or
 * disconnected link's records stay readable: the audit trail of what was sent to which provider).
 */
export async function listSyncRecords(db: TenantDb, filter: { status?: AccountingSyncStatus; linkId?: string }, params: PageParams): Promise<Page<SyncRecordView>> {
  const link = filter.linkId ? await db.accountingLink.findFirst({ where: { id: filter.linkId }, select: { id: true } }) : await findAccountingLink(db);
  if (!link) throw errors.resourceMissing(`No such accounting link: '${filter.linkId}'`, 'link');
  const where = { linkId: link.id, ...(filter.status ? { status: filter.status } : {}) };
  return listPage({
    params,
    findCursor: async (id) => {
      const r = await db.accountingSyncRecord.findFirst({ where: { id, linkId: link.id }, select: { id: true, createdAt: true } });
      return r && { id: r.id, sortKey: r.createdAt };
    },
    fetch: async (after, take) => {
      const rows = await db.accountingSyncRecord.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take });
      const postings = await db.ledgerPosting.findMany({ where: { id: { in: rows.map((r) => r.postingId) } }, select: { id: true, kind: true, invoiceId: true } });
      const byId = new Map(postings.map((p) => [p.id, p]));
      return rows.map((r) => ({ ...r, posting: { kind: byId.get(r.postingId)?.kind ?? 'unknown', invoiceId: byId.get(r.postingId)?.invoiceId ?? null } }));
    },
  });
}
