// The numbers on the dashboard's home page, for one merchant and mode, in one currency (the
// merchant's default unless asked), computed from the database in a few aggregate queries:
//  - MRR: every licensed item of subscriptions that are trialing, active or past_due, as
//    unit_amount × quantity per month. A price billed every N days/weeks/months/years is scaled to
//    one month (day ×30, week ×52/12, year ÷12, then ÷N); the sum is rounded half up once, to
//    whole minor units. Metered and tiered prices have no fixed monthly amount and are left out
//    (the page says so). Discounts are not deducted.
//  - revenue by month: amount_paid of invoices paid in that month (UTC);
//  - new / canceled subscriptions by month (created_at / canceled_at);
//  - failed payments by month (payments whose status is failed, by created_at);
//  - past due: isPastDue (src/billing/invoice-due.ts): open card invoices in payment retry and
//    bank claims past their due date, at amount_remaining; aged by days since the due date.

import type { TenantDb, Tenant } from '../../db/tenancy';
import { amountRemainingSql } from '../invoices/amount-remaining-sql';
import { invoiceDueDateSql, pastDueSql } from '../invoices/past-due-sql';

export interface MonthPoint {
  /** `YYYY-MM` */
  month: string;
  value: number;
}

export interface BillingOverview {
  currency: string;
  months: string[];
  mrr: number;
  /** Subscriptions counted in MRR that have metered or tiered items (not in the figure). */
  meteredSubscriptions: number;
  activeSubscriptions: number;
  revenueByMonth: number[];
  newSubscriptionsByMonth: number[];
  canceledSubscriptionsByMonth: number[];
  failedPaymentsByMonth: number[];
  pastDue: { count: number; amount: number };
  /** Past-due invoices by whole days past the due date: 0–7, 8–30, 31–60, over 60. */
  pastDueAging: { labels: string[]; counts: number[]; amounts: number[] };
}

export function lastMonths(now: Date, count: number): string[] {
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}

/** Per-month factor of a recurring interval, as a fraction numerator/denominator. */
export function monthlyFactor(interval: string, count: number): [number, number] {
  switch (interval) {
    case 'day':
      return [30, count];
    case 'week':
      return [52, 12 * count];
    case 'month':
      return [1, count];
    case 'year':
      return [1, 12 * count];
    default:
      return [0, 1];
  }
}

type Raw = Pick<TenantDb, '$queryRaw'>;

function series(months: string[], rows: Array<{ month: string; value: bigint | number | null }>): number[] {
  const by = new Map(rows.map((r) => [r.month, Number(r.value ?? 0)]));
  return months.map((m) => by.get(m) ?? 0);
}

