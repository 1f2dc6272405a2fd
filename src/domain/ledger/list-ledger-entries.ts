// GET /v1/ledger_entries: newest first by (created_at, id), filtered by invoice, customer,
// account and a created_at range (docs/ledger.md).
import type { TenantDb } from '../../db/tenancy';
import type { LedgerEntry } from '../../generated/prisma/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { requireCustomer } from '../customers/find-customers';
import { errors } from '../../errors';

export interface LedgerEntryFilter {
  invoiceId?: string;
  customerId?: string;
  account?: string;
  created?: { gt?: Date; gte?: Date; lt?: Date; lte?: Date };
}

export type LedgerEntryWithKind = LedgerEntry & { posting: { kind: string } };

export async function listLedgerEntries(db: TenantDb, filter: LedgerEntryFilter, params: PageParams): Promise<Page<LedgerEntryWithKind>> {
  if (filter.customerId !== undefined) await requireCustomer(db, filter.customerId);
  if (filter.invoiceId !== undefined) {
    const inv = await db.invoice.findFirst({ where: { id: filter.invoiceId }, select: { id: true } });
    if (!inv) throw errors.resourceNotFound(`No such invoice: '${filter.invoiceId}'`, 'invoice');
  }
  const created = filter.created && Object.keys(filter.created).length > 0 ? { createdAt: filter.created } : {};
  const where = {
    ...(filter.invoiceId !== undefined ? { invoiceId: filter.invoiceId } : {}),
    ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
    ...(filter.account !== undefined ? { account: filter.account } : {}),
    ...created,
  };
  return listPage({
    params,
    findCursor: async (id) => {
      const e = await db.ledgerEntry.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return e && { id: e.id, sortKey: e.createdAt };
    },
    fetch: (after, take) => db.ledgerEntry.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take, include: { posting: { select: { kind: true } } } }),
  });
}
