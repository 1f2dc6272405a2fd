// The ways "no database connection in time" surfaces, whichever layer raised it: Prisma's
// interactive transaction could not start within maxWait (P2028 "Unable to start a transaction in
// the given time"), pg-pool gave up waiting for a connection (connectionTimeoutMillis), or
// PostgreSQL itself refused a new connection (53300 too_many_connections, 57P03 cannot_connect_now).
// The API answers these 503 service_unavailable with Retry-After (api/middleware/errors.ts); an
// activity that meets one fails retryably and Temporal retries it (docs/operations.md "Pools").

const PATTERNS = [
  /Unable to start a transaction in the given time/i,
  /timeout exceeded when trying to connect/i,
  /Connection terminated due to connection timeout/i,
  /too many clients already/i,
  /remaining connection slots are reserved/i,
  /the database system is (starting up|shutting down)/i,
  /\b(53300|57P03)\b/,
];

function texts(err: unknown, depth = 0): string[] {
  if (!err || depth > 4) return [];
  if (typeof err === 'string') return [err];
  if (typeof err !== 'object') return [];
  const e = err as { message?: unknown; code?: unknown; cause?: unknown; meta?: unknown; originalCode?: unknown };
  const own = [typeof e.message === 'string' ? e.message : '', typeof e.code === 'string' ? e.code : '', typeof e.originalCode === 'string' ? e.originalCode : ''];
  return [...own, ...texts(e.cause, depth + 1), ...texts((e.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError, depth + 1)];
}

/** True when `err` says no database connection could be had in time (the pool or the server is full). */
export function isConnectionUnavailable(err: unknown): boolean {
  return texts(err).some((t) => t !== '' && PATTERNS.some((p) => p.test(t)));
}

/** Seconds a client should wait before retrying a request refused for want of a connection. */
export const CONNECTION_RETRY_AFTER_SECONDS = 1;
