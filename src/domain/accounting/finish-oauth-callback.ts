// GET /v1/accounting_link/callback/{provider}: the provider sends the user back with `code` and
// `state`. The state is consumed (single use, unexpired, same provider) in one conditional
// UPDATE, which also tells whose merchant and mode it is; then the code is exchanged for tokens
// and the current link created, then its sync workflow started (and the replaced link's stopped;
// a failure there is logged: the first nudge starts it). A denied authorization consumes the
// state and creates nothing.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant } from '../../db/tenancy';
import type { AccountingLink } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { ProviderAuthError } from '../../gateways/accounting/adapter';
import { adapterFor } from './link-credentials';
import { callbackUrl, hashState } from './connect-accounting-link';
import { createAccountingLink } from './create-accounting-link';
import { providerErrorToApi } from './provider-errors';
import { startLinkSync, type AccountingSyncDeps } from './sync-workflow';

export async function finishOAuthCallback(
  deps: AccountingSyncDeps & { db: Db },
  input: { provider: string; code?: string; state?: string; error?: string; now: Date },
): Promise<{ tenant: Tenant; link: AccountingLink }> {
  if (!input.state || input.state.length > 200) throw errors.oauthStateInvalid('The callback has no valid state: start again with POST /v1/accounting_link/connect', 'state');
  const rows = await deps.db.$queryRaw<Array<{ merchant_id: string; mode: 'test' | 'live' }>>`
    UPDATE accounting_oauth_states SET used_at = ${input.now}
     WHERE state_hash = ${hashState(input.state)} AND provider = ${input.provider} AND used_at IS NULL AND expires_at > ${input.now}
     RETURNING merchant_id, mode::text AS mode`;
  const bound = rows[0];
  if (!bound)
    throw errors.oauthStateInvalid(
      'The state is unknown, was already used, has expired or belongs to another provider: start again with POST /v1/accounting_link/connect',
      'state',
    );
  const tenant: Tenant = { merchantId: bound.merchant_id, mode: bound.mode };
  if (input.error) throw errors.oauthStateInvalid(`The authorization was not given (${input.error.slice(0, 100)}); nothing was connected`, 'error');
  if (!input.code || input.code.length > 500) throw errors.validationFailed('The callback has no authorization code', 'code');
  const adapter = adapterFor(deps.config, input.provider);
  let tokens;
  try {
    tokens = await adapter.exchangeCode!({ code: input.code, redirectUri: callbackUrl(deps.config, input.provider) });
  } catch (err) {
    if (err instanceof ProviderAuthError) throw errors.oauthStateInvalid(`The provider refused the authorization code: ${err.message}`, 'code');
    providerErrorToApi(err);
  }
  const created = await scopedDb(deps.db, tenant).$transaction((tx) =>
    createAccountingLink(tx, tenant, deps.config, {
      provider: input.provider,
      credentials: { kind: 'oauth', accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, tenant: tokens.tenant },
      accessTokenExpiresAt: tokens.expiresAt,
      providerTenant: tokens.tenant,
      now: input.now,
    }),
  );
  try {
    await startLinkSync(deps, tenant, created.link.id, created.replaced);
  } catch (err) {
    deps.log(`accounting link ${created.link.id}: sync not started yet: ${(err as Error).message}`);
  }
  return { tenant, link: created.link };
}
