// An owner manages the merchant's users: change a role, remove a user (sessions end at once).
// The last owner can be neither demoted nor removed: someone must be able to manage the team.
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import type { DashboardUser } from '../../generated/prisma/client';
import { isDashboardRole } from './roles';
import { endAllSessionsOfUser } from './sessions';

type TeamDb = Pick<Db, 'dashboardUser' | 'dashboardSession' | '$executeRaw'>;

export async function listTeam(db: Pick<Db, 'dashboardUser'>, merchantId: string): Promise<DashboardUser[]> {
  return db.dashboardUser.findMany({ where: { merchantId, disabledAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: 500 });
}

async function teamMember(db: TeamDb, merchantId: string, userId: string): Promise<DashboardUser> {
  // Serialise team changes of one merchant, so two owners cannot demote each other at once.
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`dashboard-team:${merchantId}`}))`;
  const user = await db.dashboardUser.findFirst({ where: { id: userId, merchantId, disabledAt: null } });
  if (!user) throw errors.resourceMissing(`No such user: '${userId}'`, 'id');
  return user;
}

async function assertAnotherOwner(db: TeamDb, merchantId: string, userId: string): Promise<void> {
  const others = await db.dashboardUser.count({ where: { merchantId, role: 'owner', disabledAt: null, id: { not: userId } } });
  if (others === 0) throw errors.invalidState('The last owner cannot be removed or demoted; make someone else an owner first', 'role');
}

/** Run inside a transaction (the advisory lock is transaction-scoped). */
export async function changeUserRole(db: TeamDb, merchantId: string, userId: string, role: unknown): Promise<DashboardUser> {
  if (!isDashboardRole(role)) throw errors.validationFailed('role must be one of owner, developer, finance, read_only', 'role');
  const user = await teamMember(db, merchantId, userId);
  if (user.role === role) return user;
  if (user.role === 'owner') await assertAnotherOwner(db, merchantId, userId);
  return db.dashboardUser.update({ where: { id: userId }, data: { role } });
}

/** Run inside a transaction (the advisory lock is transaction-scoped). */
export async function removeUser(db: TeamDb, merchantId: string, userId: string, now: Date): Promise<DashboardUser> {
  const user = await teamMember(db, merchantId, userId);
  if (user.role === 'owner') await assertAnotherOwner(db, merchantId, userId);
  const removed = await db.dashboardUser.update({ where: { id: userId }, data: { disabledAt: now } });
  await endAllSessionsOfUser(db, userId, now);
  return removed;
}
