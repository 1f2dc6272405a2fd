// Dashboard sessions, stored server-side. The browser holds a random 256-bit token in an HttpOnly
// cookie; the table holds only its SHA-256, so a database dump signs nobody in. A session ends at
// `expiresAt` (absolute), after `idleMs` without a request, at sign-out, at "sign out everywhere",
// and when its user is removed.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client';
import type { DashboardSession, DashboardUser, Mode } from '../../generated/prisma/client';

export interface SessionPolicy {
  /** Absolute lifetime of a session. */
  lifetimeMs: number;
  /** A session unused this long has ended. */
  idleMs: number;
}

/** lastSeenAt is written at most this often (one UPDATE a minute per active session, not per request). */
const TOUCH_EVERY_MS = 60_000;

export type ActiveSession = DashboardSession & { user: DashboardUser };

type SessionDb = Pick<Db, 'dashboardSession'>;

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function createDashboardSession(
  db: SessionDb,
  input: { user: Pick<DashboardUser, 'id' | 'merchantId'>; ip: string | null; userAgent: string | null; now: Date; policy: SessionPolicy; secondFactorPending: boolean },
): Promise<{ token: string; session: DashboardSession }> {
  const token = randomBytes(32).toString('base64url');
  const session = await db.dashboardSession.create({
    data: {
      id: sessionIdOf(token),
      userId: input.user.id,
      merchantId: input.user.merchantId,
      csrfToken: randomBytes(32).toString('base64url'),
      secondFactorPending: input.secondFactorPending,
      ip: input.ip?.slice(0, 100) ?? null,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      createdAt: input.now,
      lastSeenAt: input.now,
      expiresAt: new Date(input.now.getTime() + input.policy.lifetimeMs),
    },
  });
  return { token, session };
}

/** The live session a cookie token names, or null (unknown, revoked, expired, idle, user removed). */
export async function findActiveSession(db: SessionDb, token: string, now: Date, policy: SessionPolicy): Promise<ActiveSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const s = await db.dashboardSession.findUnique({ where: { id: sessionIdOf(token) }, include: { user: true } });
  if (!s || s.revokedAt || s.user.disabledAt) return null;
  if (s.expiresAt <= now || s.lastSeenAt.getTime() + policy.idleMs <= now.getTime()) return null;
  if (now.getTime() - s.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
    await db.dashboardSession.updateMany({ where: { id: s.id, revokedAt: null }, data: { lastSeenAt: now } });
  }
  return s;
}

export async function endDashboardSession(db: SessionDb, sessionId: string, now: Date): Promise<void> {
  await db.dashboardSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now } });
}

/** "Sign out everywhere": every session of the user ends, this one included. */
export async function endAllSessionsOfUser(db: SessionDb, userId: string, now: Date): Promise<number> {
  const r = await db.dashboardSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
  return r.count;
}

export async function setSessionViewMode(db: SessionDb, sessionId: string, mode: Mode): Promise<void> {
  await db.dashboardSession.update({ where: { id: sessionId }, data: { viewMode: mode } });
}

export async function listOpenSessionsOfUser(db: SessionDb, userId: string, now: Date): Promise<DashboardSession[]> {
  return db.dashboardSession.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: now } },
    orderBy: [{ lastSeenAt: 'desc' }],
    take: 50,
  });
}
