// POST /v1/accounting_link/connect: for an OAuth provider, a single-use `state` bound to the
// merchant, mode and provider (stored as its SHA-256, valid STATE_TTL_MS) and the provider's
// authorization URL to send the user to. Form providers answer with the fields `complete` needs.
import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import type { Tenant, TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { providerInfo } from '../../gateways/accounting/providers';
import type { ProviderInfo } from '../../gateways/accounting/adapter';
import { adapterFor } from './link-credentials';
import { providerErrorToApi } from './provider-errors';

export const STATE_TTL_MS = 10 * 60_000;
export const FORM_FIELDS = ['api_token', 'company_id'] as const;

export function hashState(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('hex');
}

export function callbackUrl(config: Config, provider: string): string {
  return `${config.publicBaseUrl}/v1/accounting_link/callback/${provider}`;
}

/** The provider, checked against the key's mode and the requested mode (docs/accounting.md). */
export function providerFor(tenant: Tenant, provider: string, mode: string | undefined): ProviderInfo {
  const info = providerInfo(provider);
  if (!info) throw errors.validationFailed(`provider must be one of the providers listed by GET /v1/accounting_link/providers, got '${provider}'`, 'provider');
  const wanted = mode ?? 'live';
  if (wanted !== tenant.mode) {
    throw errors.validationFailed(
      `mode ${wanted} does not match the API key's mode (${tenant.mode}); ${tenant.mode === 'test' ? 'test keys connect sandbox providers with mode test' : 'live keys connect live providers'}`,
      'mode',
    );
  }
  if (info.environment !== tenant.mode) {
    throw errors.validationFailed(`${info.name} is a ${info.environment}-mode provider; with a ${tenant.mode} key connect one of the ${tenant.mode} providers`, 'provider');
  }
  return info;
}

export async function connectAccountingLink(
  db: TenantDb,
  tenant: Tenant,
  config: Config,
  input: { provider: string; mode?: string; now: Date },
): Promise<{ redirect_url: string | null; auth_type: string; credentials_fields?: readonly string[] }> {
  const info = providerFor(tenant, input.provider, input.mode);
  let adapter;
  try {
    adapter = adapterFor(config, info.id);
  } catch (err) {
    providerErrorToApi(err, 'provider');
  }
  if (info.authType === 'form') return { redirect_url: null, auth_type: 'form', credentials_fields: FORM_FIELDS };
  const state = randomBytes(32).toString('base64url');
  await db.accountingOAuthState.create({
    data: { stateHash: hashState(state), merchantId: tenant.merchantId, mode: tenant.mode, provider: info.id, expiresAt: new Date(input.now.getTime() + STATE_TTL_MS) },
  });
  return { redirect_url: adapter.authorizeUrl!({ state, redirectUri: callbackUrl(config, info.id) }), auth_type: 'oauth' };
}
