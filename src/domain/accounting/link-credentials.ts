// Credentials of a link: sealed at rest, opened only to call the provider. OAuth access tokens
// are refreshed before they expire (REFRESH_MARGIN_MS ahead), one refresher at a time (a lease
// on the link row, never a lock held across the provider call: linkCredentials). A provider that refuses the tokens or credentials
// moves the link to `error` with the provider's reason and records `accounting_link.error`.
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { scopedDb, type Tenant, type TenantDb } from '../../db/tenancy';
import type { AccountingLink } from '../../generated/prisma/client';
import { recordEvent, type RecordedEvent } from '../../events';
import { accountingAdapter, type AccountingProvidersConfig } from '../../gateways/accounting/providers';
import { ProviderAuthError, ProviderUnavailableError, type AccountingAdapter, type ProviderCredentials } from '../../gateways/accounting/adapter';
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
 * How long a refresher's lease on the link lasts: longer than the provider call may take (the HTTP
 * adapter's timeout is 15 s), so a live refresher never loses it; a crashed one's lease lapses.
 */
export const REFRESH_LEASE_MS = 60_000;
/** How long a caller that finds another refresher at work waits for its outcome before answering 503. */
export const REFRESH_WAIT_MS = 20_000;
const REFRESH_POLL_MS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freshEnough(link: Pick<AccountingLink, 'accessTokenExpiresAt'>, at: number): boolean {
  return link.accessTokenExpiresAt !== null && link.accessTokenExpiresAt.getTime() - at > REFRESH_MARGIN_MS;
}

/**
 * Usable credentials for the link, refreshing an OAuth access token that expires within the
 * margin. Throws LinkInError (after moving the link to `error`) when the provider refuses them.
 *
 * No transaction and no row lock is held across the provider call (docs/architecture.md "No
 * outside call inside a database transaction"). One refresher at a time is kept by a lease on the
 * link row (`refresh_lease_until`), taken and released in single statements:
 *  1. claim: set the lease if nobody holds a live one and the token still needs a refresh (the
 *     expiry is read again in the same statement, so a refresh committed meanwhile is seen);
 *  2. the provider call, with the refresh token read under the lease (it may have rotated);
 *  3. the new tokens written only where our lease still stands, releasing it in the same statement
 *     (a refusal: the link goes to `error` and the lease is released, in one short transaction).
 * A caller that cannot claim waits (polling, up to REFRESH_WAIT_MS) for the holder's outcome: fresh
 * tokens, the link in error, or a lapsed lease it then claims itself. So concurrent refreshes never
 * send the same refresh token twice, and a provider that rotates refresh tokens stays consistent.
 */
export async function linkCredentials(deps: { db: Db; config: Config }, link: AccountingLink, now = new Date()): Promise<ProviderCredentials> {
  const tenant = { merchantId: link.merchantId, mode: link.mode };
  const creds = openCredentials(deps.config, link);
  if (creds.kind !== 'oauth' || freshEnough(link, now.getTime())) return creds;
  const scoped = scopedDb(deps.db, tenant);
  const adapter = adapterFor(deps.config, link.provider);
  const waitUntil = Date.now() + REFRESH_WAIT_MS;
  for (;;) {
    // 1. The lease (its own statement: committed at once).
    const lease = new Date(Date.now() + REFRESH_LEASE_MS);
    const claimed = await deps.db.$executeRaw`
      UPDATE accounting_links SET refresh_lease_until = ${lease}
      WHERE id = ${link.id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode"
        AND (refresh_lease_until IS NULL OR refresh_lease_until < now())
        AND (access_token_expires_at IS NULL OR access_token_expires_at <= ${new Date(Date.now() + REFRESH_MARGIN_MS)})`;
    const current = await scoped.accountingLink.findFirstOrThrow({ where: { id: link.id } });
    const currentCreds = openCredentials(deps.config, current);
    if (claimed === 0) {
      // Another caller refreshed (or the link is not OAuth any more), or holds the lease: wait for it.
      if (currentCreds.kind !== 'oauth' || freshEnough(current, Date.now())) return currentCreds;
      if (current.status === 'error') throw new LinkInError(current.statusReason ?? 'the provider refused the refresh token', []);
      if (Date.now() >= waitUntil) throw new ProviderUnavailableError('another refresh of the access token is still in progress', 2000);
      await sleep(REFRESH_POLL_MS);
      continue;
    }
    const release = () => deps.db.$executeRaw`UPDATE accounting_links SET refresh_lease_until = NULL WHERE id = ${link.id} AND refresh_lease_until = ${lease}`.catch(() => 0);
    if (currentCreds.kind !== 'oauth') {
      await release();
      return currentCreds;
    }
    // 2. The provider call, with no transaction open.
    let next: ProviderCredentials;
    let expiresAt: Date | null;
    try {
      const t = await adapter.refresh!(currentCreds.refreshToken);
      next = { kind: 'oauth', accessToken: t.accessToken, refreshToken: t.refreshToken, tenant: t.tenant };
      expiresAt = t.expiresAt;
    } catch (err) {
      if (!(err instanceof ProviderAuthError)) {
        await release();
        throw err;
      }
      const events = await scoped.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE accounting_links SET refresh_lease_until = NULL WHERE id = ${link.id} AND refresh_lease_until = ${lease}`;
        return markLinkError(tx, tenant, link.id, err.message, now);
      });
      throw new LinkInError(err.message, events);
    }
    // 3. The outcome, under our lease (which it releases). A lease lost (the call outlived
    // REFRESH_LEASE_MS and another caller took over) leaves the row to that caller: these tokens
    // still serve this call.
    await scoped.accountingLink.updateMany({
      where: { id: link.id, refreshLeaseUntil: lease },
      data: { credentials: sealCredentials(deps.config, tenant, next), accessTokenExpiresAt: expiresAt, refreshLeaseUntil: null },
    });
    return next;
  }
}
