// Whether a Temporal client error means "the service is unreachable or overloaded right now"
// (so the API may answer 503 and the client may retry) rather than a refusal or a bug. Only
// these answer 503; everything else is rethrown and becomes a logged 500.
import { isGrpcServiceError, ServiceError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';

// gRPC status codes that mean "try again": DEADLINE_EXCEEDED (4), RESOURCE_EXHAUSTED (8, the
// server's rate limit), ABORTED (10), UNAVAILABLE (14).
const RETRYABLE_GRPC_CODES = new Set([4, 8, 10, 14]);

export function isTemporalUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 6; depth++) {
    if (e instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
    if (isGrpcServiceError(e) && RETRYABLE_GRPC_CODES.has(e.code)) return true;
    if (e instanceof ServiceError && /failed to connect/i.test(e.message)) return true;
    // Connection.connect failures (TransportError from the native bridge, or a connect timeout).
    if (e instanceof Error && /TransportError|ECONNREFUSED|ECONNRESET|failed to connect|connection (closed|refused|reset)/i.test(`${e.name} ${e.message}`)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
