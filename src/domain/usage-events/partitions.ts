// Monthly partitions of usage_events and the raw-event retention (docs/metering.md
// "Partitioning by time"). Run by the maintenance schedule (activities/maintenance.ts), hourly;
// both are safe to run twice and concurrently (an advisory lock, and every step checks the
// catalog first).
//
// - ensureUsageEventPartitions: a partition for each month from the current one to
//   `monthsAhead` months ahead. An event no monthly partition covers (a test clock's far future;
//   a month whose partition is not made yet) lands in usage_events_default, where it is stored
//   and counted like any other; when its month's partition is created, its rows are moved out of
//   the default partition in the same transaction (ATTACH refuses while they are there).
// - applyUsageEventRetention (setting USAGE_RAW_RETENTION_MONTHS, default off): raw events
//   older than the start of the month `months` months back are dropped — whole partitions whose
//   range ends by then, the older rows of a partition that straddles it (the legacy partition,
//   the default one), and their idempotency keys. Rollups are never dropped: quantities over that history come
//   from them. The horizon is recorded in usage_event_retention: ingestion then refuses events
//   before it (their raw rows and keys would be gone, so a replay could not be recognised), and a
//   quantity whose partial-hour edge lies before it is refused instead of reading fewer events.
import type { Db } from '../../db/client';

/** Advisory-lock key of partition maintenance (class 32 = metering, see rollups.ts). */
const PARTITION_LOCK_SQL = `SELECT pg_advisory_xact_lock(32, 1)::text AS locked`;

export interface UsagePartition {
  name: string;
  /** Inclusive lower bound; null = MINVALUE. */
  from: Date | null;
  /** Exclusive upper bound; null = the DEFAULT partition. */
  to: Date | null;
  isDefault: boolean;
}

export function monthStart(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

export function addMonths(d: Date, n: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
}

export function partitionName(month: Date): string {
  return `usage_events_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

type Sql = Pick<Db, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** The partitions of usage_events with their bounds. */
export async function usagePartitions(db: Sql): Promise<UsagePartition[]> {
  const rows = await db.$queryRawUnsafe<Array<{ name: string; lo: string | null; hi: string | null; is_default: boolean }>>(
    `SELECT c.relname AS name, b.lo, b.hi, pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' AS is_default
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       CROSS JOIN LATERAL (SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\((.*)\\) TO \\((.*)\\)')) AS m) x
       CROSS JOIN LATERAL (SELECT CASE WHEN x.m[1] = 'MINVALUE' THEN NULL ELSE to_char(trim(both '''' from x.m[1])::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END AS lo,
                                  CASE WHEN x.m[2] = 'MAXVALUE' THEN NULL ELSE to_char(trim(both '''' from x.m[2])::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') END AS hi) b
      WHERE i.inhparent = 'usage_events'::regclass
      ORDER BY b.lo NULLS FIRST`,
  );
  return rows.map((r) => ({ name: r.name, from: r.lo === null ? null : new Date(r.lo), to: r.is_default || r.hi === null ? null : new Date(r.hi), isDefault: r.is_default }));
}

function covered(parts: UsagePartition[], month: Date): boolean {
  const t = month.getTime();
  return parts.some((p) => !p.isDefault && (p.from === null || p.from.getTime() <= t) && p.to !== null && t < p.to.getTime());
}

export interface EnsurePartitionsResult {
  created: string[];
  /** Rows moved out of the default partition into the new ones. */
  moved: number;
}

/** Creates the monthly partitions of [month of now, + monthsAhead], moving their rows out of the default partition. */
export async function ensureUsageEventPartitions(db: Db, now: Date, monthsAhead = 3): Promise<EnsurePartitionsResult> {
  return db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(PARTITION_LOCK_SQL);
      const parts = await usagePartitions(tx);
      const created: string[] = [];
      let moved = 0;
      for (let k = 0; k <= monthsAhead; k++) {
        const from = addMonths(monthStart(now), k);
        if (covered(parts, from)) continue;
        const to = addMonths(from, 1);
        const name = partitionName(from);
        const range = [from.toISOString(), to.toISOString()] as const;
        await tx.$executeRawUnsafe(`CREATE TABLE "${name}" (LIKE usage_events INCLUDING DEFAULTS)`);
        if (parts.some((p) => p.isDefault)) {
          moved += await tx.$executeRawUnsafe(
            `WITH gone AS (DELETE FROM usage_events_default WHERE "timestamp" >= $1::timestamptz AND "timestamp" < $2::timestamptz RETURNING *)
             INSERT INTO "${name}" SELECT * FROM gone`,
            ...range,
          );
        }
        await tx.$executeRawUnsafe(`ALTER TABLE usage_events ATTACH PARTITION "${name}" FOR VALUES FROM ('${range[0]}') TO ('${range[1]}')`);
        created.push(name);
      }
      return { created, moved };
    },
    { timeout: 600_000, maxWait: 10_000 },
  );
}

export interface RetentionResult {
  /** Raw events before this instant are gone (start of a UTC month). */
  rawFrom: Date;
  /** Partitions dropped whole (their range ends by the horizon). */
  dropped: string[];
  /** Rows deleted from partitions that straddle the horizon (legacy, default). */
  deletedRows: number;
  deletedKeys: number;
}

/** Drops raw events older than `months` whole months before the current one (rollups stay). */
export async function applyUsageEventRetention(db: Db, now: Date, months: number): Promise<RetentionResult> {
  if (!Number.isInteger(months) || months < 1) throw new RangeError('retention months must be a whole number ≥ 1');
  const horizon = addMonths(monthStart(now), -months);
  return db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(PARTITION_LOCK_SQL);
      // Recorded first: a request that starts after this commits refuses events before it.
      await tx.$executeRawUnsafe(
        `INSERT INTO usage_event_retention (id, raw_from, updated_at) VALUES (1, $1::timestamptz, now())
         ON CONFLICT (id) DO UPDATE SET raw_from = greatest(usage_event_retention.raw_from, excluded.raw_from), updated_at = now()`,
        horizon.toISOString(),
      );
      const dropped: string[] = [];
      let deletedRows = 0;
      for (const p of await usagePartitions(tx)) {
        if (p.from !== null && p.from.getTime() >= horizon.getTime()) continue; // wholly after the horizon
        if (!p.isDefault && p.to !== null && p.to.getTime() <= horizon.getTime()) {
          await tx.$executeRawUnsafe(`DROP TABLE "${p.name}"`);
          dropped.push(p.name);
        } else {
          // straddles the horizon (the legacy partition, the default one): delete its older rows
          deletedRows += await tx.$executeRawUnsafe(`DELETE FROM "${p.name}" WHERE "timestamp" < $1::timestamptz`, horizon.toISOString());
        }
      }
      const deletedKeys = await tx.$executeRawUnsafe(`DELETE FROM usage_event_keys WHERE "timestamp" < $1::timestamptz`, horizon.toISOString());
      return { rawFrom: horizon, dropped, deletedRows, deletedKeys };
    },
    { timeout: 600_000, maxWait: 10_000 },
  );
}
