// Prisma CLI configuration. Engines are the JS/WASM ones (no binary download is possible here):
// see docs/decisions/database.md.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// `prisma generate` and `prisma migrate diff` need no database, but the schema names env("DATABASE_URL").
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/billing';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
