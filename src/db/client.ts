// The Prisma client over node-postgres (driver adapter; no Rust engine is available here).
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { createStatementNamer, DEFAULT_PREPARED_STATEMENTS, isStalePreparedStatement, type StatementNamer } from './statement-names';

export type Db = PrismaClient;

export interface DbOptions {
  poolSize?: number;
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

export function createDb(databaseUrl: string, opts: DbOptions = {}): Db {
  const namer = createStatementNamer({ maxStatements: opts.preparedStatements ?? DEFAULT_PREPARED_STATEMENTS });
  // Sessions run in UTC: the adapter sends JS Date parameters of raw SQL without a zone, which
  // PostgreSQL would otherwise read in the server's or database's default time zone.
  const adapter = new PrismaPg(
    { connectionString: databaseUrl, max: opts.poolSize ?? 10, options: '-c TimeZone=UTC', Client: clientClass(namer) },
    // An undefined name runs the statement unnamed.
    { statementNameGenerator: (q) => namer.name(q.sql, q.args.length) as string },
  );
  return new PrismaClient({ adapter });
}
