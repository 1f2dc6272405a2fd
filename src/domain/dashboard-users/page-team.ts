// The Team page's two lists, paged like every list (newest first, `starting_after` resolved within
// the merchant, so another merchant's id answers resource_missing): the merchant's users, and the
// invitations still open (neither accepted, revoked nor expired).
import type { Db } from '../../db/client';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import type { DashboardInvitation, DashboardUser } from '../../generated/prisma/client';

export async function pageTeamMembers(db: Pick<Db, 'dashboardUser'>, merchantId: string, params: PageParams): Promise<Page<DashboardUser>> {
  const where = { merchantId, disabledAt: null };
  return listPage({
    params,
    findCursor: async (id) => {
      const row = await db.dashboardUser.findFirst({ where: { ...where, id }, select: { id: true, createdAt: true } });
      return row && { id: row.id, sortKey: row.createdAt };
    },
    fetch: (after, take) => db.dashboardUser.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}

export async function pageOpenInvitations(db: Pick<Db, 'dashboardInvitation'>, merchantId: string, now: Date, params: PageParams): Promise<Page<DashboardInvitation>> {
  const where = { merchantId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } };
  return listPage({
    params,
    findCursor: async (id) => {
      const row = await db.dashboardInvitation.findFirst({ where: { ...where, id }, select: { id: true, createdAt: true } });
      return row && { id: row.id, sortKey: row.createdAt };
    },
    fetch: (after, take) => db.dashboardInvitation.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
