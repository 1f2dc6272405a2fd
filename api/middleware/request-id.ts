import { randomUUID } from 'node:crypto';
import type { Middleware } from '../context';

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** `req_` and 32 hexadecimal digits: a random UUID without its dashes. */
function newRequestId(): string {
  const u = randomUUID();
  return `req_${u.slice(0, 8)}${u.slice(9, 13)}${u.slice(14, 18)}${u.slice(19, 23)}${u.slice(24)}`;
}

/** Every response carries X-Request-Id; a client-supplied one is echoed when it is sane. */
export function requestId(): Middleware {
  // A plain function, not an `async` one: a pass-through adds no promise of its own per request.
  return (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = incoming !== '' && SANE_ID.test(incoming) ? incoming : newRequestId();
    ctx.state.afterCommit = [];
    ctx.state.body = {};
    ctx.set('X-Request-Id', ctx.state.requestId);
    return next();
  };
}
