// Creates the merchant's current link (after the OAuth callback or the form `complete`): any
// previous current link of the merchant and mode is disconnected in the same transaction (its
// sync stops), and the new one is active. Returns the link and the link it replaced.
import type { Config } from '../../config';
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { AccountingLink } from '../../generated/prisma/client';
import { newId } from '../../ids';
import type { ProviderCredentials } from '../../gateways/accounting/adapter';
import { sealCredentials } from './link-credentials';

export function currentKeyOf(tenant: Tenant): string {
  return `${tenant.merchantId}:${tenant.mode}`;
}

export async function createAccountingLink(
  db: TenantDb,
  tenant: Tenant,
  config: Config,
  input: { provider: string; credentials: ProviderCredentials; accessTokenExpiresAt: Date | null; providerTenant: string; now: Date },
): Promise<{ link: AccountingLink; replaced: string | null }> {
  const key = currentKeyOf(tenant);
  const previous = await db.accountingLink.findFirst({ where: { currentKey: key } });
  if (previous) {
    await db.accountingLink.update({ where: { id: previous.id }, data: { status: 'disconnected', currentKey: null, disconnectedAt: input.now } });
  }
  // A reconnection to the same provider keeps the settings the merchant chose.
  const keep = previous && previous.provider === input.provider ? { defaultGlAccount: previous.defaultGlAccount, vatCodeMapping: previous.vatCodeMapping ?? {} } : {};
  const link = await db.accountingLink.create({
    data: {
      id: newId('accountingLink'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      provider: input.provider,
      status: 'active',
      currentKey: key,
      credentials: sealCredentials(config, tenant, input.credentials),
      accessTokenExpiresAt: input.accessTokenExpiresAt,
      providerTenant: input.providerTenant,
      ...keep,
    },
  });
  return { link, replaced: previous?.id ?? null };
}
