// The applied migrations must produce exactly what prisma/schema describes: database A is
// built by our migrator from prisma/migrations, database B from `prisma migrate diff
// --from-empty --to-schema-datamodel prisma/schema` (the schema's own DDL), and their catalogs
// must be identical (tables, columns, types, nullability, defaults, indexes, constraints, enums).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase, migrate, migrationsDir, readMigrations } from '../../src/db/migrate';

const root = path.resolve(__dirname, '..', '..', '..');
const base = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function dbUrl(name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

// usage_events is partitioned by hand in its migration (Prisma's schema cannot say PARTITION BY):
// its partitions (usage_events_legacy, usage_events_pYYYYMM, usage_events_default) are left out,
// and an index on the partitioned parent ("ON ONLY") compares as the same index on a plain table.
const NOT_A_PARTITION = `NOT IN (SELECT relname FROM pg_class WHERE relispartition AND relkind IN ('r', 'p'))`;

async function catalog(url: string): Promise<Record<string, unknown[]>> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const q = async (sql: string) => (await c.query(sql)).rows;
    const partitioned = (await q(`SELECT relname FROM pg_class WHERE relkind = 'p'`)).map((r) => r.relname as string);
    return {
      columns: await q(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
                          character_maximum_length, numeric_precision, numeric_scale, datetime_precision
                        FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_migrations' AND table_name ${NOT_A_PARTITION}
                        ORDER BY table_name, column_name`),
      indexes: (
        await q(`SELECT tablename, indexname, indexdef FROM pg_indexes
                 WHERE schemaname = 'public' AND tablename <> '_migrations' AND tablename ${NOT_A_PARTITION} ORDER BY tablename, indexname`)
      ).map((r) => ({ ...r, indexdef: String(r.indexdef).replace(' ON ONLY ', ' ON ') })),
      constraints: await q(`SELECT rel.relname AS table_name, con.conname, con.contype, pg_get_constraintdef(con.oid) AS def
                            FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid
                            JOIN pg_namespace n ON n.oid = rel.relnamespace
                            WHERE n.nspname = 'public' AND rel.relname <> '_migrations' AND NOT rel.relispartition ORDER BY 1, 2`),
      // which tables are partitioned (none in the schema's DDL; usage_events in the migrations)
      partitioned: partitioned.map((relname) => ({ relname })),
      enums: await q(`SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
                      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY t.typname`),
    };
  } finally {
    await c.end();
  }
}

function schemaDdl(): string {
  return execFileSync(process.execPath, [path.join(root, 'scripts', 'schema-diff.js'), '--from-empty', path.join(root, 'prisma', 'schema')], {
    cwd: root,
    env: { ...process.env, MIGRATION_DIFF_DATABASE_URL: base },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('migrations', function () {
  this.timeout(120_000);
  const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const fromMigrations = dbUrl(`billing_mig_a_${suffix}`);
  const fromSchema = dbUrl(`billing_mig_b_${suffix}`);
  after(async () => {
    await dropDatabase(fromMigrations);
    await dropDatabase(fromSchema);
  });

  it('the applied migrations produce exactly the schema', async () => {
    await ensureDatabase(fromMigrations);
    await ensureDatabase(fromSchema);
    const res = await migrate(fromMigrations);
    assert.equal(res.applied.length, readMigrations().length);
    const c = new Client({ connectionString: fromSchema });
    await c.connect();
    await c.query(schemaDdl());
    await c.end();
    const a = await catalog(fromMigrations);
    const b = await catalog(fromSchema);
    assert.deepEqual(a.partitioned, [{ relname: 'usage_events' }], 'usage_events is partitioned by its migration');
    delete a.partitioned;
    delete b.partitioned;
    for (const k of Object.keys(b)) assert.deepEqual(a[k], b[k], `catalog section ${k} differs between migrations and schema`);
    assert.ok((a.columns as unknown[]).length > 0);
  });

  it('is idempotent and keeps the hand-tuned UNLOGGED counters table', async () => {
    const again = await migrate(fromMigrations);
    assert.deepEqual(again.applied, []);
    const c = new Client({ connectionString: fromMigrations });
    await c.connect();
    const r = await c.query(`SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_windows'`);
    await c.end();
    assert.equal(r.rows[0].relpersistence, 'u');
  });

  it('serialises concurrent runs with the advisory lock', async () => {
    const url = dbUrl(`billing_mig_c_${suffix}`);
    await ensureDatabase(url);
    try {
      const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
      const appliedTotal = results.reduce((n, r) => n + r.applied.length, 0);
      assert.equal(appliedTotal, readMigrations().length);
    } finally {
      await dropDatabase(url);
    }
  });

  it('refuses to run when an applied migration was edited or removed', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'mig-'));
    const url = dbUrl(`billing_mig_d_${suffix}`);
    await ensureDatabase(url);
    try {
      cpSync(migrationsDir(), tmp, { recursive: true });
      await migrate(url, () => undefined, tmp);
      const first = readMigrations(tmp)[0]!;
      appendFileSync(path.join(tmp, first.name, 'migration.sql'), '\n-- edited after it was applied\n');
      await assert.rejects(
        migrate(url, () => undefined, tmp),
        /edited after it was applied/,
      );
      rmSync(path.join(tmp, first.name), { recursive: true });
      await assert.rejects(
        migrate(url, () => undefined, tmp),
        /missing from prisma\/migrations/,
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      await dropDatabase(url);
    }
  });
});
