// Typed errors of the outside-system adapters. Each class sets `name` and `retryable`. Temporal
// types an activity failure by the error's CONSTRUCTOR name (`error.constructor.name`, falling
// back to `name`), so NON_RETRYABLE_GATEWAY_ERROR_TYPES lists the class names (and the short
// names, for failures converted elsewhere):
// - GatewayUnavailableError: transient (timeout, system down). Retry WITH THE SAME KEY.
// - GatewayInvalidRequestError / GatewayIdempotencyKeyReusedError: the caller's mistake.
// - AdapterNotConfiguredError: live mode with no adapter; an ApiError, so the API renders it
//   as 503 adapter_not_configured without any mapping.
import { ApiError, errors } from '../errors';
import { NON_RETRYABLE_GATEWAY_ERROR_TYPES as NON_RETRYABLE_FAILURES } from '../contracts/gateway-failures';

export type GatewaySystem = 'card_acquirer' | 'bank_claims';

export abstract class GatewayError extends Error {
  abstract readonly retryable: boolean;
  constructor(
    readonly system: GatewaySystem,
    message: string,
  ) {
    super(message);
  }
}

export class GatewayUnavailableError extends GatewayError {
  readonly retryable = true;
  constructor(
    system: GatewaySystem,
    readonly reason: 'timeout' | 'unavailable',
    message: string,
  ) {
    super(system, message);
    this.name = 'GatewayUnavailable';
  }
}

export class GatewayInvalidRequestError extends GatewayError {
  readonly retryable: boolean = false;
  constructor(
    system: GatewaySystem,
    /** e.g. 'parameter_invalid', 'token_not_found', 'charge_not_found', 'claim_not_found', 'currency_not_supported', 'kennitala_invalid', 'claim_not_payable' */
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(system, message);
    this.name = 'GatewayInvalidRequest';
  }
}

/**
 * The outside system understood the request and said no, for a reason about the payer or the
 * account that retrying will not change: the bank does not know the payer, the payer's account
 * is closed, the amount is over what it accepts. A business outcome for the caller to record
 * (docs/subscriptions.md "Refusals"), never a reason to retry or to fail a workflow.
 */
export class GatewayRefusedError extends GatewayInvalidRequestError {
  constructor(system: GatewaySystem, code: string, message: string, param?: string) {
    super(system, code, message, param);
    this.name = 'GatewayRefused';
  }
}

export class GatewayIdempotencyKeyReusedError extends GatewayInvalidRequestError {
  constructor(system: GatewaySystem, idempotencyKey: string) {
    super(system, 'idempotency_key_reused', `idempotency key '${idempotencyKey}' was already used with different parameters`, 'idempotencyKey');
    this.name = 'GatewayIdempotencyKeyReused';
  }
}

export class AdapterNotConfiguredError extends ApiError {
  readonly retryable = false;
  constructor(readonly system: GatewaySystem) {
    const what = system === 'card_acquirer' ? 'card acquirer' : 'bank claim system';
    super(
      503,
      'api_error',
      'adapter_not_configured',
      `No live ${what} is configured for this service, so live-mode ${system === 'card_acquirer' ? 'card payments' : 'bank claims'} are unavailable. Test mode uses the built-in simulator.`,
    );
    this.name = 'AdapterNotConfigured';
  }
}

/**
 * Failure types an activity must not retry (for `nonRetryableErrorTypes` in activity
 * options). Everything else a gateway throws, GatewayUnavailable above all, is retryable.
 * Defined once, workflow-safe, in src/contracts/gateway-failures.ts.
 */
export const NON_RETRYABLE_GATEWAY_ERROR_TYPES: readonly string[] = NON_RETRYABLE_FAILURES;

export function isRetryableGatewayError(err: unknown): boolean {
  if (err instanceof GatewayError || err instanceof AdapterNotConfiguredError) return err.retryable;
  return false;
}

/** A refusal as the merchant reads it: the outside system's code and message. */
export interface GatewayRefusal {
  code: string;
  message: string;
}

/**
 * The business outcome carried by a gateway error that retrying cannot change (a refusal, a
 * request the outside system will never accept, live mode without an adapter); null for
 * anything else (transient trouble, our own bugs), which the caller rethrows so the activity
 * retries it.
 */
export function gatewayRefusal(err: unknown): GatewayRefusal | null {
  if (err instanceof GatewayInvalidRequestError) return { code: err.code, message: err.message };
  if (err instanceof AdapterNotConfiguredError) return { code: err.code, message: err.message };
  return null;
}

/** For API handlers that call an adapter directly: the API error to render. */
export function gatewayErrorToApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof GatewayUnavailableError) return errors.serviceUnavailable(`The ${err.system.replace('_', ' ')} did not answer in time. Retry with the same Idempotency-Key.`);
  if (err instanceof GatewayInvalidRequestError) return errors.validationFailed(err.message, err.param);
  return undefined;
}
