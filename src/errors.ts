// Every error the API can return, each with a stable code, an HTTP status and a type.
// Domain code throws ApiError through these factories; the error middleware renders the
// envelope `{ error: { type, code, message, param, doc_url, request_id } }`.
// This is the one list of codes: each has its status, type and a sentence saying when it is
// answered. The service's error reference page (GET /docs/errors, api/docs/errors-page.ts) and the
// table in docs/errors.md are generated from it; test/unit/errors-doc.test.ts keeps the doc in step.

import { boundedText } from './validation/text';

export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'rate_limit_error' | 'idempotency_error' | 'api_error';

/** What each error `type` tells the client to do. */
export const ERROR_TYPES: Record<ErrorType, string> = {
  invalid_request_error: 'the request is wrong: fix it before retrying',
  authentication_error: 'no valid API key',
  permission_error: 'the key is valid but may not do this',
  rate_limit_error: 'too many requests: back off and retry after `Retry-After` seconds',
  idempotency_error: 'an Idempotency-Key is still in use by a request in flight',
  api_error: "our fault or an outside system's; safe to retry with the same Idempotency-Key",
};

/**
 * Where an error's `doc_url` points: the service's own error reference, one anchor per code. A
 * relative reference (RFC 3986): it resolves against the URL the client called, so it names the
 * service that answered whatever host, port or proxy it was reached through, and a stored
 * Idempotency-Key replay stays right when PUBLIC_BASE_URL changes (docs/errors.md).
 */
export const ERROR_DOC_PATH = '/docs/errors';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** An error factory that also carries its code, status, type and when it is answered. */
const make = (status: number, type: ErrorType, code: string, description: string) =>
  Object.assign((message: string, param?: string, headers?: Record<string, string>) => new ApiError(status, type, code, message, param, headers), {
    status,
    type,
    code,
    description,
  });

export const errors = {
  // 400
  validationFailed: make(
    400,
    'invalid_request_error',
    'validation_failed',
    'a field has the wrong type, is missing, out of range or malformed; also a JSON body that is not an object',
  ),
  invalidJson: make(400, 'invalid_request_error', 'invalid_json', 'the body is not valid JSON'),
  parameterNotAllowed: make(400, 'invalid_request_error', 'parameter_not_allowed', 'a field that cannot be changed after creation was sent to an update'),
  merchantHeaderMissing: make(400, 'invalid_request_error', 'merchant_header_missing', '`X-Merchant-Id` is required on this route and was not sent'),
  invalidSubscription: make(
    400,
    'invalid_request_error',
    'invalid_subscription',
    'subscription create rules (shared interval and currency, a recurring item, payment method or kennitala)',
  ),
  invalidPriceType: make(400, 'invalid_request_error', 'invalid_price_type', 'a price that cannot be used where it was given'),
  urlNotAllowed: make(
    400,
    'invalid_request_error',
    'url_not_allowed',
    'a webhook endpoint URL that is not HTTPS, or names or resolves to a loopback, private, link-local, metadata or other non-public address (docs/webhooks.md)',
  ),
  oauthStateInvalid: make(
    400,
    'invalid_request_error',
    'oauth_state_invalid',
    "the accounting OAuth callback's `state` is unknown, used, expired or for another provider, or the user denied access (docs/accounting.md)",
  ),
  // 401
  unauthorized: make(401, 'authentication_error', 'unauthorized', '`Authorization` missing, malformed, or holding an unknown, rotated or revoked key'),
  // 402
  cardDeclined: make(
    402,
    'invalid_request_error',
    'card_declined',
    "the card was declined when saving it (test helper `POST /v1/test_helpers/customers/{id}/payment_methods`); `message` is the acquirer's reason, safe to show",
  ),
  // 403
  secretKeyRequired: make(403, 'permission_error', 'secret_key_required', 'a publishable key on anything but creating an embedded payment session'),
  merchantMismatch: make(403, 'permission_error', 'merchant_mismatch', '`X-Merchant-Id` is not the merchant of the key'),
  liveModeNotEnabled: make(403, 'permission_error', 'live_mode_not_enabled', 'a live key of a merchant that has not gone live'),
  wrongAuthMethod: make(
    403,
    'permission_error',
    'wrong_auth_method',
    'a dashboard-only route called with an API key, a dashboard page called with an API key, or an API route called with only a dashboard session cookie (docs/auth.md)',
  ),
  originNotAllowed: make(403, 'permission_error', 'origin_not_allowed', 'a publishable key used from an origin the merchant has not allowed'),
  testModeOnly: make(403, 'permission_error', 'test_mode_only', 'a test helper route called with a live key'),
  // Dashboard sessions (docs/dashboard.md)
  roleNotAllowed: make(403, 'permission_error', 'role_not_allowed', 'a dashboard user whose role does not allow the action (docs/dashboard.md)'),
  csrfTokenInvalid: make(
    403,
    'permission_error',
    'csrf_token_invalid',
    "a state-changing dashboard request, or a customer portal action, without its session's CSRF token (docs/dashboard.md, docs/portal.md)",
  ),
  portalActionNotAllowed: make(
    403,
    'permission_error',
    'portal_action_not_allowed',
    "a customer portal action the merchant's portal settings turn off, or one the portal never offers (docs/portal.md)",
  ),
  // 404
  resourceMissing: make(404, 'invalid_request_error', 'resource_missing', 'an unknown id in the path or in `starting_after`, including ids of another merchant or the other mode'),
  resourceNotFound: make(404, 'invalid_request_error', 'resource_not_found', 'an id referenced in the body does not exist (e.g. the customer of a new subscription)'),
  routeNotFound: make(404, 'invalid_request_error', 'route_not_found', 'no such route'),
  // 405
  methodNotAllowed: make(405, 'invalid_request_error', 'method_not_allowed', 'the route exists but not with this method'),
  // 409
  idempotencyKeyInUse: make(409, 'idempotency_error', 'idempotency_key_in_use', 'another request with the same Idempotency-Key is still running after 10 s'),
  resourceConflict: make(409, 'invalid_request_error', 'resource_conflict', 'a unique value is taken (e.g. `external_id`) or a concurrent change won'),
  invalidState: make(409, 'invalid_request_error', 'invalid_state', "the object's state does not allow the operation"),
  cannotUncancel: make(409, 'invalid_request_error', 'cannot_uncancel', 'uncancel without a pending cancellation'),
  cannotPause: make(409, 'invalid_request_error', 'cannot_pause', 'pause when the subscription is not `active` or `trialing`'),
  notPaused: make(409, 'invalid_request_error', 'not_paused', 'resume when the subscription is not paused'),
  // 400 from the HTTP parser, before the application: a request that is not valid HTTP/1.1
  malformedRequest: make(400, 'invalid_request_error', 'malformed_request', 'the request is not valid HTTP/1.1 (refused by the HTTP parser; the connection closes)'),
  // 413, 415, 431
  bodyTooLarge: make(413, 'invalid_request_error', 'body_too_large', 'the body exceeds `BODY_LIMIT_BYTES` (default 1 MiB)'),
  requestHeaderTooLarge: make(431, 'invalid_request_error', 'request_header_too_large', 'the request line and headers exceed 16 KB together (usually a long query string)'),
  unsupportedMediaType: make(415, 'invalid_request_error', 'unsupported_media_type', 'a body that is not `Content-Type: application/json`'),
  // 429
  rateLimited: make(429, 'rate_limit_error', 'rate_limited', "the key's request budget for the current window is spent; see `Retry-After`"),
  signInLocked: make(429, 'rate_limit_error', 'sign_in_locked', 'too many failed dashboard sign-ins for the e-mail or from the address; the message says until when'),
  // 500, 503
  internal: make(500, 'api_error', 'internal_error', "an unexpected error; the request's writes were rolled back"),
  serviceUnavailable: make(503, 'api_error', 'service_unavailable', 'a dependency is unreachable or overloaded right now; retry (with the same Idempotency-Key) — see "When 503"'),
  adapterNotConfigured: make(503, 'api_error', 'adapter_not_configured', 'live mode needs an outside system (acquirer, bank, accounting) that is not configured'),
  // 502
  accountingProviderError: make(
    502,
    'api_error',
    'accounting_provider_error',
    'the accounting provider answered with an error the service cannot act on (its message is included)',
  ),
} as const;

