// Pure parts of the gateways other than card data: claim status at a time, the bank
// reference, configuration from the environment, error typing.
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/errors';
import {
  AdapterNotConfiguredError,
  claimStatusAt,
  gatewayConfigFromEnv,
  gatewayErrorToApiError,
  GatewayIdempotencyKeyReusedError,
  GatewayInvalidRequestError,
  GatewayUnavailableError,
  isRetryableGatewayError,
  NON_RETRYABLE_GATEWAY_ERROR_TYPES,
  simulatedBankReference,
} from '../../../src/gateways';

describe('gateways: claimStatusAt', () => {
  const exp = new Date('2027-01-31T00:00:00Z');
  const cases: Array<['open' | 'paid' | 'cancelled', Date | null, string, string]> = [
    ['open', exp, '2027-01-30T23:59:59.999Z', 'open'],
    ['open', exp, '2027-01-31T00:00:00.000Z', 'expired'],
    ['open', exp, '2030-01-01T00:00:00.000Z', 'expired'],
    ['open', null, '2099-01-01T00:00:00.000Z', 'open'],
    ['paid', exp, '2030-01-01T00:00:00.000Z', 'paid'],
    ['cancelled', exp, '2030-01-01T00:00:00.000Z', 'cancelled'],
  ];
  for (const [status, expiresAt, now, expected] of cases) {
    it(`${status} (expires ${expiresAt?.toISOString() ?? 'never'}) at ${now} is ${expected}`, () => {
      assert.equal(claimStatusAt({ status, expiresAt }, new Date(now)), expected);
    });
  }
});

describe('gateways: simulatedBankReference', () => {
  it('is bank-ledger-number, deterministic per merchant and key', () => {
    const a = simulatedBankReference('merch_a', 'inv_1');
    assert.match(a, /^0133-66-\d{6}$/);
    assert.equal(simulatedBankReference('merch_a', 'inv_1'), a);
    assert.notEqual(simulatedBankReference('merch_a', 'inv_2'), a);
  });
});

describe('gateways: gatewayConfigFromEnv', () => {
  it('reads the slow-card delay', () => {
    assert.deepEqual(gatewayConfigFromEnv({}), { simulator: {} });
    assert.deepEqual(gatewayConfigFromEnv({ CARD_SIMULATOR_SLOW_DELAY_MS: '1500' }), { simulator: { slowDelayMs: 1500 } });
  });
  for (const bad of ['-1', '1.5', 'abc', '600001']) {
    it(`refuses CARD_SIMULATOR_SLOW_DELAY_MS=${bad}`, () => {
      assert.throws(() => gatewayConfigFromEnv({ CARD_SIMULATOR_SLOW_DELAY_MS: bad }), /CARD_SIMULATOR_SLOW_DELAY_MS/);
    });
  }
});

describe('gateways: errors', () => {
  it('AdapterNotConfigured is the API error 503 adapter_not_configured and not retryable', () => {
    const e = new AdapterNotConfiguredError('card_acquirer');
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 503);
    assert.equal(e.code, 'adapter_not_configured');
    assert.equal(e.type, 'api_error');
    assert.equal(e.name, 'AdapterNotConfigured');
    assert.match(e.message, /card acquirer/);
    assert.equal(isRetryableGatewayError(e), false);
    assert.equal(gatewayErrorToApiError(e), e);
  });
  it('classifies retryable and non-retryable errors by name', () => {
    const transient = new GatewayUnavailableError('card_acquirer', 'timeout', 'slow');
    const invalid = new GatewayInvalidRequestError('bank_claims', 'kennitala_invalid', 'bad', 'kennitala');
    const reused = new GatewayIdempotencyKeyReusedError('card_acquirer', 'k1');
    assert.equal(isRetryableGatewayError(transient), true);
    assert.equal(isRetryableGatewayError(invalid), false);
    assert.equal(isRetryableGatewayError(reused), false);
    assert.equal(isRetryableGatewayError(new Error('x')), false);
    assert.equal(NON_RETRYABLE_GATEWAY_ERROR_TYPES.includes(transient.name), false);
    for (const e of [invalid, reused, new AdapterNotConfiguredError('bank_claims')]) assert.ok(NON_RETRYABLE_GATEWAY_ERROR_TYPES.includes(e.name), e.name);
  });
  it('maps to API errors', () => {
    assert.equal(gatewayErrorToApiError(new GatewayUnavailableError('card_acquirer', 'timeout', 'x'))?.code, 'service_unavailable');
    const v = gatewayErrorToApiError(new GatewayInvalidRequestError('bank_claims', 'kennitala_invalid', 'bad kennitala', 'kennitala'));
    assert.deepEqual([v?.status, v?.code, v?.param], [400, 'validation_failed', 'kennitala']);
    assert.equal(gatewayErrorToApiError(new Error('x')), undefined);
  });
});
