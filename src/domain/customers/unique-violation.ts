// Recognises a unique-index violation (PostgreSQL 23505, Prisma P2002) however the driver
// adapter wraps it, so a race past a pre-check still ends as 409 resource_conflict.
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; meta?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === 'P2002' || e.code === '23505') return true;
  const text = `${String(e.message ?? '')} ${safeJson(e.meta)}`;
  return /23505|Unique constraint failed|duplicate key value/i.test(text);
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}