export async function billingOverview(db: Raw, tenant: Tenant, opts: { currency: string; now: Date; months?: number }): Promise<BillingOverview> {
  const months = lastMonths(opts.now, opts.months ?? 12);
  const from = new Date(`${months[0]}-01T00:00:00.000Z`);
  const { merchantId, mode } = tenant;
  const currency = opts.currency;

  const items = await db.$queryRaw<
    Array<{ subscription_id: string; quantity: number; unit_amount: bigint | null; tiers_mode: string | null; usage: string | null; interval: string; interval_count: number }>
  >`
    SELECT s.id AS subscription_id, si.quantity, p.unit_amount, p.tiers_mode::text AS tiers_mode,
           p.recurring_usage_type::text AS usage, s.interval::text AS interval, s.interval_count
    FROM subscriptions s
    JOIN subscription_items si ON si.merchant_id = s.merchant_id AND si.mode = s.mode AND si.subscription_id = s.id AND si.deleted_at IS NULL
    JOIN prices p ON p.merchant_id = si.merchant_id AND p.mode = si.mode AND p.id = si.price_id
    WHERE s.merchant_id = ${merchantId} AND s.mode = ${mode}::"Mode" AND s.currency = ${currency}
      AND s.status IN ('trialing', 'active', 'past_due')`;
  // Exact rational sum, rounded once: Σ amount × num / den over a common denominator.
  let numerator = 0n;
  const DEN = 12n * 52n * 30n * 1000n;
  const subs = new Set<string>();
  const metered = new Set<string>();
  for (const it of items) {
    subs.add(it.subscription_id);
    if (it.usage === 'metered' || it.tiers_mode !== null || it.unit_amount === null) {
      metered.add(it.subscription_id);
      continue;
    }
    const [num, den] = monthlyFactor(it.interval, it.interval_count);
    numerator += (BigInt(it.unit_amount) * BigInt(it.quantity) * BigInt(num) * DEN) / BigInt(den);
  }
  const mrr = Number((numerator + DEN / 2n) / DEN);

  const revenue = await db.$queryRaw<Array<{ month: string; value: bigint }>>`
    SELECT to_char(date_trunc('month', paid_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, SUM(amount_paid)::bigint AS value
    FROM invoices WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND currency = ${currency}
      AND status = 'paid' AND paid_at >= ${from}
    GROUP BY 1`;
  const created = await db.$queryRaw<Array<{ month: string; value: bigint }>>`
    SELECT to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, COUNT(*)::bigint AS value
    FROM subscriptions WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND created_at >= ${from}
    GROUP BY 1`;
  const canceled = await db.$queryRaw<Array<{ month: string; value: bigint }>>`
    SELECT to_char(date_trunc('month', canceled_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, COUNT(*)::bigint AS value
    FROM subscriptions WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND canceled_at >= ${from}
    GROUP BY 1`;
  const failed = await db.$queryRaw<Array<{ month: string; value: bigint }>>`
    SELECT to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month, COUNT(*)::bigint AS value
    FROM payments WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND status = 'failed' AND created_at >= ${from}
    GROUP BY 1`;
  const pastDue = await db.$queryRaw<Array<{ count: bigint; amount: bigint | null }>>`
    SELECT COUNT(*)::bigint AS count, SUM(${amountRemainingSql()})::bigint AS amount
    FROM invoices WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND currency = ${currency}
      AND ${pastDueSql(opts.now)}`;

  const aging = await db.$queryRaw<Array<{ bucket: number; count: bigint; amount: bigint | null }>>`
    SELECT CASE WHEN days <= 7 THEN 0 WHEN days <= 30 THEN 1 WHEN days <= 60 THEN 2 ELSE 3 END AS bucket,
           COUNT(*)::bigint AS count, SUM(remaining)::bigint AS amount
    FROM (SELECT GREATEST(0, floor(extract(epoch FROM (${opts.now}::timestamptz - ${invoiceDueDateSql()})) / 86400))::int AS days,
                 ${amountRemainingSql()} AS remaining
          FROM invoices WHERE merchant_id = ${merchantId} AND mode = ${mode}::"Mode" AND currency = ${currency}
            AND ${pastDueSql(opts.now)}) d
    GROUP BY 1`;
  const agingLabels = ['0–7 days', '8–30 days', '31–60 days', 'over 60 days'];
  const agingCounts = agingLabels.map((_, i) => Number(aging.find((a) => Number(a.bucket) === i)?.count ?? 0));
  const agingAmounts = agingLabels.map((_, i) => Number(aging.find((a) => Number(a.bucket) === i)?.amount ?? 0));

  return {
    currency,
    pastDueAging: { labels: agingLabels, counts: agingCounts, amounts: agingAmounts },
    months,
    mrr,
    meteredSubscriptions: metered.size,
    activeSubscriptions: subs.size,
    revenueByMonth: series(months, revenue),
    newSubscriptionsByMonth: series(months, created),
    canceledSubscriptionsByMonth: series(months, canceled),
    failedPaymentsByMonth: series(months, failed),
    pastDue: { count: Number(pastDue[0]?.count ?? 0), amount: Number(pastDue[0]?.amount ?? 0) },
  };
}
