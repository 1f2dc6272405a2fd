// Per-key fixed-window rate limiting shared by every API process through PostgreSQL
// (rate_limit_windows, UNLOGGED), with a local fast path so a busy key does not write a row
// per request:
// - Far from the limit (the key's last known global count plus this process's unflushed
//   requests below half the limit, and a limit of at least 100 per window), a request is only
//   counted in memory; deltas are flushed in one statement every `flushMs` (default 100 ms),
//   which also refreshes the known global counts.
// - Near the limit (or for small limits) every request is counted in the database with an
//   atomic upsert and decided on the exact count.
// So enforcement is exact where it matters; far from the limit the count may lag by at most
// one flush interval per process (documented in docs/auth.md).
import type { Db } from '../../src/db/client';

interface WindowState {
  windowStart: number;
  knownGlobal: number;
  pending: number;
}

export interface RateDecision {
  allowed: boolean;
  count: number;
  limit: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(apiKeyId: string): Promise<RateDecision>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createRateLimiter(db: Db, opts: { limit: number; windowSeconds: number; flushMs?: number; log?: (l: string) => void }): RateLimiter {
  const windowMs = opts.windowSeconds * 1000;
  const state = new Map<string, WindowState>();
  const fastPathAllowed = opts.limit >= 100;

  const currentWindow = (now: number) => Math.floor(now / windowMs) * windowMs;
  const retryAfter = (ws: number, now: number) => Math.max(1, Math.ceil((ws + windowMs - now) / 1000));

  async function exactHit(apiKeyId: string, ws: number, increment: number): Promise<number> {
    const rows = await db.$queryRaw<Array<{ count: number }>>`
      INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES (${apiKeyId}, ${new Date(ws)}, ${increment})
      ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
      RETURNING count`;
    return Number(rows[0]!.count);
  }

  async function flush(): Promise<void> {
    const batch: Array<[string, WindowState, number]> = [];
    for (const [key, s] of state) {
      if (s.pending > 0) {
        batch.push([key, s, s.pending]);
        s.pending = 0;
      }
    }
    if (batch.length === 0) return;
    const ids = batch.map((b) => b[0]);
    const starts = batch.map((b) => new Date(b[1].windowStart));
    const counts = batch.map((b) => b[2]);
    try {
      const rows = await db.$queryRaw<Array<{ api_key_id: string; window_start: Date; count: number }>>`
        INSERT INTO rate_limit_windows (api_key_id, window_start, count)
        SELECT * FROM unnest(${ids}::text[], ${starts}::timestamptz[], ${counts}::int[])
        ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
        RETURNING api_key_id, window_start, count`;
      for (const r of rows) {
        const s = state.get(r.api_key_id);
        if (s && s.windowStart === r.window_start.getTime()) s.knownGlobal = Math.max(s.knownGlobal, Number(r.count));
      }
    } catch (err) {
      // Put the counts back so they are not lost; the next flush retries.
      for (const [, s, n] of batch) s.pending += n;
      opts.log?.(`rate limiter flush failed: ${(err as Error).message}`);
    }
    const now = currentWindow(Date.now());
    for (const [key, s] of state) if (s.windowStart < now && s.pending === 0) state.delete(key);
  }

  let flushing: Promise<void> | undefined;
  const timer = setInterval(() => {
    flushing ??= flush().finally(() => {
      flushing = undefined;
    });
  }, opts.flushMs ?? 100);
  timer.unref();

  return {
    async hit(apiKeyId) {
      const now = Date.now();
      const ws = currentWindow(now);
      let s = state.get(apiKeyId);
      if (!s || s.windowStart !== ws) {
        s = { windowStart: ws, knownGlobal: 0, pending: 0 };
        state.set(apiKeyId, s);
      }
      if (fastPathAllowed && s.knownGlobal + s.pending + 1 <= opts.limit / 2) {
        s.pending++;
        return { allowed: true, count: s.knownGlobal + s.pending, limit: opts.limit, retryAfterSeconds: 0 };
      }
      const count = await exactHit(apiKeyId, ws, 1);
      if (s.windowStart === ws) s.knownGlobal = Math.max(s.knownGlobal, count);
      return { allowed: count <= opts.limit, count, limit: opts.limit, retryAfterSeconds: retryAfter(ws, now) };
    },
    flush,
    async close() {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}
