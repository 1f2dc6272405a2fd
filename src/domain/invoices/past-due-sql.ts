// `invoiceDueDate` and `isPastDue` (src/billing/invoice-due.ts) as SQL expressions over the
// `invoices` table, for the dashboard's aggregates and lists: the same rule, tested against the
// TypeScript form (test/db/dashboard-metrics.test.ts).
import { Prisma } from '../../generated/prisma/client';
import { amountRemainingSql } from './amount-remaining-sql';

function columns(alias?: string) {
  return (name: string) => Prisma.raw(alias ? `${alias}.${name}` : name);
}

/** The due date every surface shows (null for a draft). */
export function invoiceDueDateSql(alias?: string): Prisma.Sql {
  const col = columns(alias);
  return Prisma.sql`(CASE WHEN ${col('status')} = 'draft'::"InvoiceStatus" THEN NULL
    WHEN ${col('collection_method')} = 'send_invoice' THEN COALESCE(${col('due_date')}, ${col('finalized_at')})
    ELSE COALESCE(${col('finalized_at')}, ${col('due_date')}) END)`;
}

/** True when the invoice is past due at `now`. */
export function pastDueSql(now: Date, alias?: string): Prisma.Sql {
  const col = columns(alias);
  return Prisma.sql`(${col('status')} = 'open'::"InvoiceStatus" AND ${amountRemainingSql(alias)} > 0 AND (
    (${col('collection_method')} = 'send_invoice' AND ${col('due_date')} < ${now}::timestamptz)
    OR (${col('collection_method')} IS DISTINCT FROM 'send_invoice' AND ${col('attempt_count')} > 0)))`;
}
