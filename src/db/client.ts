// The Prisma client over node-postgres (driver adapter; no Rust engine is available here).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

const URL_OF = Symbol('databaseUrl');

/** The connection string a client was created with (for sibling clients with their own pool). */
export function databaseUrlOf(db: Db): string | undefined {
  return (db as unknown as Record<symbol, string | undefined>)[URL_OF];
}

export function createDb(databaseUrl: string, opts: { poolSize?: number } = {}): Db {
  // Sessions run in UTC: the adapter sends JS Date parameters of raw SQL without a zone, which
  // PostgreSQL would otherwise read in the server's or database's default time zone.
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.poolSize ?? 10, options: '-c TimeZone=UTC' });
  const client = new PrismaClient({ adapter });
  Object.defineProperty(client, URL_OF, { value: databaseUrl, enumerable: false });
  return client;
}
