// DELETE /v1/accounting_link: the current link becomes `disconnected` at once. The UPDATE waits
// for a push in flight (the sync holds the link row FOR SHARE while it calls the provider), so
// once this commits nothing more reaches the provider; records already there stay untouched.
// Returns the link id whose sync workflow to stop (after commit), or null when none was current.
import type { TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';

export async function disconnectAccountingLink(db: TenantDb, now: Date): Promise<string | null> {
  const current = await db.accountingLink.findFirst({ where: { currentKey: { not: null } } });
  if (!current) {
    const any = await db.accountingLink.count({});
    if (any === 0) throw errors.resourceMissing('No accounting link to disconnect', 'accounting_link');
    return null; // already disconnected: repeating is safe
  }
  await db.accountingLink.update({ where: { id: current.id }, data: { status: 'disconnected', currentKey: null, disconnectedAt: now } });
  return current.id;
}
