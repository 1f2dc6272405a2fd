// Failure types of gateway errors that an activity must not retry, in one workflow-safe place
// (workflows cannot import src/gateways, which pulls in Prisma). Temporal types a failure by the
// thrown error's constructor name, falling back to `name`, so both forms are listed;
// test/unit/gateways/failure-types.test.ts checks them through the SDK's own conversion.
// GatewayUnavailable (timeouts, outages) stays retryable, with the same idempotency key.
export const NON_RETRYABLE_GATEWAY_ERROR_TYPES = [
  'GatewayInvalidRequestError',
  'GatewayRefusedError',
  'GatewayIdempotencyKeyReusedError',
  'AdapterNotConfiguredError',
  'GatewayInvalidRequest',
  'GatewayRefused',
  'GatewayIdempotencyKeyReused',
  'AdapterNotConfigured',
] as const;
