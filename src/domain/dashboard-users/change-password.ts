// A user changes their own password: the current one is required, and every other session ends.
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import type { DashboardUser } from '../../generated/prisma/client';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords';

export async function changePassword(
  db: Pick<Db, 'dashboardUser' | 'dashboardSession'>,
  input: { user: DashboardUser; currentSessionId: string; current: unknown; next: unknown; now: Date },
): Promise<void> {
  if (typeof input.current !== 'string' || !(await verifyPassword(input.current, input.user.passwordHash))) {
    throw errors.validationFailed('The current password is not right', 'current_password');
  }
  const next = checkNewPassword(input.next, 'new_password');
  await db.dashboardUser.update({ where: { id: input.user.id }, data: { passwordHash: await hashPassword(next) } });
  await db.dashboardSession.updateMany({ where: { userId: input.user.id, revokedAt: null, id: { not: input.currentSessionId } }, data: { revokedAt: input.now } });
}
