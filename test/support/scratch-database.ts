// Databases of their own for the migration tests: a new database beside the suite's, and one
// migrated only up to a migration, to populate in the old layout before that migration runs.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, type Db } from '../../src/db/client';
import { dropDatabase, ensureDatabase, migrate, migrationsDir, readMigrations } from '../../src/db/migrate';

const base = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** The URL of a new database named `${prefix}_<random>` on the test server (not created yet). */
export function scratchDatabaseUrl(prefix: string): string {
  const u = new URL(base);
  u.pathname = `/${prefix}_${randomBytes(4).toString('hex')}`;
  return u.toString();
}

export interface DatabaseBeforeMigration {
  db: Db;
  /** Applies `migration` and every later one. */
  migrateRest(): Promise<void>;
  /** Disconnects, drops the database and removes the copied migrations. */
  drop(): Promise<void>;
}

/** A new database with every migration before `migration` applied, and not that one. */
export async function databaseBeforeMigration(prefix: string, migration: string): Promise<DatabaseBeforeMigration> {
  const url = scratchDatabaseUrl(prefix);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mig-'));
  const all = readMigrations();
  const index = all.findIndex((m) => m.name === migration);
  assert.ok(index > 0, 'the migration exists');
  for (const m of all.slice(0, index)) cpSync(path.join(migrationsDir(), m.name), path.join(dir, m.name), { recursive: true });
  await ensureDatabase(url);
  const db = createDb(url, { poolSize: 2 });
  const scratch = {
    db,
    async migrateRest() {
      await migrate(url);
    },
    async drop() {
      await db.$disconnect();
      await dropDatabase(url);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await migrate(url, () => {}, dir);
  } catch (err) {
    await scratch.drop();
    throw err;
  }
  return scratch;
}
