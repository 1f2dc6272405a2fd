// Readiness of a process: PostgreSQL and Temporal both answer (each check bounded, with its detail).
// Served by the API's GET /readyz (api/ops-endpoints.ts) and a worker's metrics listener.
// PostgreSQL is asked on a connection of its own (probeDatabase), so the answer comes within the
// budget however busy the pool is; how full the pool is (and, for the API, how many requests are
// in flight against their bound) is reported beside it, and `saturated` names what is exhausted.
import { poolExhausted, poolUse, probeDatabase, type Db } from '../db/client';
import type { TemporalProvider } from '../temporal/client';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** Requests in flight against their bound (API_MAX_IN_FLIGHT). */
export interface InFlightReading {
  current: number;
  limit: number;
  refused: number;
}

/** What is exhausted now: the database pool (every connection lent, callers waiting), the request bound. */
export function saturation(db: Db, inFlight?: () => InFlightReading): { pool: Record<string, unknown> | null; requests: InFlightReading | null; saturated: string[] } {
  const use = poolUse(db);
  const requests = inFlight?.() ?? null;
  const saturated: string[] = [];
  if (poolExhausted(use)) saturated.push('database_pool');
  if (requests && requests.current >= requests.limit) saturated.push('requests_in_flight');
  return { pool: use ? { size: use.size, in_use: use.inUse, idle: use.idle, waiting: use.waiting } : null, requests, saturated };
}

export async function readiness(deps: {
  db: Db;
  temporal: TemporalProvider;
  inFlight?: () => InFlightReading;
}): Promise<{ ready: boolean; checks: Record<string, Record<string, unknown>>; saturated: string[] }> {
  const dbStarted = Date.now();
  const tStarted = Date.now();
  const [database, temporal] = await Promise.all([
    withTimeout(probeDatabase(deps.db, CHECK_TIMEOUT_MS), CHECK_TIMEOUT_MS, 'PostgreSQL').then(
      () => ({ ok: true, latency_ms: Date.now() - dbStarted }),
      (err: unknown) => ({ ok: false, error: (err as Error).message.split('\n')[0] }),
    ),
    deps.temporal.healthy(CHECK_TIMEOUT_MS).then(
      (ok) => ({ ok, address: deps.temporal.address, namespace: deps.temporal.namespace, latency_ms: Date.now() - tStarted, ...(ok ? {} : { error: 'Temporal did not answer' }) }),
      (err: unknown) => ({ ok: false, address: deps.temporal.address, namespace: deps.temporal.namespace, error: (err as Error).message.split('\n')[0] }),
    ),
  ]);
  const load = saturation(deps.db, deps.inFlight);
  const checks: Record<string, Record<string, unknown>> = { database, temporal };
  if (load.pool) checks.pool = { ok: !load.saturated.includes('database_pool'), ...load.pool };
  if (load.requests)
    checks.requests = { ok: !load.saturated.includes('requests_in_flight'), in_flight: load.requests.current, limit: load.requests.limit, refused: load.requests.refused };
  // Saturation is reported, not a reason to be taken out of service: requests beyond the bounds
  // are answered 503 at once (docs/operations.md "Pools and back-pressure").
  return { ready: database.ok && temporal.ok, checks, saturated: load.saturated };
}
