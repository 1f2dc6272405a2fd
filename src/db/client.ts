// The Prisma client over node-postgres (driver adapter; no Rust engine is available here).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

export function createDb(databaseUrl: string, opts: { poolSize?: number } = {}): Db {
  // Sessions run in UTC: the adapter sends JS Date parameters of raw SQL without a zone, which
  // PostgreSQL would otherwise read in the server's or database's default time zone.
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.poolSize ?? 10, options: '-c TimeZone=UTC' });
  return new PrismaClient({ adapter });
}
