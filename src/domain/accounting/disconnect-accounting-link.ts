// DELETE /v1/accounting_link (and the dashboard's Disconnect): the current link becomes
// `disconnected` at once; after commit its sync workflow is told to stop. The sync writes a
// push's outcome only while the link is still the connected one (push-sync-records.ts re-checks
// it in the transaction that records the outcome), so once this commits nothing more is recorded
// as sent for it; records already at the provider stay untouched. Repeating is safe.
// Returns the link id whose sync is stopped, or null when none was current.
import { errors } from '../../errors';
import type { RequestScope } from '../request-scope';
import { afterCommit } from '../workflow-calls';
import type { AccountingSyncDeps } from './sync-workflow';

export async function disconnectAccountingLink(deps: AccountingSyncDeps, scope: RequestScope, now: Date): Promise<string | null> {
  const db = scope.db;
  const current = await db.accountingLink.findFirst({ where: { currentKey: { not: null } } });
  if (!current) {
    const any = await db.accountingLink.count({});
    if (any === 0) throw errors.resourceMissing('No accounting link to disconnect', 'accounting_link');
    return null; // already disconnected: repeating is safe
  }
  await db.accountingLink.update({ where: { id: current.id }, data: { status: 'disconnected', currentKey: null, disconnectedAt: now } });
  afterCommit(deps, scope, `accounting link ${current.id}: sync not stopped`, () => deps.workflows.accountingSync.stop(current.id));
  return current.id;
}
