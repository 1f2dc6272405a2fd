// Authentication, tenancy, live-mode gate, key-kind permissions and per-key rate limiting.
// Keys are looked up by SHA-256 hash (cached per process with cross-process invalidation, see
// auth-cache.ts) and compared in constant time; counting is shared through PostgreSQL
// (rate-limiter.ts).
import type { AppContext, AppDeps, AppState, AuthInfo, Middleware } from '../context';
import { errors } from '../../src/errors';
import { hashKey, hashesEqual, parseKey } from '../../src/domain/api-keys/key-material';
import { scopedDb, type Tenant } from '../../src/db/tenancy';
import type { AuthCache, CachedKey, KeyLookup } from './auth-cache';
import type { RateLimiter } from './rate-limiter';
import { clientOf, type AuthFailureLimiter } from './auth-failures';

/** The dashboard's session cookie (api/dashboard/http.ts); named here so api/middleware does not import the dashboard. */
export const DASHBOARD_SESSION_COOKIE = 'billing_dashboard';

export interface AuthOptions {
  /** GET /v1/merchants/current infers the merchant from the key. */
  merchantHeaderOptional?: boolean;
  /** Routes managed only in the merchant dashboard: any API key gets wrong_auth_method. */
  dashboardOnly?: boolean;
  /** Publishable keys are refused unless this says the request is allowed for them. */
  allowPublishable?: (ctx: AppContext) => boolean;
}

interface KeyRow {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  type: 'secret' | 'publishable';
  key_hash: string;
  merchant_name: string;
  merchant_created_at: Date;
  live_enabled_at: Date | null;
}

const ROOT_DB = Symbol('rootDb');
const SCOPED_DB = Symbol('scopedDb');
const TENANT = Symbol('tenant');
type LazyDbState = AppState & { [ROOT_DB]: AppDeps['db']; [TENANT]: Tenant; [SCOPED_DB]?: AppState['db'] };

/**
 * `ctx.state.db` after authentication: the tenant-scoped client, built on first read; assignable
 * (a transaction replaces it). One descriptor with the same two functions for every request, so
 * every request's state gets the same object shape (closures per request would give each its own).
 */
const LAZY_DB: PropertyDescriptor & ThisType<LazyDbState> = {
  configurable: true,
  enumerable: true,
  get() {
    return (this[SCOPED_DB] ??= scopedDb(this[ROOT_DB], this[TENANT]));
  },
  set(v: AppState['db']) {
    this[SCOPED_DB] = v;
  },
};

/** The `auth()` middleware factory every route registrar receives. */
export type Auth = ReturnType<typeof authenticator>;

/** Finds the key with this hash: the auth cache, else one indexed read (which fills the cache). */

export function keyLookup(db: AppDeps['db'], cache: AuthCache): KeyLookup {
  return async function lookup(hash) {
    const cached = cache.get(hash);
    if (cached) return cached;
    const rows = await db.$queryRaw<KeyRow[]>`
      SELECT k.id, k.merchant_id, k.mode::text AS mode, k.type::text AS type, k.key_hash,
             m.name AS merchant_name, m.created_at AS merchant_created_at, m.live_enabled_at
      FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL`;
    const r = rows[0];
    if (!r) return undefined;
    const value: CachedKey = {
      id: r.id,
      merchantId: r.merchant_id,
      mode: r.mode,
      type: r.type,
      keyHash: r.key_hash,
      merchantName: r.merchant_name,
      merchantCreatedAt: r.merchant_created_at,
      liveEnabledAt: r.live_enabled_at,
    };
    cache.set(hash, value);
    return value;
  };
}

export function authenticator(deps: AppDeps, lookup: KeyLookup, limiter: RateLimiter, failures?: AuthFailureLimiter) {
  const { db } = deps;

  return function auth(opts: AuthOptions = {}): Middleware {
    return async (ctx, next) => {
      // Every 401 counts against the client's failed-authentication budget (auth-failures.ts).
      const unauthorized = (message: string) => {
        failures?.fail(clientOf(ctx));
        return errors.unauthorized(message);
      };
      const header = ctx.get('Authorization');
      if (!header && ctx.cookies.get(DASHBOARD_SESSION_COOKIE)) {
        // A dashboard session never works as an API key (docs/auth.md).
        throw errors.wrongAuthMethod('A dashboard session cannot call the API. Send an API key: Authorization: Bearer <API_KEY>.');
      }
      if (!header) throw unauthorized('No API key provided. Send Authorization: Bearer <API_KEY>.');
      // The scheme is case-insensitive (RFC 9110 §11.1): "bearer", "BEARER" and "Bearer" are one.
      const m = /^Bearer +([^\s]+)$/i.exec(header);
      if (!m) throw unauthorized('Malformed Authorization header. Expected: Bearer <API_KEY>.');
      const presented = m[1]!;
      if (!parseKey(presented)) throw unauthorized('Invalid API key.');
      const hash = hashKey(presented);
      const key = await lookup(hash);
      if (!key || !hashesEqual(key.keyHash, hash)) throw unauthorized('Invalid API key.');

      if (key.mode === 'live' && !key.liveEnabledAt) {
        throw errors.liveModeNotEnabled('Live keys work only after the merchant has gone live.');
      }
      const merchantHeader = ctx.get('X-Merchant-Id');
      if (!opts.merchantHeaderOptional || merchantHeader !== '') {
        if (merchantHeader === '') throw errors.merchantHeaderMissing('The X-Merchant-Id header is required.', 'X-Merchant-Id');
        if (merchantHeader !== key.merchantId) {
          throw errors.merchantMismatch('X-Merchant-Id does not match the merchant of the API key.', 'X-Merchant-Id');
        }
      }
      if (opts.dashboardOnly) {
        throw errors.wrongAuthMethod('This route is managed in the merchant dashboard and cannot be called with an API key.');
      }
      if (key.type === 'publishable' && !(opts.allowPublishable?.(ctx) ?? false)) {
        throw errors.secretKeyRequired('Publishable keys may only create embedded payment sessions. Use a secret key.');
      }
      const rate = await limiter.hit(key.id);
      if (!rate.allowed) {
        throw errors.rateLimited(`Too many requests: the limit is ${rate.limit} per ${deps.config.rateLimitWindowSeconds} s per API key.`, undefined, {
          'Retry-After': String(rate.retryAfterSeconds),
        });
      }
      ctx.set('X-RateLimit-Limit', String(rate.limit));
      ctx.set('X-RateLimit-Remaining', String(Math.max(0, rate.limit - rate.count)));
      const auth: AuthInfo = {
        apiKeyId: key.id,
        keyType: key.type,
        merchantId: key.merchantId,
        merchantName: key.merchantName,
        merchantCreatedAt: key.merchantCreatedAt,
        mode: key.mode,
      };
      ctx.state.auth = auth;
      const tenant = { merchantId: key.merchantId, mode: key.mode };
      ctx.state.tenant = tenant;
      // The scoped client is built on first use: routes that never touch the database pay nothing.
      (ctx.state as LazyDbState)[ROOT_DB] = db;
      (ctx.state as LazyDbState)[TENANT] = tenant;
      Object.defineProperty(ctx.state, 'db', LAZY_DB);
      await next();
    };
  };
}
