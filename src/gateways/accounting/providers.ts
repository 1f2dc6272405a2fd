// The provider catalogue and adapter factory. Test mode: the two sandboxes (reachable when their
// URLs are configured: `npm start` and the tests start them). Live mode: the real providers,
// which need a configured adapter; none is configured in this build, so connecting one fails
// with adapter_not_configured, as the card acquirer does.
import type { AccountingAdapter, ProviderInfo } from './adapter';
import { createHttpAccountingAdapter } from './http-adapter';

export interface AccountingProvidersConfig {
  sandboxOAuthUrl?: string;
  sandboxOAuthClientId?: string;
  sandboxOAuthClientSecret?: string;
  sandboxFormUrl?: string;
}

export const PROVIDERS: readonly ProviderInfo[] = [
  { id: 'sandbox_oauth', name: 'Sandbox Books (OAuth)', authType: 'oauth', environment: 'test' },
  { id: 'sandbox_form', name: 'Sandbox Bókhald (API token)', authType: 'form', environment: 'test' },
  { id: 'xero', name: 'Xero', authType: 'oauth', environment: 'live' },
  { id: 'dk', name: 'dk bókhald', authType: 'form', environment: 'live' },
];

export function providerInfo(id: string): ProviderInfo | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

export class AccountingAdapterNotConfigured extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountingAdapterNotConfigured';
  }
}

/** The adapter for a provider, or AccountingAdapterNotConfigured with a reason a merchant can read. */
export function accountingAdapter(config: AccountingProvidersConfig, providerId: string): AccountingAdapter {
  const info = providerInfo(providerId);
  if (!info) throw new AccountingAdapterNotConfigured(`unknown accounting provider ${providerId}`);
  if (info.id === 'sandbox_oauth' && config.sandboxOAuthUrl) {
    return createHttpAccountingAdapter({ info, baseUrl: config.sandboxOAuthUrl, clientId: config.sandboxOAuthClientId, clientSecret: config.sandboxOAuthClientSecret });
  }
  if (info.id === 'sandbox_form' && config.sandboxFormUrl) return createHttpAccountingAdapter({ info, baseUrl: config.sandboxFormUrl });
  if (info.environment === 'test')
    throw new AccountingAdapterNotConfigured(
      `The ${info.name} sandbox is not running in this deployment (set ACCOUNTING_SANDBOX_${info.authType === 'oauth' ? 'OAUTH' : 'FORM'}_URL)`,
    );
  throw new AccountingAdapterNotConfigured(`No live adapter for ${info.name} is configured in this deployment`);
}
