// The Prisma client over node-postgres (driver adapter; no Rust engine is available here).
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import type { Config } from '../config';
import { createStatementNamer, DEFAULT_PREPARED_STATEMENTS, isStalePreparedStatement, type StatementNamer } from './statement-names';

export type Db = PrismaClient;

export interface DbOptions {
  poolSize?: number;
  /**
   * How long a query outside a transaction waits for a pooled connection before it fails with
   * PoolExhaustedError (ms; the API passes DB_TX_MAX_WAIT_MS). Default 10 s; never unbounded.
   */
  connectTimeoutMs?: number;
  /** PostgreSQL's application_name of this pool's sessions (pg_stat_activity tells the pools apart). */
  applicationName?: string;
  /** SQL texts this pool runs as prepared statements (./statement-names.ts; DB_PREPARED_STATEMENTS); 0: none. */
  preparedStatements?: number;
}

/**
 * A pool connection that starts a new generation of statement names when a prepared statement
 * went stale. Outside a transaction the pool also drops a connection whose query failed; a
 * transaction's connection goes back to the pool, still holding the stale statement.
 */
function clientClass(namer: StatementNamer): typeof pg.Client {
  const observe = (err: unknown) => {
    if (isStalePreparedStatement(err)) namer.invalidate();
  };
  return class NamingClient extends pg.Client {
    override query(...args: any[]): any {
      const query = super.query as (...a: any[]) => any;
      const callback = args[args.length - 1];
      // The pool's own query() passes a callback; a transaction's connection is used with promises.
      if (typeof callback === 'function') {
        args[args.length - 1] = (err: unknown, ...rest: unknown[]) => {
          observe(err);
          return callback(err, ...rest);
        };
        return query.apply(this, args);
      }
      const result = query.apply(this, args);
      // Observes the failure only; the caller's promise rejects as before.
      if (result && typeof result.then === 'function') (result as Promise<unknown>).then(undefined, observe);
      return result;
    }
  } as typeof pg.Client;
}

/** How full a pool is (GET /readyz, /healthz, /metrics and the soak benchmark report it). */
export interface PoolUse {
  size: number;
  /** Connections lent out (to a transaction or a running query). */
  inUse: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

interface PoolHandle {
  pool: pg.Pool;
  namer: StatementNamer;
  size: number;
  databaseUrl: string;
  /** A connection of its own for the health checks (created on first use). */
  probe?: pg.Pool;
}

const pools = new WeakMap<object, PoolHandle>();

/**
 * The options of a service process's pool: named in pg_stat_activity, sized by DB_POOL_SIZE_API or
 * DB_POOL_SIZE_WORKER, waiting DB_TX_MAX_WAIT_MS for a connection (docs/operations.md).
 */
export function servicePoolOptions(
  config: Pick<Config, 'apiDbPoolSize' | 'workerDbPoolSize' | 'transactionMaxWaitMs' | 'dbPreparedStatements'>,
  role: 'api' | 'worker',
): DbOptions {
  return {
    applicationName: `billing-${role}`,
    poolSize: role === 'api' ? config.apiDbPoolSize : config.workerDbPoolSize,
    connectTimeoutMs: config.transactionMaxWaitMs,
    preparedStatements: config.dbPreparedStatements,
  };
}

export function createDb(databaseUrl: string, opts: DbOptions = {}): Db {
  const namer = createStatementNamer({ maxStatements: opts.preparedStatements ?? DEFAULT_PREPARED_STATEMENTS });
  const size = opts.poolSize ?? 10;
  // Sessions run in UTC: the adapter sends JS Date parameters of raw SQL without a zone, which
  // PostgreSQL would otherwise read in the server's or database's default time zone. A query waits
  // for a connection at most connectTimeoutMs (pg's default is forever: a request would hang on an
  // exhausted pool instead of answering 503).
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: size,
    options: '-c TimeZone=UTC',
    Client: clientClass(namer),
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
  });
  const adapter = new PrismaPg(
    pool,
    // An undefined name runs the statement unnamed; $disconnect() ends the pool.
    { statementNameGenerator: (q) => namer.name(q.sql, q.args.length) as string, disposeExternalPool: true },
  );
  const db = new PrismaClient({ adapter });
  pools.set(db, { pool, namer, size, databaseUrl });
  return db;
}

