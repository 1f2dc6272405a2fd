#!/usr/bin/env node
// Generates the next migration from the difference between the schema as of the last migration
// (prisma/migrations/.schema-snapshot/, one file per area like prisma/schema/) and the current
// prisma/schema/.
//   npm run db:migration -- <snake_name> [--only file1.prisma,file2.prisma]
// --only takes just those schema files from the working tree (the rest from the snapshot), so
// an area's migration never picks up another area's unfinished edits. The generated SQL is
// reviewed and committed; applied migrations are never edited. test/db/migrations.test.ts proves
// that the migrations, applied in order, produce exactly the schema.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { schemaDiff } = require('./schema-diff');

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--only');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? (args[onlyIdx + 1] || '').split(',').filter(Boolean) : null;
if (!name || !/^[a-z0-9_]+$/.test(name) || (only && only.length === 0)) {
  console.error('usage: npm run db:migration -- <snake_case_name> [--only area.prisma[,other.prisma]]');
  process.exit(2);
}
const schemaDir = path.join(root, 'prisma', 'schema');
const migrationsDir = path.join(root, 'prisma', 'migrations');
const snapshotDir = path.join(migrationsDir, '.schema-snapshot');
fs.mkdirSync(snapshotDir, { recursive: true });

const current = fs.readdirSync(schemaDir).filter((f) => f.endsWith('.prisma'));
const chosen = only ?? current;
for (const f of chosen) {
  if (!/^[a-z0-9_-]+\.prisma$/.test(f)) {
    console.error(`--only takes file names in prisma/schema, got ${f}`);
    process.exit(2);
  }
}
// The target: the snapshot with the chosen files replaced by (or added from) the working tree.
const target = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-target-'));
for (const f of fs.readdirSync(snapshotDir)) if (f.endsWith('.prisma')) fs.copyFileSync(path.join(snapshotDir, f), path.join(target, f));
for (const f of chosen) {
  const src = path.join(schemaDir, f);
  if (fs.existsSync(src)) fs.copyFileSync(src, path.join(target, f));
  else fs.rmSync(path.join(target, f), { force: true });
}
const hasSnapshot = fs.readdirSync(snapshotDir).some((f) => f.endsWith('.prisma'));
const sql = schemaDiff(hasSnapshot ? snapshotDir : null, target);
if (/^-- This is an empty migration\.\s*$/m.test(sql) || sql.trim() === '') {
  console.log('schema unchanged for the chosen files: no migration written');
  fs.rmSync(target, { recursive: true, force: true });
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
fs.mkdirSync(dir);
fs.writeFileSync(path.join(dir, 'migration.sql'), sql);
fs.rmSync(snapshotDir, { recursive: true, force: true });
fs.mkdirSync(snapshotDir);
for (const f of fs.readdirSync(target)) fs.copyFileSync(path.join(target, f), path.join(snapshotDir, f));
fs.rmSync(target, { recursive: true, force: true });
console.log(`wrote ${path.relative(root, dir)}/migration.sql`);
