// Every error the API can return, each with a stable code, an HTTP status and a type.
// Domain code throws ApiError through these factories; the error middleware renders the
// envelope `{ error: { type, code, message, param, doc_url, request_id } }`.
// docs/errors.md lists them; test/unit/errors-doc.test.ts keeps the two in step.

import { boundedText } from './validation/text';

export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'rate_limit_error' | 'idempotency_error' | 'api_error';

export const DOC_BASE = 'https://docs.billing.example/errors';

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

const make = (status: number, type: ErrorType, code: string) => (message: string, param?: string, headers?: Record<string, string>) =>
  new ApiError(status, type, code, message, param, headers);

export const errors = {
  // 400
  validationFailed: make(400, 'invalid_request_error', 'validation_failed'),
  invalidJson: make(400, 'invalid_request_error', 'invalid_json'),
  parameterNotAllowed: make(400, 'invalid_request_error', 'parameter_not_allowed'),
  merchantHeaderMissing: make(400, 'invalid_request_error', 'merchant_header_missing'),
  invalidSubscription: make(400, 'invalid_request_error', 'invalid_subscription'),
  invalidPriceType: make(400, 'invalid_request_error', 'invalid_price_type'),
  urlNotAllowed: make(400, 'invalid_request_error', 'url_not_allowed'),
  oauthStateInvalid: make(400, 'invalid_request_error', 'oauth_state_invalid'),
  // 401
  unauthorized: make(401, 'authentication_error', 'unauthorized'),
  // 402
  cardDeclined: make(402, 'invalid_request_error', 'card_declined'),
  // 403
  secretKeyRequired: make(403, 'permission_error', 'secret_key_required'),
  merchantMismatch: make(403, 'permission_error', 'merchant_mismatch'),
  liveModeNotEnabled: make(403, 'permission_error', 'live_mode_not_enabled'),
  wrongAuthMethod: make(403, 'permission_error', 'wrong_auth_method'),
  originNotAllowed: make(403, 'permission_error', 'origin_not_allowed'),
  testModeOnly: make(403, 'permission_error', 'test_mode_only'),
  // Dashboard sessions (docs/dashboard.md)
  roleNotAllowed: make(403, 'permission_error', 'role_not_allowed'),
  csrfTokenInvalid: make(403, 'permission_error', 'csrf_token_invalid'),
  portalActionNotAllowed: make(403, 'permission_error', 'portal_action_not_allowed'),
  // 404
  resourceMissing: make(404, 'invalid_request_error', 'resource_missing'),
  resourceNotFound: make(404, 'invalid_request_error', 'resource_not_found'),
  routeNotFound: make(404, 'invalid_request_error', 'route_not_found'),
  // 405
  methodNotAllowed: make(405, 'invalid_request_error', 'method_not_allowed'),
  // 409
  idempotencyKeyInUse: make(409, 'idempotency_error', 'idempotency_key_in_use'),
  resourceConflict: make(409, 'invalid_request_error', 'resource_conflict'),
  invalidState: make(409, 'invalid_request_error', 'invalid_state'),
  cannotUncancel: make(409, 'invalid_request_error', 'cannot_uncancel'),
  cannotPause: make(409, 'invalid_request_error', 'cannot_pause'),
  notPaused: make(409, 'invalid_request_error', 'not_paused'),
  // 400 from the HTTP parser, before the application: a request that is not valid HTTP/1.1
  malformedRequest: make(400, 'invalid_request_error', 'malformed_request'),
  // 413, 415, 431
  bodyTooLarge: make(413, 'invalid_request_error', 'body_too_large'),
  requestHeaderTooLarge: make(431, 'invalid_request_error', 'request_header_too_large'),
  unsupportedMediaType: make(415, 'invalid_request_error', 'unsupported_media_type'),
  // 429
  rateLimited: make(429, 'rate_limit_error', 'rate_limited'),
  signInLocked: make(429, 'rate_limit_error', 'sign_in_locked'),
  // 500, 503
  internal: make(500, 'api_error', 'internal_error'),
  serviceUnavailable: make(503, 'api_error', 'service_unavailable'),
  adapterNotConfigured: make(503, 'api_error', 'adapter_not_configured'),
  // 502
  accountingProviderError: make(502, 'api_error', 'accounting_provider_error'),
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
      doc_url: `${DOC_BASE}#${err.code}`,
      request_id: requestId,
    },
  };
}

/** All codes with their status, for docs and tests. */
export function errorCatalog(): Array<{ code: string; status: number; type: ErrorType }> {
  return Object.values(errors).map((f) => {
    const e = f('x');
    return { code: e.code, status: e.status, type: e.type };
  });
}
