// An in-process cache of authenticated keys, invalidated across processes through PostgreSQL
// LISTEN/NOTIFY, so a busy API process does not look every request's key up in the database.
//
// Correctness rules (docs/auth.md):
// - Only successful lookups are cached; an unknown key always goes to the database, so a new
//   key works at once and a revoked one can never be served from a stale negative entry.
// - Every change that can invalidate an entry (rotate, revoke, go-live, merchant settings)
//   runs `pg_notify(AUTH_CHANNEL, …)` in its own transaction; NOTIFY is delivered at commit to
//   every listening process, which evicts. The process that made the change also evicts
//   locally before it answers, so its own next request already sees the change.
// - The cache is used only while the LISTEN connection is up; when it drops, the cache is
//   cleared and bypassed until LISTEN is re-established (then cleared again).
// - Entries live at most `ttlMs` (default 30 s) as a last line of defence.
import { Client } from 'pg';

import { AUTH_CHANNEL } from '../../src/domain/api-keys/invalidation';

export { AUTH_CHANNEL };

/** Finds a key by its hash: the cache, else one indexed read (api/middleware/auth.ts keyLookup). */
export type KeyLookup = (hash: string) => Promise<CachedKey | undefined>;

export interface CachedKey {
  id: string;
  merchantId: string;
  mode: 'test' | 'live';
  type: 'secret' | 'publishable';
  keyHash: string;
  merchantName: string;
  merchantCreatedAt: Date;
  liveEnabledAt: Date | null;
}

export interface AuthCache {
  get(hash: string): CachedKey | undefined;
  set(hash: string, value: CachedKey): void;
  evictKey(hash: string): void;
  evictMerchant(merchantId: string): void;
  readonly active: boolean;
  /**
   * Resolves once the first LISTEN attempt has finished (listening, or failed and serving
   * without the cache). Until then every request goes to the database, which is correct but
   * not cached; tests and the server's start await it so they begin in a settled state.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createAuthCache(opts: { databaseUrl?: string; ttlMs?: number; maxEntries?: number; log?: (l: string) => void }): AuthCache {
  const ttlMs = opts.ttlMs ?? 30_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const entries = new Map<string, { value: CachedKey; at: number }>();
  let listening = false;
  let closed = false;
  let client: Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let settleFirst: () => void = () => undefined;
  const firstAttempt = new Promise<void>((resolve) => {
    settleFirst = resolve;
  });

  const evictKey = (hash: string) => {
    entries.delete(hash);
  };
  const evictMerchant = (merchantId: string) => {
    for (const [k, v] of entries) if (v.value.merchantId === merchantId) entries.delete(k);
  };

  const connect = async (attempt: number) => {
    if (closed || !opts.databaseUrl) {
      settleFirst();
      return;
    }
    const c = new Client({ connectionString: opts.databaseUrl, application_name: 'billing-auth-cache' });
    const down = () => {
      if (client !== c) return;
      listening = false;
      entries.clear();
      client = undefined;
      c.end().catch(() => undefined);
      if (!closed) retryTimer = setTimeout(() => void connect(Math.min(attempt + 1, 6)), 250 * 2 ** Math.min(attempt, 6));
      retryTimer?.unref();
    };
    try {
      client = c;
      c.on('error', down);
      c.on('end', down);
      c.on('notification', (n) => {
        const payload = n.payload ?? '';
        if (payload.startsWith('key:')) evictKey(payload.slice(4));
        else if (payload.startsWith('merchant:')) evictMerchant(payload.slice(9));
        else entries.clear();
      });
      await c.connect();
      await c.query(`LISTEN ${AUTH_CHANNEL}`);
      entries.clear(); // anything cached before LISTEN may have missed a notification
      listening = client === c && !closed;
    } catch (err) {
      opts.log?.(`auth cache: LISTEN failed (${(err as Error).message}); serving without cache`);
      down();
    } finally {
      settleFirst();
    }
  };
  void connect(0);

  return {
    get(hash) {
      if (!listening) return undefined;
      const e = entries.get(hash);
      if (!e) return undefined;
      if (Date.now() - e.at > ttlMs) {
        entries.delete(hash);
        return undefined;
      }
      return e.value;
    },
    set(hash, value) {
      if (!listening) return;
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(hash, { value, at: Date.now() });
    },
    evictKey,
    evictMerchant,
    get active() {
      return listening;
    },
    ready() {
      return firstAttempt;
    },
    async close() {
      closed = true;
      listening = false;
      settleFirst();
      entries.clear();
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
