// The failure type Temporal gives a thrown gateway error must be in (or out of) the
// non-retryable list exactly as intended: checked with the SDK's own conversion.
import assert from 'node:assert/strict';
import { ensureApplicationFailure } from '@temporalio/common';
import {
  AdapterNotConfiguredError,
  GatewayIdempotencyKeyReusedError,
  GatewayInvalidRequestError,
  GatewayRefusedError,
  GatewayUnavailableError,
  NON_RETRYABLE_GATEWAY_ERROR_TYPES,
} from '../../../src/gateways';

describe('gateway errors as Temporal failures', () => {
  const cases: Array<[string, Error, boolean]> = [
    ['invalid request', new GatewayInvalidRequestError('card_acquirer', 'unknown token', 'token'), false],
    ['refused by the bank', new GatewayRefusedError('bank_claims', 'account_closed', 'account closed', 'kennitala'), false],
    ['idempotency key reused', new GatewayIdempotencyKeyReusedError('card_acquirer', 'k1'), false],
    ['adapter not configured', new AdapterNotConfiguredError('card_acquirer'), false],
    ['unavailable (timeout)', new GatewayUnavailableError('card_acquirer', 'timeout', 'acquirer timed out'), true],
  ];
  for (const [name, err, retryable] of cases) {
    it(`${name} is ${retryable ? 'retried' : 'not retried'}`, () => {
      const failure = ensureApplicationFailure(err);
      assert.equal(NON_RETRYABLE_GATEWAY_ERROR_TYPES.includes(failure.type ?? ''), !retryable, `type ${failure.type}`);
    });
  }
});