export type ErrorFactoryName = keyof typeof errors;

let byCode: Map<string, (message: string, param?: string, headers?: Record<string, string>) => ApiError> | undefined;

/**
 * The error of a code (a refusal that crossed Temporal as its code, src/contracts/refusal.ts):
 * the factory of that code, so status and type are the catalog's. An unknown code is a bug: 500.
 */
export function errorFromCode(code: string, message: string, param?: string): ApiError {
  byCode ??= new Map(Object.values(errors).map((f) => [f('x').code, f]));
  const make = byCode.get(code);
  return make ? make(message, param) : errors.internal(`Unknown error code '${code}': ${message}`, param);
}

/** Longest `message` and `param` an error body carries (code points): an error body stays under 2 KB whatever the input. */
export const ERROR_MESSAGE_MAX = 500;
export const ERROR_PARAM_MAX = 200;

/** The error envelope of every error response (docs/errors.md): message and param bounded and escaped. */
export function errorBody(err: ApiError, requestId: string) {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: boundedText(err.message, ERROR_MESSAGE_MAX),
      ...(err.param !== undefined ? { param: boundedText(err.param, ERROR_PARAM_MAX) } : {}),
      doc_url: errorDocUrl(err.code),
      request_id: requestId,
    },
  };
}

/** The `doc_url` of an error code: its anchor on the service's error reference page. */
export function errorDocUrl(code: string): string {
  return `${ERROR_DOC_PATH}#${code}`;
}

export interface ErrorCatalogEntry {
  code: string;
  status: number;
  type: ErrorType;
  /** When the code is answered (Markdown: `code` spans only). */
  description: string;
}

/** All codes with their status, type and description, in the order above; for the docs and tests. */
export function errorCatalog(): ErrorCatalogEntry[] {
  return Object.values(errors).map((f) => ({ code: f.code, status: f.status, type: f.type, description: f.description }));
}
