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
  const done = <T>(value: T): T => {
    current -= 1;
    return value;
  };
  const failed = (err: unknown): never => {
    current -= 1;
    throw err;
  };
  // A plain function: the count is released when the rest of the chain settles, without an `async` frame of its own.
  const middleware: Middleware = (ctx, next) => {
    if (EXEMPT.has(ctx.path)) return next();
    if (current >= limit) {
      refused += 1;
      onRefused();
      throw errors.serviceUnavailable(`The service is at its limit of ${limit} requests at once; retry shortly.`, undefined, {
        'Retry-After': String(IN_FLIGHT_RETRY_AFTER_SECONDS),
      });
    }
    current += 1;
    let rest: Promise<unknown>;
    try {
      rest = next();
    } catch (err) {
      return failed(err);
    }
    return rest.then(done, failed);
  };
  return { middleware, current: () => current, limit, refused: () => refused };
}
