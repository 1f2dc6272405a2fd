// POST /v1/accounting_link/complete (form providers): checks the credentials with the provider
// (it must name the company), then creates the current link; after commit its sync workflow is
// started (and the replaced link's stopped). OAuth providers are refused here.
// The provider is asked with no transaction open (the route runs step-wise, docs/idempotency.md);
// the link is then created in one short transaction of its own.
import type { AccountingLink } from '../../generated/prisma/client';
import type { ScopedDb, TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { ProviderAuthError, type ProviderCredentials } from '../../gateways/accounting/adapter';
import { adapterFor } from './link-credentials';
import { providerFor } from './connect-accounting-link';
import { createAccountingLink } from './create-accounting-link';
import { providerErrorToApi } from './provider-errors';
import type { RequestScope } from '../request-scope';
import { afterCommit } from '../workflow-calls';
import { startLinkSync, type AccountingSyncDeps } from './sync-workflow';

export async function completeAccountingLink(
  deps: AccountingSyncDeps,
  scope: RequestScope,
  input: { provider: string; credentials: Record<string, unknown>; now: Date },
): Promise<AccountingLink> {
  const { tenant } = scope;
  const config = deps.config;
  const info = providerFor(tenant, input.provider, tenant.mode);
  if (info.authType !== 'form') throw errors.invalidState(`${info.name} connects with OAuth: POST /v1/accounting_link/connect and send the user to its redirect_url`, 'provider');
  const c = input.credentials;
  for (const f of ['api_token', 'company_id'] as const) {
    if (typeof c[f] !== 'string' || (c[f] as string).length === 0 || (c[f] as string).length > 500)
      throw errors.validationFailed(`credentials.${f} is required (a string of 1 to 500 characters)`, `credentials.${f}`);
  }
  const credentials: ProviderCredentials = { kind: 'form', apiToken: c.api_token as string, companyId: c.company_id as string };
  let company: { tenant: string };
  try {
    company = await adapterFor(config, info.id).verify(credentials);
  } catch (err) {
    if (err instanceof ProviderAuthError) throw errors.validationFailed(`${info.name} refused the credentials: ${err.message}`, 'credentials');
    providerErrorToApi(err, 'provider');
  }
  const create = (db: TenantDb) =>
    createAccountingLink(db, tenant, config, { provider: info.id, credentials, accessTokenExpiresAt: null, providerTenant: company.tenant, now: input.now });
  // Step-wise (the scoped root client): a transaction of its own; inside a caller's transaction: in it.
  const { link, replaced } = '$transaction' in scope.db ? await (scope.db as ScopedDb).$transaction((tx) => create(tx)) : await create(scope.db);
  afterCommit(deps, scope, `accounting link ${link.id}: sync not started yet`, () => startLinkSync(deps, tenant, link.id, replaced));
  return link;
}
