// The portal session behind a cookie, checked on every request: the session must not have
// expired, and its link must be neither revoked nor expired (revoking the link or its expiry
// ends the session on the next request). Returns why not, so the page can say so.
import type { Db } from '../../db/client';
import type { Tenant } from '../../db/tenancy';
import type { CustomerPortalLink, PortalSession } from '../../generated/prisma/client';
import { linkAllowsSession } from './link-status';
import { hashToken, isTokenShaped, secretsEqual, SESSION_TOKEN_PREFIX } from './portal-tokens';

export type PortalSessionResult =
  | { outcome: 'active'; session: PortalSession; link: CustomerPortalLink; tenant: Tenant }
  | { outcome: 'revoked' | 'expired'; session: PortalSession; link: CustomerPortalLink }
  | { outcome: 'none' };

export async function findPortalSession(db: Db, cookieValue: string | undefined, now: Date): Promise<PortalSessionResult> {
  if (!cookieValue || !isTokenShaped(cookieValue, SESSION_TOKEN_PREFIX)) return { outcome: 'none' };
  const hash = hashToken(cookieValue);
  const session = await db.portalSession.findUnique({ where: { tokenHash: hash }, include: { link: true } });
  if (!session || !secretsEqual(session.tokenHash, hash)) return { outcome: 'none' };
  const { link, ...bare } = session;
  if (link.revokedAt !== null) return { outcome: 'revoked', session: bare, link };
  if (session.expiresAt.getTime() <= now.getTime() || !linkAllowsSession(link, now)) return { outcome: 'expired', session: bare, link };
  return { outcome: 'active', session: bare, link, tenant: { merchantId: session.merchantId, mode: session.mode } };
}

/** Sign-out: the session row is deleted (its cookie then matches nothing). */
export async function endPortalSession(db: Db, sessionId: string): Promise<void> {
  await db.portalSession.deleteMany({ where: { id: sessionId } });
}
