// Provider answers → API errors for the link's request/response routes (the sync records them
// on the sync record instead).
import { errors } from '../../errors';
import { ProviderAuthError, ProviderRejectedError, ProviderUnavailableError } from '../../gateways/accounting/adapter';
import { AccountingAdapterNotConfigured } from '../../gateways/accounting/providers';
import { EncryptionKeyMissing } from '../../crypto/secret-box';

export function providerErrorToApi(err: unknown, param?: string): never {
  if (err instanceof AccountingAdapterNotConfigured) throw errors.adapterNotConfigured(err.message, param);
  if (err instanceof EncryptionKeyMissing) throw errors.adapterNotConfigured(err.message);
  if (err instanceof ProviderUnavailableError) {
    const seconds = err.retryAfterMs === null ? 5 : Math.max(1, Math.ceil(err.retryAfterMs / 1000));
    throw errors.serviceUnavailable(`The accounting provider is unavailable: ${err.message}`, undefined, { 'Retry-After': String(seconds) });
  }
  if (err instanceof ProviderRejectedError) throw errors.accountingProviderError(`The accounting provider refused the request: ${err.message}`, param);
  if (err instanceof ProviderAuthError) throw errors.accountingProviderError(`The accounting provider refused the credentials: ${err.message}`, param);
  throw err;
}
