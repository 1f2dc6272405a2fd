// What the subscription workflow knows of its subscription (src/contracts SubscriptionView),
// read from the database after every change: the row, its test clock's time, and the invoices
// that still need automatic work (draft, or open with a next attempt / claim check).
//
// One statement (the workflow reads it after every step, so it is on the renewal's hot path):
// raw SQL, filtered explicitly by merchant and mode like every raw query (src/db/tenancy.ts).
// Instants come back as epoch milliseconds and are formatted with toISOString, so the view is
// byte for byte what the model queries gave (views are recorded in workflow histories).
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/client';
import type { TenantDb } from '../../db/tenancy';
import type { CollectionMethod, Interval, SubscriptionRef, SubscriptionStatus, SubscriptionView } from '../../contracts/subscriptions';

/** Epoch milliseconds: a bigint from the driver, a number when the row comes back as JSON. */
type Millis = bigint | number;

interface ViewRow {
  id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  customer_id: string;
  status: SubscriptionStatus;
  collection_method: CollectionMethod;
  interval: Interval;
  interval_count: number;
  current_period_start: Millis;
  current_period_end: Millis;
  trial_end: Millis | null;
  trial_will_end_notified_for: Millis | null;
  cancel_at_period_end: boolean;
  paused_at: Millis | null;
  test_clock_id: string | null;
  clock_time: Millis | null;
  clock_deleted: boolean;
  clock_synced_to: Millis | null;
  clock_wake_at: Millis | null;
  invoices: Array<{ id: string; status: 'draft' | 'open'; collection_method: CollectionMethod | null; attempt_count: number; next_action_at: number | null }>;
}

const ms = (column: string) => Prisma.raw(`(extract(epoch from ${column}) * 1000)::bigint`);

/** The invoice columns the view reads: what a statement that writes invoices returns for viewJsonSql. */
export const VIEW_INVOICE_COLUMNS = Prisma.raw('id, merchant_id, mode, subscription_id, status, collection_method, attempt_count, next_payment_attempt_at, created_at');

/**
 * The SELECT of the view for the subscriptions matching `where` (a fragment over `s`), read from
 * `from` (the table, or a CTE of its rows); with `changedInvoices` (a CTE of the same statement
 * that wrote invoices, RETURNING VIEW_INVOICE_COLUMNS), those rows as written stand in for the
 * ones the statement's snapshot still holds.
 */
function viewQuery(where: Prisma.Sql, from: Prisma.Sql = Prisma.sql`subscriptions`, changedInvoices: Prisma.Sql | null = null): Prisma.Sql {
  const invoices =
    changedInvoices === null
      ? Prisma.sql`invoices`
      : Prisma.sql`(SELECT ${VIEW_INVOICE_COLUMNS} FROM invoices WHERE id NOT IN (SELECT id FROM ${changedInvoices})
                    UNION ALL SELECT ${VIEW_INVOICE_COLUMNS} FROM ${changedInvoices})`;
  return Prisma.sql`
    SELECT s.id, s.merchant_id, s.mode::text AS mode, s.customer_id, s.status::text AS status,
           s.collection_method::text AS collection_method, s.interval::text AS interval, s.interval_count,
           ${ms('s.current_period_start')} AS current_period_start, ${ms('s.current_period_end')} AS current_period_end,
           ${ms('s.trial_end')} AS trial_end, ${ms('s.trial_will_end_notified_for')} AS trial_will_end_notified_for,
           s.cancel_at_period_end, ${ms('s.paused_at')} AS paused_at, s.test_clock_id,
           ${ms('c.frozen_time')} AS clock_time, (c.deleted_at IS NOT NULL) AS clock_deleted,
           ${ms('s.clock_synced_to')} AS clock_synced_to, ${ms('s.clock_wake_at')} AS clock_wake_at,
           COALESCE((
             SELECT json_agg(json_build_object(
                      'id', i.id, 'status', i.status, 'collection_method', i.collection_method,
                      'attempt_count', i.attempt_count, 'next_action_at', ${ms('i.next_payment_attempt_at')})
                    ORDER BY i.created_at, i.id)
             FROM ${invoices} i
             WHERE i.merchant_id = s.merchant_id AND i.mode = s.mode AND i.subscription_id = s.id
               AND (i.status = 'draft' OR (i.status = 'open' AND i.next_payment_attempt_at IS NOT NULL))
           ), '[]'::json) AS invoices
    FROM ${from} s
    LEFT JOIN test_clocks c ON c.merchant_id = s.merchant_id AND c.mode = s.mode AND c.id = s.test_clock_id
    WHERE ${where}`;
}

