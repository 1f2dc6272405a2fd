#!/usr/bin/env node
'use strict';
// The `billing` operator CLI (package bin). Runs the compiled TypeScript; build with `npm run build`.
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'boot', 'cli.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('billing: not built yet; run `npm run build` in the project first\n');
  process.exit(1);
}
require(entry)
  .runCli(process.argv.slice(2))
  .then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(1);
    },
  );
