// POST /v1/accounting_link/sync_records/{id}/resync (and the dashboard's Re-sync): a failed
// record goes back to pending in the request's transaction; after commit the link's sync
// workflow is nudged so it sends the record now.
import { errors } from '../../errors';
import type { RequestScope } from '../request-scope';
import { afterCommit } from '../workflow-calls';
import { syncInput, type AccountingSyncDeps } from './sync-workflow';
import type { SyncRecordView } from './sync-records';

export async function resyncAccountingRecord(deps: AccountingSyncDeps, scope: RequestScope, id: string): Promise<SyncRecordView> {
  const db = scope.db;
  const row = await db.accountingSyncRecord.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such sync record: '${id}'`, 'id');
  const link = await db.accountingLink.findFirstOrThrow({ where: { id: row.linkId } });
  if (link.currentKey === null) throw errors.invalidState('The record belongs to a disconnected accounting link', 'id');
  if (row.status === 'synced') throw errors.invalidState('The record is already in the accounting software', 'id');
  const updated = row.status === 'failed' ? await db.accountingSyncRecord.update({ where: { id }, data: { status: 'pending', providerMessage: null } }) : row;
  const posting = await db.ledgerPosting.findFirstOrThrow({ where: { id: row.postingId }, select: { kind: true, invoiceId: true } });
  afterCommit(deps, scope, `accounting link ${row.linkId}: sync not nudged`, () => deps.workflows.accountingSync.nudge(syncInput(deps, scope.tenant, row.linkId)));
  return { ...updated, posting };
}
