// The SQL that turns one Prisma schema folder into another: `prisma migrate diff --script`.
// Prisma 7's CLI cannot diff on our machines (its schema engine is a Rust binary that downloads
// from a host we cannot reach), so the diff runs on the Prisma 6.19 CLI (the `prisma-migrate-cli`
// package), whose WASM schema engine works offline through the pg adapter. Prisma 6.19 insists on
// a `url` in the datasource block, which Prisma 7 forbids, so each folder is copied and the line
// added to the copy. Used by scripts/new-migration.js and test/db/migrations.test.ts.
//   node scripts/schema-diff.js [FROM_DIR|--from-empty] TO_DIR   (prints the SQL)
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const cli = require.resolve('prisma-migrate-cli/build/index.js', { paths: [root] });
const config = path.join(__dirname, 'schema-diff.config.js');

/** A copy of a schema folder whose datasource block names env("DATABASE_URL"). */
function prisma6Copy(dir) {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-diff-'));
  let datasources = 0;
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.prisma')) continue;
    let text = fs.readFileSync(path.join(dir, f), 'utf8');
    text = text.replace(/datasource\s+\w+\s*\{[^}]*\}/g, (block) => {
      datasources += 1;
      return /^\s*url\s*=/m.test(block) ? block : block.replace(/\}$/, '  url = env("DATABASE_URL")\n}');
    });
    fs.writeFileSync(path.join(copy, f), text);
  }
  if (datasources !== 1) throw new Error(`${dir}: expected one datasource block, found ${datasources}`);
  return copy;
}

/**
 * The migration SQL from `from` (a schema folder, or null for an empty database) to `to`.
 * The diff reads no database, but the JS schema engine opens a connection: any reachable
 * database will do (MIGRATION_DIFF_DATABASE_URL, else the local `postgres` database).
 */
function schemaDiff(from, to) {
  const copies = [];
  try {
    const copy = (dir) => {
      const c = prisma6Copy(dir);
      copies.push(c);
      return c;
    };
    const fromArgs = from ? ['--from-schema-datamodel', copy(from)] : ['--from-empty'];
    const toDir = copy(to);
    return execFileSync(process.execPath, [cli, 'migrate', 'diff', '--config', config, ...fromArgs, '--to-schema-datamodel', toDir, '--script'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: process.env.MIGRATION_DIFF_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres',
        // The 6.19 CLI would otherwise download a query engine it does not use for a diff.
        PRISMA_QUERY_ENGINE_LIBRARY: process.execPath,
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } finally {
    for (const c of copies) fs.rmSync(c, { recursive: true, force: true });
  }
}

module.exports = { schemaDiff };

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args.length !== 2) {
    console.error('usage: node scripts/schema-diff.js FROM_DIR|--from-empty TO_DIR');
    process.exit(2);
  }
  process.stdout.write(schemaDiff(args[0] === '--from-empty' ? null : args[0], args[1]));
}
