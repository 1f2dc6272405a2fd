// Readiness of a process: PostgreSQL and Temporal both answer (each check bounded, with its detail).
// Served by the API's GET /readyz (api/ops-endpoints.ts) and a worker's metrics listener.
import type { Db } from '../db/client';
import type { TemporalProvider } from '../temporal/client';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

export async function readiness(deps: { db: Db; temporal: TemporalProvider }): Promise<{ ready: boolean; checks: Record<string, Record<string, unknown>> }> {
  const dbStarted = Date.now();
  const tStarted = Date.now();
  const [database, temporal] = await Promise.all([
    withTimeout(deps.db.$queryRaw`SELECT 1`, CHECK_TIMEOUT_MS, 'PostgreSQL').then(
      () => ({ ok: true, latency_ms: Date.now() - dbStarted }),
      (err: unknown) => ({ ok: false, error: (err as Error).message.split('\n')[0] }),
    ),
    deps.temporal.healthy(CHECK_TIMEOUT_MS).then(
      (ok) => ({ ok, address: deps.temporal.address, namespace: deps.temporal.namespace, latency_ms: Date.now() - tStarted, ...(ok ? {} : { error: 'Temporal did not answer' }) }),
      (err: unknown) => ({ ok: false, address: deps.temporal.address, namespace: deps.temporal.namespace, error: (err as Error).message.split('\n')[0] }),
    ),
  ]);
  return { ready: database.ok && temporal.ok, checks: { database, temporal } };
}