const iso = (v: Millis) => new Date(Number(v)).toISOString();
const isoOrNull = (v: Millis | null) => (v === null ? null : iso(v));

function toView(row: ViewRow): SubscriptionView {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    customerId: row.customer_id,
    status: row.status,
    collectionMethod: row.collection_method,
    interval: row.interval,
    intervalCount: row.interval_count,
    currentPeriodStart: iso(row.current_period_start),
    currentPeriodEnd: iso(row.current_period_end),
    trialEnd: isoOrNull(row.trial_end),
    trialWillEndNotifiedFor: isoOrNull(row.trial_will_end_notified_for),
    cancelAtPeriodEnd: row.cancel_at_period_end,
    pausedAt: isoOrNull(row.paused_at),
    testClockId: row.test_clock_id,
    clockTime: isoOrNull(row.clock_time),
    clockDeleted: row.test_clock_id !== null && row.clock_deleted,
    clockSyncedTo: isoOrNull(row.clock_synced_to),
    clockWakeAt: isoOrNull(row.clock_wake_at),
    invoices: row.invoices.map((i) => ({
      id: i.id,
      status: i.status,
      collectionMethod: i.collection_method ?? row.collection_method,
      attemptCount: i.attempt_count,
      nextActionAt: isoOrNull(i.next_action_at),
    })),
  };
}

/** The view of one subscription, or null when it is not there (or belongs to another merchant or mode). */
export async function loadSubscriptionView(db: Db | TenantDb, ref: SubscriptionRef): Promise<SubscriptionView | null> {
  const rows = await (db as Db).$queryRaw<ViewRow[]>(viewQuery(Prisma.sql`s.id = ${ref.subscriptionId} AND s.merchant_id = ${ref.merchantId} AND s.mode = ${ref.mode}::"Mode"`));
  return rows[0] ? toView(rows[0]) : null;
}

/**
 * Runs `update` (an UPDATE of one subscription row, `RETURNING *`, filtered by merchant and mode)
 * and reads the view of the row it wrote, in one statement: a step that ends by writing the row
 * returns the view instead of the workflow's activity reading it again after commit. The
 * invoices are those the transaction sees when the statement starts (its own earlier writes
 * included).
 */
export async function updateAndLoadView(db: Db | TenantDb, update: Prisma.Sql): Promise<SubscriptionView | null> {
  const rows = await (db as Db).$queryRaw<ViewRow[]>(Prisma.sql`WITH written AS (${update}) ${viewQuery(Prisma.sql`true`, Prisma.sql`written`)}`);
  return rows[0] ? toView(rows[0]) : null;
}

/**
 * A scalar subquery for a statement that writes invoices of the subscription `ref` in its CTE
 * `changedInvoices` (RETURNING VIEW_INVOICE_COLUMNS): the subscription's view after that write, as
 * JSON (viewFromJson reads it). The subscription row is read from `subscription`: the table (the
 * row as the statement found it), or a CTE of the same statement that wrote it (RETURNING *).
 */
export function viewJsonSql(ref: SubscriptionRef, changedInvoices: Prisma.Sql, subscription: Prisma.Sql = Prisma.sql`subscriptions`): Prisma.Sql {
  const where = Prisma.sql`s.id = ${ref.subscriptionId} AND s.merchant_id = ${ref.merchantId} AND s.mode = ${ref.mode}::"Mode"`;
  return Prisma.sql`(SELECT to_json(v) FROM (${viewQuery(where, subscription, changedInvoices)}) v)`;
}

/** The view viewJsonSql returned (null: the subscription is not there). */
export function viewFromJson(json: unknown): SubscriptionView | null {
  return json === null || json === undefined ? null : toView(json as ViewRow);
}
