import { ApiError, errorBody, errors } from '../../src/errors';
import type { Middleware } from '../context';
import { loggablePath } from '../portal/paths';

export { errorBody };

/** Renders every failure in the error envelope; unexpected errors become a logged 500. */
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
