// Prisma 6.19 CLI configuration for scripts/schema-diff.js only: the JS/WASM schema engine over
// the pg adapter (no engine binary can be downloaded here). The service and `prisma generate`
// use Prisma 7 and prisma.config.ts.
'use strict';
const { defineConfig } = require('prisma-migrate-cli/config');
const { PrismaPg } = require('@prisma/adapter-pg');

module.exports = defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
