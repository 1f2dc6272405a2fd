// Credentials of a link: sealed at rest, opened only to call the provider. OAuth access tokens
// are refreshed before they expire (REFRESH_MARGIN_MS ahead), one refresher at a time (the link
// row is locked and the expiry read again). A provider that refuses the tokens or credentials
// moves the link to `error` with the provider's reason and records `accounting_link.error`.
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { scopedDb, type Tenant, type TenantDb } from '../../db/tenancy';
import type { AccountingLink } from '../../generated/prisma/client';
import { recordEvent, type RecordedEvent } from '../../events';
import { accountingAdapter, type AccountingProvidersConfig } from '../../gateways/accounting/providers';
import { ProviderAuthError, type AccountingAdapter, type ProviderCredentials } from '../../gateways/accounting/adapter';
import { presentAccountingLink } from '../../objects/accounting-link';
import { open, parseEncryptionKey, seal } from '../../crypto/secret-box';

export const REFRESH_MARGIN_MS = 120_000;

export function providersConfig(config: Config): AccountingProvidersConfig {
  return {
    sandboxOAuthUrl: config.accountingSandboxOAuthUrl,
    sandboxOAuthClientId: config.accountingSandboxOAuthClientId,
    sandboxOAuthClientSecret: config.accountingSandboxOAuthClientSecret,
    sandboxFormUrl: config.accountingSandboxFormUrl,
  };
}

export function adapterFor(config: Config, provider: string): AccountingAdapter {
  return accountingAdapter(providersConfig(config), provider);
}

function associated(tenant: Tenant): string {
  return `accounting-link:${tenant.merchantId}:${tenant.mode}`;
}

export function sealCredentials(config: Config, tenant: Tenant, creds: ProviderCredentials): string {
  return seal(parseEncryptionKey(config.accountingEncryptionKey), JSON.stringify(creds), associated(tenant));
}

export function openCredentials(config: Config, link: Pick<AccountingLink, 'merchantId' | 'mode' | 'credentials'>): ProviderCredentials {
  return JSON.parse(
    open(parseEncryptionKey(config.accountingEncryptionKey), link.credentials, associated({ merchantId: link.merchantId, mode: link.mode })),
  ) as ProviderCredentials;
}

/** Moves a current link to `error` (once) and records the event; returns the events to dispatch. */
export async function markLinkError(db: TenantDb, tenant: Tenant, linkId: string, reason: string, now: Date): Promise<RecordedEvent[]> {
  const moved = await db.accountingLink.updateMany({ where: { id: linkId, status: 'active' }, data: { status: 'error', statusReason: reason.slice(0, 1000), errorAt: now } });
  if (moved.count === 0) return [];
  const link = await db.accountingLink.findFirstOrThrow({ where: { id: linkId } });
  return [await recordEvent(db, tenant, { type: 'accounting_link.error', data: presentAccountingLink(link) })];
}

export class LinkInError extends Error {
  constructor(
    readonly reason: string,
    readonly events: RecordedEvent[],
  ) {
    super(reason);
    this.name = 'LinkInError';
  }
}

/**
 * Usable credentials for the link, refreshing an OAuth access token that expires within the
 * margin. Throws LinkInError (after moving the link to `error`) when the provider refuses them.
 */
export async function linkCredentials(deps: { db: Db; config: Config }, link: AccountingLink, now = new Date()): Promise<ProviderCredentials> {
  const tenant = { merchantId: link.merchantId, mode: link.mode };
  const creds = openCredentials(deps.config, link);
  if (creds.kind !== 'oauth' || (link.accessTokenExpiresAt && link.accessTokenExpiresAt.getTime() - now.getTime() > REFRESH_MARGIN_MS)) return creds;
  const scoped = scopedDb(deps.db, tenant);
  const adapter = adapterFor(deps.config, link.provider);
  let events: RecordedEvent[] = [];
  let refusal: string | null = null;
  const fresh = await scoped.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM accounting_links WHERE id = ${link.id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" FOR UPDATE`;
      const current = await tx.accountingLink.findFirstOrThrow({ where: { id: link.id } });
      const currentCreds = openCredentials(deps.config, current);
      if (currentCreds.kind !== 'oauth') return currentCreds;
      if (current.accessTokenExpiresAt && current.accessTokenExpiresAt.getTime() - Date.now() > REFRESH_MARGIN_MS) return currentCreds; // another caller refreshed
      try {
        const t = await adapter.refresh!(currentCreds.refreshToken);
        const next: ProviderCredentials = { kind: 'oauth', accessToken: t.accessToken, refreshToken: t.refreshToken, tenant: t.tenant };
        await tx.accountingLink.update({ where: { id: link.id }, data: { credentials: sealCredentials(deps.config, tenant, next), accessTokenExpiresAt: t.expiresAt } });
        return next;
      } catch (err) {
        if (!(err instanceof ProviderAuthError)) throw err;
        refusal = err.message;
        events = await markLinkError(tx, tenant, link.id, err.message, now);
        return null;
      }
    },
    { timeout: 30_000 },
  );
  if (fresh === null) throw new LinkInError(refusal ?? 'the provider refused the refresh token', events);
  return fresh;
}
