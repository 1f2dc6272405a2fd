/** A timestamp as every object presents it: ISO 8601 in UTC, or null. */
export function iso(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}
