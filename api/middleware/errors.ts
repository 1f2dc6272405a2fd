import { ApiError, DOC_BASE, errors } from '../../src/errors';
import { boundedText } from '../../src/validation/text';
import type { Middleware } from '../context';
import { loggablePath } from '../portal/paths';

/** Longest `message` and `param` an error body carries (code points): an error body stays under 2 KB whatever the input. */
export const ERROR_MESSAGE_MAX = 500;
export const ERROR_PARAM_MAX = 200;

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
