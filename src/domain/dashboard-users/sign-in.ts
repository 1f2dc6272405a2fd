// Dashboard sign-in with rate limiting and lockout. Every attempt is recorded by e-mail (known or
// not, so the lockout tells nothing about which e-mails exist) and by address:
//  - 5 failures for an e-mail within 15 minutes lock that e-mail for 15 minutes from the 5th;
//  - 30 failures from one address within 15 minutes refuse that address for the rest of the window.
// A successful sign-in clears the e-mail's count. Attempts for one e-mail are serialised with an
// advisory lock, so parallel guesses cannot slip past the count.
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import type { DashboardSession, DashboardUser } from '../../generated/prisma/client';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { createDashboardSession, type SessionPolicy } from './sessions';
import { normaliseUserEmail } from './user-email';

export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, failuresPerEmail: 5, failuresPerAddress: 30 } as const;

export interface SignInInput {
  email: unknown;
  password: unknown;
  ip: string;
  userAgent: string | null;
  now: Date;
  policy: SessionPolicy;
}

export interface SignedIn {
  user: DashboardUser;
  token: string;
  session: DashboardSession;
  /** The user has TOTP on: the session may do nothing but give the code. */
  secondFactorPending: boolean;
}

function clock(d: Date): string {
  return `${d.toISOString().slice(11, 16)} UTC`;
}

/** Refuses when the e-mail or the address is locked out; used by the TOTP step too. */
export async function assertNotLockedOut(db: Pick<Db, 'dashboardSignInAttempt'>, email: string, ip: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - SIGN_IN_LIMITS.windowMs);
  const lastSuccess = await db.dashboardSignInAttempt.findFirst({ where: { email, succeeded: true, createdAt: { gt: since } }, orderBy: { createdAt: 'desc' } });
  const from = lastSuccess && lastSuccess.createdAt > since ? lastSuccess.createdAt : since;
  const failures = await db.dashboardSignInAttempt.findMany({
    where: { email, succeeded: false, createdAt: { gt: from } },
    orderBy: { createdAt: 'desc' },
    take: SIGN_IN_LIMITS.failuresPerEmail,
  });
  if (failures.length >= SIGN_IN_LIMITS.failuresPerEmail) {
    const until = new Date(failures[0]!.createdAt.getTime() + SIGN_IN_LIMITS.windowMs);
    throw errors.signInLocked(
      `Too many failed sign-ins for this e-mail: it is locked for 15 minutes, until ${clock(until)}. Wait, or ask an owner to check the account.`,
      'email',
      { 'Retry-After': String(Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000))) },
    );
  }
  const fromAddress = await db.dashboardSignInAttempt.count({ where: { ip, succeeded: false, createdAt: { gt: since } } });
  if (fromAddress >= SIGN_IN_LIMITS.failuresPerAddress) {
    throw errors.signInLocked('Too many failed sign-ins from this network address. Try again in 15 minutes.', undefined, { 'Retry-After': String(SIGN_IN_LIMITS.windowMs / 1000) });
  }
}

export async function recordSignInAttempt(db: Pick<Db, 'dashboardSignInAttempt'>, email: string, ip: string, succeeded: boolean, now: Date): Promise<void> {
  await db.dashboardSignInAttempt.create({ data: { email, ip: ip.slice(0, 100), succeeded, createdAt: now } });
}

/** Failures for the e-mail after this one, before the lockout: for the message. */
async function failuresLeft(db: Pick<Db, 'dashboardSignInAttempt'>, email: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - SIGN_IN_LIMITS.windowMs);
  const lastSuccess = await db.dashboardSignInAttempt.findFirst({ where: { email, succeeded: true, createdAt: { gt: since } }, orderBy: { createdAt: 'desc' } });
  const n = await db.dashboardSignInAttempt.count({ where: { email, succeeded: false, createdAt: { gt: lastSuccess?.createdAt ?? since } } });
  return SIGN_IN_LIMITS.failuresPerEmail - n;
}

export async function signIn(db: Db, input: SignInInput): Promise<SignedIn> {
  const email = normaliseUserEmail(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  if (password === '') throw errors.validationFailed('Enter your password', 'password');
  const outcome = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`dashboard-sign-in:${email}`}))`;
      await assertNotLockedOut(tx, email, input.ip, input.now);
      const user = await tx.dashboardUser.findUnique({ where: { email } });
      const usable = user && !user.disabledAt ? user : null;
      const ok = await verifyPassword(password, usable?.passwordHash ?? (await dummyPasswordHash()));
      if (!usable || !ok) {
        await recordSignInAttempt(tx, email, input.ip, false, input.now);
        return { kind: 'failed' as const, left: await failuresLeft(tx, email, input.now) };
      }
      await recordSignInAttempt(tx, email, input.ip, true, input.now);
      const secondFactorPending = usable.totpEnabledAt !== null;
      const created = await createDashboardSession(tx, { user: usable, ip: input.ip, userAgent: input.userAgent, now: input.now, policy: input.policy, secondFactorPending });
      return { kind: 'ok' as const, user: usable, ...created, secondFactorPending };
    },
    { timeout: 20_000, maxWait: 10_000 },
  );
  if (outcome.kind === 'failed') {
    if (outcome.left <= 0) await assertNotLockedOut(db, email, input.ip, input.now);
    throw errors.unauthorized(outcome.left === 1 ? 'Wrong e-mail or password. One more failed attempt locks this e-mail for 15 minutes.' : 'Wrong e-mail or password.', 'password');
  }
  return outcome;
}
