#!/usr/bin/env node
// `npm run build`: generates the Prisma client (quietly; its output is shown only on failure)
// and type-checks and compiles every part of the project with tsc.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
// The CLI's own path: node_modules/.bin/prisma could name either installed Prisma CLI
// (prisma-migrate-cli is Prisma 6.19, kept for migration diffs: scripts/schema-diff.js).
const prisma = require.resolve('prisma/build/index.js', { paths: [root] });
const gen = spawnSync(process.execPath, [prisma, 'generate', '--no-hints'], { cwd: root, encoding: 'utf8' });
if (gen.status !== 0) {
  process.stderr.write(gen.stdout + gen.stderr);
  process.exit(gen.status ?? 1);
}
const tsc = spawnSync(bin('tsc'), ['-p', 'tsconfig.json', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(tsc.status ?? 1);
