// The second step of signing in for a user with TOTP on: the session exists but may do nothing
// else until a valid code is given. Wrong codes count as failed sign-ins (same lockout).
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import type { ActiveSession } from './sessions';
import { assertNotLockedOut, recordSignInAttempt } from './sign-in';
import { verifyTotpCode } from './totp';

export async function completeSecondFactor(db: Db, session: ActiveSession, code: unknown, ip: string, now: Date): Promise<void> {
  if (!session.secondFactorPending) return;
  const email = session.user.email;
  await assertNotLockedOut(db, email, ip, now);
  if (!(await verifyTotpCode(db, session.user, code, now))) {
    await recordSignInAttempt(db, email, ip, false, now);
    await assertNotLockedOut(db, email, ip, now);
    throw errors.validationFailed('That code is not right: enter the 6 digits your authenticator app shows now', 'code');
  }
  await recordSignInAttempt(db, email, ip, true, now);
  await db.dashboardSession.update({ where: { id: session.id }, data: { secondFactorPending: false } });
}