/** Runs SQL text with positional parameters ($1, $2, …) and returns its rows. */
export interface SqlRunner {
  query<R>(text: string, params: readonly unknown[]): Promise<R[]>;
}

/** A SqlRunner over a Prisma client or transaction (its raw-query path). */
export function prismaSql(db: { $queryRawUnsafe<R>(query: string, ...values: unknown[]): Promise<R> }): SqlRunner {
  return { query: <R>(text: string, params: readonly unknown[]) => db.$queryRawUnsafe<R[]>(text, ...params) };
}

/**
 * Runs `fn` in one transaction on a connection of `db`'s own pool, straight through node-postgres:
 * for a hot path of raw SQL only, which would spend more CPU in Prisma's query runtime than in
 * the database (POST /v1/events/batch; docs/metering.md "Ingestion cost"). The same pool, waits
 * and limits as the client's own queries: a connection not had within the pool's
 * connectionTimeoutMillis rejects as pool-errors.ts recognises (the API answers 503). Statements
 * get the pool's prepared-statement names (statement-names.ts). The transaction commits when
 * `fn` resolves and rolls back when it rejects; the connection is released either way, and
 * dropped from the pool when the rollback itself failed.
 */
export async function rawTransaction<T>(db: object, fn: (sql: SqlRunner) => Promise<T>): Promise<T> {
  const h = pools.get(db);
  if (!h) throw new Error('rawTransaction: not a client made by createDb');
  const client = await h.pool.connect();
  const sql: SqlRunner = {
    async query<R>(text: string, params: readonly unknown[]): Promise<R[]> {
      const name = h.namer.name(text, params.length);
      const result = await client.query({ text, values: params as unknown[], ...(name ? { name } : {}) });
      return result.rows as R[];
    },
  };
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const out = await fn(sql);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    // Rolled back, the connection goes back to the pool clean; one whose rollback failed is dropped.
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * Lends `fn` one connection of `db`'s own pool (waiting as the pool's queries do) and releases it
 * after; a connection whose use threw is dropped from the pool rather than reused (its session
 * state is unknown).
 */
export async function withPooledConnection<T>(db: object, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const h = pools.get(db);
  if (!h) throw new Error('withPooledConnection: not a client made by createDb');
  const client = await h.pool.connect();
  let failed: Error | undefined;
  try {
    return await fn(client);
  } catch (err) {
    failed = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.release(failed);
  }
}

/** How full `db`'s pool is now (undefined for a client not made by createDb). */
export function poolUse(db: object): PoolUse | undefined {
  const h = pools.get(db);
  if (!h) return undefined;
  const total = h.pool.totalCount;
  const idle = h.pool.idleCount;
  return { size: h.size, inUse: total - idle, idle, waiting: h.pool.waitingCount };
}

/** True when every connection is lent out and someone is waiting: the pool is exhausted. */
export function poolExhausted(use: PoolUse | undefined): boolean {
  return !!use && use.inUse >= use.size && use.waiting > 0;
}

/**
 * `SELECT 1` on a connection of its own (one per pool, outside it), so a health check answers
 * even when every pooled connection is busy. Rejects after `timeoutMs`.
 */
export async function probeDatabase(db: object, timeoutMs: number): Promise<void> {
  const h = pools.get(db);
  if (!h) {
    await (db as Db).$queryRaw`SELECT 1`;
    return;
  }
  if (!h.probe) {
    h.probe = new pg.Pool({ connectionString: h.databaseUrl, max: 1, idleTimeoutMillis: 60_000, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    // An idle probe connection the server closed is replaced on the next check.
    h.probe.on('error', () => undefined);
  }
  await h.probe.query('SELECT 1');
}

/** Ends the health-check connection of `db` (composition roots, on shutdown). */
export async function closeProbe(db: object): Promise<void> {
  const h = pools.get(db);
  const probe = h?.probe;
  if (h) h.probe = undefined;
  await probe?.end().catch(() => undefined);
}
