// Back-pressure: at most `limit` requests are served at once by this process (API_MAX_IN_FLIGHT).
// One more is answered at once with 503 service_unavailable and Retry-After, before it is
// authenticated or its body read: a client sees a fast, retryable refusal instead of joining a
// queue for the database pool that would hold it for seconds (docs/operations.md "Pools and
// back-pressure"). The health endpoints (/livez, /readyz, /metrics before this gate, /healthz
// exempt) are never refused, so an operator can always see why.
import { errors } from '../../src/errors';
import type { Middleware } from '../context';

/** Paths this gate never refuses. */
const EXEMPT = new Set(['/healthz', '/livez', '/readyz', '/metrics']);

export interface InFlightGate {
  middleware: Middleware;
  /** Requests being served now (exempt paths not counted). */
  current(): number;
  readonly limit: number;
  /** Requests refused since start. */
  refused(): number;
}

export const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

export function createInFlightGate(limit: number, onRefused: () => void = () => undefined): InFlightGate {
  let current = 0;
  let refused = 0;
  const middleware: Middleware = async (ctx, next) => {
    if (EXEMPT.has(ctx.path)) return next();
    if (current >= limit) {
      refused += 1;
      onRefused();
      throw errors.serviceUnavailable(`The service is at its limit of ${limit} requests at once; retry shortly.`, undefined, {
        'Retry-After': String(IN_FLIGHT_RETRY_AFTER_SECONDS),
      });
    }
    current += 1;
    try {
      return await next();
    } finally {
      current -= 1;
    }
  };
  return { middleware, current: () => current, limit, refused: () => refused };
}
