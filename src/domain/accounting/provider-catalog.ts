// The provider's chart of accounts and VAT codes, read live through the current (active) link.
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { TenantDb } from '../../db/tenancy';
import type { AccountingLink } from '../../generated/prisma/client';
import { errors } from '../../errors';
import type { LedgerAccountInfo, VatCodeInfo } from '../../gateways/accounting/adapter';
import { dispatchEvents, type ApiDispatchDeps, type RecordedEvent } from '../../events';
import { adapterFor, linkCredentials, LinkInError } from './link-credentials';
import { requireActiveLink } from './find-accounting-link';
import { providerErrorToApi } from './provider-errors';
import { ProviderAuthError } from '../../gateways/accounting/adapter';
import { markLinkError } from './link-credentials';
import { scopedDb } from '../../db/tenancy';

export interface CatalogDeps {
  db: TenantDb;
  rootDb: Db;
  config: Config;
  /** Events to dispatch after the request (the link going to `error`). */
  onEvents: (events: RecordedEvent[]) => void;
}

/**
 * The catalog's dependencies for a request: its tenant-scoped `db`, and the composition root's
 * database, configuration and event dispatch. A link found in error records its event in its own
 * committed transaction, so the event is dispatched at once, whatever the request answers.
 */
export function catalogDeps(deps: ApiDispatchDeps & { config: Config }, db: TenantDb): CatalogDeps {
  return {
    db,
    rootDb: deps.db,
    config: deps.config,
    onEvents: (events) => void dispatchEvents(deps, events).catch(() => undefined),
  };
}

async function withProvider<T>(deps: CatalogDeps, call: (link: AccountingLink) => Promise<T>): Promise<T> {
  const link = await requireActiveLink(deps.db);
  try {
    return await call(link);
  } catch (err) {
    if (err instanceof LinkInError) {
      deps.onEvents(err.events);
      throw errors.invalidState(`The accounting link is in error: ${err.reason}. Connect it again.`, 'accounting_link');
    }
    if (err instanceof ProviderAuthError) {
      // Its own transaction: the request's may roll back, the link's state must not.
      const tenant = { merchantId: link.merchantId, mode: link.mode };
      deps.onEvents(await scopedDb(deps.rootDb, tenant).$transaction((tx) => markLinkError(tx, tenant, link.id, err.message, new Date())));
      throw errors.invalidState(`The accounting link is in error: ${err.message}. Connect it again.`, 'accounting_link');
    }
    return providerErrorToApi(err);
  }
}

export function chartOfAccounts(deps: CatalogDeps): Promise<LedgerAccountInfo[]> {
  return withProvider(deps, async (link) => adapterFor(deps.config, link.provider).chartOfAccounts(await linkCredentials({ db: deps.rootDb, config: deps.config }, link)));
}

export function vatCodes(deps: CatalogDeps): Promise<VatCodeInfo[]> {
  return withProvider(deps, async (link) => adapterFor(deps.config, link.provider).vatCodes(await linkCredentials({ db: deps.rootDb, config: deps.config }, link)));
}
