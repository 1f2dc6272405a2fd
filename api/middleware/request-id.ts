import { randomUUID } from 'node:crypto';
import type { Middleware } from '../context';

/** Every response carries X-Request-Id; a client-supplied one is echoed when it is sane. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = /^[A-Za-z0-9._:-]{8,128}$/.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
    ctx.state.afterCommit = [];
    ctx.state.body = {};
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
