// Invitations: an owner invites an e-mail with a role; the link (shown once to the owner, who
// sends it) lets the invitee choose a password and become a user. Links last 7 days and work once.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import type { DashboardInvitation, DashboardRole, DashboardUser } from '../../generated/prisma/client';
import { createDashboardUser } from './create-dashboard-user';
import { isDashboardRole } from './roles';
import { sessionIdOf } from './sessions';
import { normaliseUserEmail } from './user-email';

export const INVITATION_LIFETIME_MS = 7 * 24 * 3600_000;

export async function createInvitation(
  db: Pick<Db, 'dashboardInvitation' | 'dashboardUser'>,
  input: { merchantId: string; email: unknown; role: unknown; invitedBy: string; now: Date },
): Promise<{ invitation: DashboardInvitation; token: string }> {
  const email = normaliseUserEmail(input.email);
  if (!isDashboardRole(input.role)) throw errors.validationFailed('role must be one of owner, developer, finance, read_only', 'role');
  const role: DashboardRole = input.role;
  if (await db.dashboardUser.findUnique({ where: { email } })) throw errors.resourceConflict(`A dashboard user with the e-mail ${email} already exists`, 'email');
  const token = randomBytes(32).toString('base64url');
  const invitation = await db.dashboardInvitation.create({
    data: {
      id: newId('dashboardInvitation'),
      merchantId: input.merchantId,
      email,
      role,
      tokenHash: sessionIdOf(token),
      invitedBy: input.invitedBy,
      createdAt: input.now,
      expiresAt: new Date(input.now.getTime() + INVITATION_LIFETIME_MS),
    },
  });
  return { invitation, token };
}

export async function findOpenInvitation(db: Pick<Db, 'dashboardInvitation'>, token: string, now: Date): Promise<DashboardInvitation | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const inv = await db.dashboardInvitation.findUnique({ where: { tokenHash: sessionIdOf(token) } });
  if (!inv || inv.acceptedAt || inv.revokedAt || inv.expiresAt <= now) return null;
  return inv;
}

export async function acceptInvitation(db: Db, input: { token: string; password: unknown; name?: string | null; now: Date }): Promise<DashboardUser> {
  return db.$transaction(async (tx) => {
    const inv = await findOpenInvitation(tx, input.token, input.now);
    if (!inv) throw errors.resourceMissing('This invitation link is unknown, used or expired; ask an owner for a new one', 'token');
    const claimed = await tx.dashboardInvitation.updateMany({ where: { id: inv.id, acceptedAt: null }, data: { acceptedAt: input.now } });
    if (claimed.count !== 1) throw errors.resourceConflict('This invitation was just used', 'token');
    return createDashboardUser(tx, { merchantId: inv.merchantId, email: inv.email, role: inv.role, password: input.password, name: input.name ?? null });
  });
}

export async function revokeInvitation(db: Pick<Db, 'dashboardInvitation'>, merchantId: string, id: string, now: Date): Promise<DashboardInvitation> {
  const inv = await db.dashboardInvitation.findFirst({ where: { id, merchantId } });
  if (!inv) throw errors.resourceMissing(`No such invitation: '${id}'`, 'id');
  if (inv.acceptedAt || inv.revokedAt) return inv;
  return db.dashboardInvitation.update({ where: { id }, data: { revokedAt: now } });
}
