// A portal link's status, derived when read so it is always true (an expired link reads
// `expired` the moment expires_at passes, whether or not anything ran). Precedence: a revoked
// link is `revoked` whatever else happened; a single-use link that was opened is `consumed`
// (also after its expiry: it was used); otherwise `expired` once expires_at has passed.
export type PortalLinkStatus = 'active' | 'expired' | 'revoked' | 'consumed';

export interface LinkTimes {
  expiresAt: Date;
  revokedAt: Date | null;
  consumedAt: Date | null;
}

export function portalLinkStatus(link: LinkTimes, now: Date): PortalLinkStatus {
  if (link.revokedAt !== null) return 'revoked';
  if (link.consumedAt !== null) return 'consumed';
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/**
 * Whether a portal session opened from this link may still be used: a single-use link is
 * consumed by the opening that created the session, so consumption does not end the session;
 * revocation and expiry do.
 */
export function linkAllowsSession(link: LinkTimes, now: Date): boolean {
  return link.revokedAt === null && link.expiresAt.getTime() > now.getTime();
}
