// Applies pending SQL migrations from prisma/migrations/<timestamp>_<name>/migration.sql.
// Prisma's own `migrate deploy` cannot run here (schema engine bug with driver adapters), so
// the project applies them itself: recorded in `_migrations` with a checksum, serialised across
// processes by an advisory lock, each migration in its own transaction.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

const ADVISORY_LOCK_KEY = 7_351_002_001; // arbitrary constant, unique to this project

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function migrationsDir(): string {
  // dist/src/db → project root; src/db → project root
  for (const up of ['../../..', '../..']) {
    const dir = path.resolve(__dirname, up, 'prisma', 'migrations');
    if (existsSync(dir)) return dir;
  }
  throw new Error('prisma/migrations not found');
}

export function readMigrations(dir = migrationsDir()): MigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d{14}_[a-z0-9_]+$/.test(d.name))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(databaseUrl: string, log: (line: string) => void = () => {}, dir = migrationsDir()): Promise<MigrateResult> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS _migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Map<string, string>((await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM _migrations')).rows.map((r) => [r.name, r.checksum]));
    const files = readMigrations(dir);
    for (const [name, checksum] of done) {
      const file = files.find((f) => f.name === name);
      if (!file) throw new Error(`migration ${name} is recorded as applied but missing from prisma/migrations`);
      if (file.checksum !== checksum) throw new Error(`migration ${name} was edited after it was applied (checksum mismatch)`);
    }
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file.name)) continue;
      log(`applying migration ${file.name}`);
      await client.query('BEGIN');
      try {
        await client.query(file.sql);
        await client.query('INSERT INTO _migrations (name, checksum) VALUES ($1, $2)', [file.name, file.checksum]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file.name} failed: ${(err as Error).message}`);
      }
      applied.push(file.name);
    }
    return { applied, alreadyApplied: done.size };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

/** Creates the database named in the URL when it does not exist (connecting to `postgres`). */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const dbName = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(dbName)) throw new Error(`refusing to create database with unusual name ${dbName}`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (exists.rowCount) return false;
    await client.query(`CREATE DATABASE "${dbName}"`);
    return true;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const dbName = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(dbName)) throw new Error(`refusing to drop database with unusual name ${dbName}`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
