// Prisma CLI configuration (Prisma 7). The CLI here only generates the client: Prisma's Rust
// schema engine cannot be downloaded on our machines, so migrations are produced by
// scripts/schema-diff.js with the Prisma 6.19 CLI's WASM schema engine (docs/database.md).
import { defineConfig } from 'prisma/config';

// Generation needs no schema engine, but Prisma 7 looks for one unless this names a file.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

export default defineConfig({
  schema: 'prisma/schema',
  // Only read by commands that talk to a database; the service passes its URL to the adapter itself.
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/billing' },
});
