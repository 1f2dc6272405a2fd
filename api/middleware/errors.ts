import { ApiError, errorBody, errors } from '../../src/errors';
import type { Middleware } from '../context';
import { loggablePath } from '../portal/paths';
import { CONNECTION_RETRY_AFTER_SECONDS, isConnectionUnavailable } from '../../src/db/pool-errors';

export { errorBody };

/** The answer to a request that could not get a database connection in time: a retryable 503, never a 500. */
export function connectionUnavailable(): ApiError {
  return errors.serviceUnavailable('The service is busy: no database connection was free in time. Retry shortly (same Idempotency-Key for a POST).', undefined, {
    'Retry-After': String(CONNECTION_RETRY_AFTER_SECONDS),
  });
}

/**
 * Renders every failure in the error envelope; unexpected errors become a logged 500. A request
 * that could not get a database connection in time (src/db/pool-errors.ts) answers 503 with
 * Retry-After wherever in the request that happened.
 */
export function errorEnvelope(log: (line: string) => void): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw errors.routeNotFound(`Unrecognized request URL (${ctx.method}: ${ctx.path})`);
      }
    } catch (raw) {
      let err: ApiError;
      if (raw instanceof ApiError) {
        err = raw;
      } else if (isConnectionUnavailable(raw)) {
        log(`[${ctx.state.requestId}] no database connection in time on ${ctx.method} ${loggablePath(ctx.path)}: ${(raw as Error)?.message?.split('\n')[0] ?? String(raw)}`);
        err = connectionUnavailable();
      } else {
        log(`[${ctx.state.requestId}] unhandled error on ${ctx.method} ${loggablePath(ctx.path)}: ${(raw as Error)?.stack ?? String(raw)}`);
        err = errors.internal('An internal error occurred. The request id identifies it in our logs.');
      }
      ctx.status = err.status;
      for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      ctx.body = errorBody(err, ctx.state.requestId);
    }
  };
}
