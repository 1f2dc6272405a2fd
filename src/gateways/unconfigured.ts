// Live mode with no adapter configured: every call fails with AdapterNotConfiguredError (503
// adapter_not_configured in the API). Never a silent success, never the simulator.
import type { BankClaims } from './bank-claims';
import type { CardAcquirer } from './card-acquirer';
import { AdapterNotConfiguredError } from './errors';

export class UnconfiguredCardAcquirer implements CardAcquirer {
  readonly kind = 'unconfigured' as const;
  tokenizeCard(): Promise<never> {
    return Promise.reject(new AdapterNotConfiguredError('card_acquirer'));
  }
  charge(): Promise<never> {
    return Promise.reject(new AdapterNotConfiguredError('card_acquirer'));
  }
  refund(): Promise<never> {
    return Promise.reject(new AdapterNotConfiguredError('card_acquirer'));
  }
}

export class UnconfiguredBankClaims implements BankClaims {
  readonly kind = 'unconfigured' as const;
  createClaim(): Promise<never> {
    return Promise.reject(new AdapterNotConfiguredError('bank_claims'));
  }
  getClaim(): Promise<never> {
    return Promise.reject(new AdapterNotConfiguredError('bank_claims'));
  }
  cancelClaim(): Promise<never> {
    return Promise.reject(new AdapterNotConfiguredError('bank_claims'));
  }
}
