// How far the sync of the merchant's accounting link has got (the dashboard's accounting panel and
// its progress poll): records by status, when the last one reached the provider, and the oldest
// record still waiting (the sync lag). Null when the merchant has never had a link in this mode.
import type { TenantDb } from '../../db/tenancy';
import type { AccountingLink } from '../../generated/prisma/client';
import { ApiError } from '../../errors';
import { findAccountingLink } from './find-accounting-link';

export interface SyncProgress {
  link: AccountingLink;
  pending: number;
  synced: number;
  failed: number;
  lastSyncedAt: Date | null;
  /** Created-at of the oldest pending record: now minus this is the lag. */
  oldestPendingAt: Date | null;
}

export async function accountingSyncProgress(db: TenantDb): Promise<SyncProgress | null> {
  let link: AccountingLink;
  try {
    link = await findAccountingLink(db);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'resource_missing') return null;
    throw err;
  }
  const [counts, lastSynced, oldestPending] = await Promise.all([
    db.accountingSyncRecord.groupBy({ by: ['status'], where: { linkId: link.id }, _count: { _all: true } }),
    db.accountingSyncRecord.aggregate({ where: { linkId: link.id, status: 'synced' }, _max: { syncedAt: true } }),
    db.accountingSyncRecord.aggregate({ where: { linkId: link.id, status: 'pending' }, _min: { createdAt: true } }),
  ]);
  const count = (status: string) => counts.find((c) => c.status === status)?._count._all ?? 0;
  return {
    link,
    pending: count('pending'),
    synced: count('synced'),
    failed: count('failed'),
    lastSyncedAt: lastSynced._max.syncedAt ?? null,
    oldestPendingAt: oldestPending._min.createdAt ?? null,
  };
}
