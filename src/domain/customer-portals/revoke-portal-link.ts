// Revokes a portal link at once. Every portal session opened from it checks the link on each
// request, so they end with it. Revoking a revoked link changes nothing and answers the link as
// it is (revoked_at keeps the first revocation's time).
import type { TenantDb } from '../../db/tenancy';
import type { CustomerPortalLink } from '../../generated/prisma/client';
import { findPortalLink } from './find-portal-links';

export async function revokePortalLink(db: TenantDb, id: string, now: Date): Promise<CustomerPortalLink> {
  const link = await findPortalLink(db, id);
  if (link.revokedAt !== null) return link;
  // The sessions stay (ended by the link check on their next request, which then says "revoked").
  await db.customerPortalLink.updateMany({ where: { id: link.id, revokedAt: null }, data: { revokedAt: now } });
  return findPortalLink(db, id);
}
