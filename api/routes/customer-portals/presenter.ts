// Customer portal links as the API returns them. `url` carries the link's token, which is
// stored only as a hash: it is present in the creation response only (null when read later,
// and null in an Idempotency-Key replay of the creation).
import type { CustomerPortalLink } from '../../../src/generated/prisma/client';
import { portalLinkStatus } from '../../../src/domain/customer-portals/link-status';
import { iso } from '../../../src/objects/iso';
import { PORTAL_OPEN_PREFIX } from '../../portal/paths';

export function portalLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${PORTAL_OPEN_PREFIX}${token}`;
}

export function presentPortalLink(link: CustomerPortalLink, now: Date, url: string | null = null) {
  return {
    id: link.id,
    object: 'customer_portal',
    customer: link.customerId,
    url,
    status: portalLinkStatus(link, now),
    reusable: link.reusable,
    expires_at: iso(link.expiresAt),
    revoked_at: iso(link.revokedAt),
    last_accessed_at: iso(link.lastAccessedAt),
    metadata: (link.metadata ?? {}) as Record<string, string>,
    created_at: iso(link.createdAt),
  };
}
