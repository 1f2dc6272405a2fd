// Creates a customer portal link (`cprt_`). The token is generated here and returned once, in
// the link's url; only its hash is stored.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { CustomerPortalLink } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { metadataOrThrow } from '../checks/metadata';
import { requireCustomer } from '../customers/find-customers';
import { hashToken, newLinkToken } from './portal-tokens';

export const PORTAL_LINK_TTL = { min: 60, max: 86_400, default: 3_600 } as const;

export interface CreatePortalLinkInput {
  customerId: string;
  expiresInSeconds?: number | null;
  reusable?: boolean | null;
  metadata?: unknown;
}

export async function createPortalLink(db: TenantDb, tenant: Tenant, input: CreatePortalLinkInput, now: Date): Promise<{ link: CustomerPortalLink; token: string }> {
  const ttl = input.expiresInSeconds ?? PORTAL_LINK_TTL.default;
  if (!Number.isInteger(ttl) || ttl < PORTAL_LINK_TTL.min || ttl > PORTAL_LINK_TTL.max) {
    throw errors.validationFailed(`expires_in must be an integer from ${PORTAL_LINK_TTL.min} to ${PORTAL_LINK_TTL.max} seconds`, 'expires_in');
  }
  const metadata = input.metadata === undefined || input.metadata === null ? {} : metadataOrThrow(input.metadata);
  const customer = await requireCustomer(db, input.customerId);
  const token = newLinkToken();
  const link = await db.customerPortalLink.create({
    data: {
      id: newId('customerPortal'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      customerId: customer.id,
      tokenHash: hashToken(token),
      reusable: input.reusable ?? true,
      metadata,
      expiresAt: new Date(now.getTime() + ttl * 1000),
      createdAt: now,
    },
  });
  return { link, token };
}
