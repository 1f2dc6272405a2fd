// Rows read with raw SQL in the shape of the Prisma models. Hot paths lock a row and read it in
// one statement (`SELECT * … FOR UPDATE`) instead of a lock and a model query; the row comes
// back with the table's column names (snake_case) and the driver's types, which are the model's
// (bigint → BigInt, timestamptz → Date, jsonb → object, enum → string). Every column of the
// models read this way is the snake_case of its field (test/db/raw-rows.test.ts checks it
// against the models' own queries).
const CAMEL = /_([a-z0-9])/g;

export function camelRow<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k.replace(CAMEL, (_, c: string) => c.toUpperCase())] = v;
  return out as T;
}
