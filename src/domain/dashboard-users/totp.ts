// Optional second factor: time-based one-time codes (RFC 6238, 6 digits, 30 s, SHA-1 — what
// authenticator apps expect) through the `otpauth` library. A code is accepted one step either
// side of now, and never twice (the last accepted step is stored).
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/client';
import { errors } from '../../errors';
import type { DashboardUser } from '../../generated/prisma/client';

export const TOTP_ISSUER = 'Billing dashboard';
const PERIOD_MS = 30_000;

type UserDb = Pick<Db, 'dashboardUser'>;

function totpOf(user: Pick<DashboardUser, 'email'>, secret: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label: user.email, secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
}

/** The accepted time step, or null when the code is wrong, malformed or already used. */
function acceptedStep(user: Pick<DashboardUser, 'email' | 'totpLastStep'>, secret: string, code: unknown, now: Date): number | null {
  if (typeof code !== 'string') return null;
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(user, secret).validate({ token, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / PERIOD_MS) + delta;
  if (user.totpLastStep !== null && BigInt(step) <= user.totpLastStep) return null;
  return step;
}

/** Starts (or restarts) setting up TOTP: a new secret, not yet in force until a code confirms it. */
export async function beginTotpSetup(db: UserDb, user: DashboardUser): Promise<{ secret: string; uri: string }> {
  if (user.totpEnabledAt) throw errors.invalidState('Two-step sign-in is already on; turn it off first to set up a new authenticator', 'code');
  const secret = new Secret({ size: 20 }).base32;
  await db.dashboardUser.update({ where: { id: user.id }, data: { totpSecret: secret, totpLastStep: null } });
  return { secret, uri: totpOf(user, secret).toString() };
}

export function totpUri(user: DashboardUser): string | null {
  return user.totpSecret ? totpOf(user, user.totpSecret).toString() : null;
}

export async function confirmTotpSetup(db: UserDb, user: DashboardUser, code: unknown, now: Date): Promise<DashboardUser> {
  if (user.totpEnabledAt) return user;
  if (!user.totpSecret) throw errors.invalidState('Start the set-up first', 'code');
  const step = acceptedStep(user, user.totpSecret, code, now);
  if (step === null) throw errors.validationFailed('That code is not right: enter the 6 digits your authenticator app shows now', 'code');
  return db.dashboardUser.update({ where: { id: user.id }, data: { totpEnabledAt: now, totpLastStep: BigInt(step) } });
}

/** Checks a sign-in code and records its step; false when it is wrong or reused. */
export async function verifyTotpCode(db: UserDb, user: DashboardUser, code: unknown, now: Date): Promise<boolean> {
  if (!user.totpEnabledAt || !user.totpSecret) return false;
  const step = acceptedStep(user, user.totpSecret, code, now);
  if (step === null) return false;
  const r = await db.dashboardUser.updateMany({
    where: { id: user.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: BigInt(step) } }] },
    data: { totpLastStep: BigInt(step) },
  });
  return r.count === 1;
}

export async function disableTotp(db: UserDb, user: DashboardUser, code: unknown, now: Date): Promise<void> {
  if (!user.totpEnabledAt) return;
  if (!(await verifyTotpCode(db, user, code, now))) throw errors.validationFailed('That code is not right: enter the 6 digits your authenticator app shows now', 'code');
  await db.dashboardUser.update({ where: { id: user.id }, data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null } });
}
