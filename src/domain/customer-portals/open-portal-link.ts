// Opening a portal link: the token from the URL is exchanged for a portal session (a new
// random cookie value, stored hashed). A single-use link is consumed by its first opening in
// the same conditional update that checks it (two concurrent openings cannot both succeed).
// A link that cannot be opened answers why, so the page can say so, and never a customer's data.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant } from '../../db/tenancy';
import type { CustomerPortalLink, PortalSession } from '../../generated/prisma/client';
import { newId } from '../../ids';
import { portalLinkStatus, type PortalLinkStatus } from './link-status';
import { hashToken, isTokenShaped, LINK_TOKEN_PREFIX, newCsrfToken, newSessionToken, secretsEqual } from './portal-tokens';

/** A portal session lasts at most this long (and never beyond its link's expiry or revocation). */
export const PORTAL_SESSION_SECONDS = 30 * 60;

export type OpenPortalLinkResult =
  | { outcome: 'opened'; link: CustomerPortalLink; session: PortalSession; sessionToken: string; tenant: Tenant }
  | { outcome: Exclude<PortalLinkStatus, 'active'>; link: CustomerPortalLink }
  | { outcome: 'unknown' };

/** The link a token belongs to (any merchant and mode: the token alone identifies it), or null. */
export async function findLinkByToken(db: Db, token: string): Promise<CustomerPortalLink | null> {
  if (!isTokenShaped(token, LINK_TOKEN_PREFIX)) return null;
  const hash = hashToken(token);
  const link = await db.customerPortalLink.findUnique({ where: { tokenHash: hash } });
  return link && secretsEqual(link.tokenHash, hash) ? link : null;
}

/** Ended sessions are kept this long (their cookie then still gets "expired"/"revoked"), then purged. */
const ENDED_SESSION_RETENTION_MS = 7 * 24 * 3_600_000;

export async function openPortalLink(db: Db, token: string, now: Date, opts: { locale?: string | null } = {}): Promise<OpenPortalLinkResult> {
  // Housekeeping on the (rare) opening path, through the expires_at index: no scheduler needed.
  await db.portalSession.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - ENDED_SESSION_RETENTION_MS) } } });
  const found = await findLinkByToken(db, token);
  if (!found) return { outcome: 'unknown' };
  const tenant: Tenant = { merchantId: found.merchantId, mode: found.mode };
  return scopedDb(db, tenant).$transaction(async (tx) => {
    const open = { id: found.id, revokedAt: null, consumedAt: null, expiresAt: { gt: now } };
    const claimed = await tx.customerPortalLink.updateMany({
      where: open,
      data: { lastAccessedAt: now, ...(found.reusable ? {} : { consumedAt: now }) },
    });
    const link = await tx.customerPortalLink.findFirstOrThrow({ where: { id: found.id } });
    if (claimed.count !== 1) {
      const status = portalLinkStatus(link, now);
      // Claimed nothing yet reads active: only a clock disagreement can do that; treat as expired.
      return { outcome: status === 'active' ? 'expired' : status, link };
    }
    const sessionToken = newSessionToken();
    const lifetimeEnd = now.getTime() + PORTAL_SESSION_SECONDS * 1000;
    const session = await tx.portalSession.create({
      data: {
        id: newId('portalSession', now.getTime()),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        linkId: link.id,
        customerId: link.customerId,
        tokenHash: hashToken(sessionToken),
        csrfToken: newCsrfToken(),
        locale: opts.locale ?? null,
        expiresAt: new Date(Math.min(lifetimeEnd, link.expiresAt.getTime())),
        createdAt: now,
      },
    });
    return { outcome: 'opened', link, session, sessionToken, tenant };
  });
}
