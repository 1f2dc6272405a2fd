// Building blocks of webhook delivery: signatures, the endpoint URL guard, one delivery
// attempt and the retry schedule. Workflow code must import './retry-schedule' directly:
// this index also pulls in the Node-only sender and guard.
export {
  DEFAULT_TOLERANCE_SECONDS,
  ENDPOINT_SECRET_PREFIX,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  generateEndpointSecret,
  isEndpointSecret,
  signPayload,
  verifySignature,
} from './signature';
export type { HeaderValue, RawBody, SignatureFailureReason, SignatureVerification, VerifySignatureInput } from './signature';

export { MAX_ENDPOINT_URL_LENGTH, checkEndpointUrl, classifyIp, resolveAndCheck, systemLookupAll } from './url-guard';
export type { EndpointUrlCheck, GuardOptions, IpClass, LookupAll, ResolveCheck, ResolveOptions, ResolvedAddress, UrlGuardCode, UrlGuardFailure } from './url-guard';

export { DEFAULT_DELIVERY_TIMEOUT_MS, MAX_RESPONSE_SNIPPET_BYTES, WEBHOOK_USER_AGENT, deliverOnce } from './sender';
export type { DeliverOnceInput, DeliveryAttemptResult } from './sender';

export { JITTER_FRACTION, MAX_ATTEMPTS, RETRY_DELAYS_MS, RETRY_WINDOW_MS, nextRetryDelayMs } from './retry-schedule';
