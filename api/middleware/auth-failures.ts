// Failed authentication is rate limited per client address (docs/auth.md "Failed authentication").
//
// What an unauthenticated request costs us: reading and parsing a body of up to BODY_LIMIT_BYTES
// (a few milliseconds of CPU for 1 MiB), the input checks (linear in the same bytes), a SHA-256 of
// the presented key and, for a key that is not cached, one indexed database read. Bodies are
// parsed before the key is checked, because which key kinds a route accepts is the route's
// business (auth() runs per route) and input errors are answered the same with or without a key;
// the cost is bounded instead: after `limit` failed authentications in a window, an address gets
// 429 rate_limited at once, before its body is read, for the rest of the window. A valid key is
// never refused because of other clients' failures at its address (a NAT, an office proxy, a load
// balancer that is not in TRUSTED_PROXIES): a well-formed key from a blocked address is looked up
// before the body is read (the auth cache, else one indexed read) and passes when it is valid.
// What a blocked address can still cost is that one read per well-formed key; requests without a
// well-formed key are refused with no database read.
//
// Counting is per process and in memory (no database write per failure, which would let the
// attacker make us write): with N API processes an address gets at most N × limit failures per
// window. At most `maxClients` addresses are tracked; when full, expired windows are dropped
// first, then the oldest entries.
import type { Next } from 'koa';
import { errors } from '../../src/errors';
import { hashKey, hashesEqual, parseKey } from '../../src/domain/api-keys/key-material';
import type { KeyLookup } from './auth-cache';
import type { AppContext, Middleware } from '../context';

interface Window {
  start: number;
  failures: number;
}

export interface AuthFailureLimiter {
  /** Counts a failed authentication from `client`. */
  fail(client: string, now?: number): void;
  /** Seconds until `client` may try again, or 0 when it is within its budget. */
  blockedFor(client: string, now?: number): number;
}

export function createAuthFailureLimiter(opts: { limit: number; windowSeconds: number; maxClients?: number }): AuthFailureLimiter {
  const windowMs = opts.windowSeconds * 1000;
  const maxClients = opts.maxClients ?? 10_000;
  const windows = new Map<string, Window>();
  const windowStart = (now: number) => Math.floor(now / windowMs) * windowMs;

  function makeRoom(now: number): void {
    const current = windowStart(now);
    for (const [client, w] of windows) if (w.start < current) windows.delete(client);
    while (windows.size >= maxClients) windows.delete(windows.keys().next().value as string);
  }

  return {
    fail(client, now = Date.now()) {
      const start = windowStart(now);
      const w = windows.get(client);
      if (w && w.start === start) {
        w.failures++;
        return;
      }
      if (!w && windows.size >= maxClients) makeRoom(now);
      windows.set(client, { start, failures: 1 });
    },
    blockedFor(client, now = Date.now()) {
      const w = windows.get(client);
      if (!w || w.start !== windowStart(now) || w.failures < opts.limit) return 0;
      return Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    },
  };
}

/** The address failures are counted for: ctx.ip, the peer or the client behind a trusted proxy (client-address.ts). */
export function clientOf(ctx: AppContext): string {
  return ctx.ip || 'unknown';
}

/**
 * Before the body is read: an address over its failure budget gets 429 on API routes, unless its
 * request carries a valid key.
 */
export function authFailureGate(limiter: AuthFailureLimiter, lookup: KeyLookup): Middleware {
  // A plain function on the common path (an address within its budget): no promise of its own.
  return (ctx, next) => {
    if (!ctx.path.startsWith('/v1/')) return next();
    const wait = limiter.blockedFor(clientOf(ctx));
    return wait > 0 ? blockedUnlessValidKey(ctx, next, lookup, wait) : next();
  };
}

async function blockedUnlessValidKey(ctx: AppContext, next: Next, lookup: KeyLookup, wait: number): Promise<unknown> {
  const presented = /^Bearer +([^\s]+)$/i.exec(ctx.get('Authorization'))?.[1];
  const hash = presented && parseKey(presented) ? hashKey(presented) : undefined;
  const key = hash ? await lookup(hash) : undefined;
  if (!key || !hashesEqual(key.keyHash, hash!)) {
    throw errors.rateLimited(`Too many failed authentications from this address; retry in ${wait} s.`, undefined, { 'Retry-After': String(wait) });
  }
  return next();
}
