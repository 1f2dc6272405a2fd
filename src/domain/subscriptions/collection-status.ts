// Moves a subscription between active, past_due and unpaid after its invoices changed
// (statusAfterCollection in ./dunning.ts decides; this reads the invoices and writes the row).
// What counts is written once, in SQL (collectionSituationSql): an invoice that is
// uncollectible, or open and overdue (charged automatically and failed at least once; a bank
// invoice past its due date, or with no claim standing for it).
import { Prisma } from '../../generated/prisma/client';
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, Subscription } from '../../generated/prisma/client';
import type { RecordedEvent } from '../../events';
import { statusAfterCollection, type CollectionSituation } from './dunning';
import { recordSubscriptionEvent } from './subscription-events';

/** An invoice as it is about to be written, counted instead of its row (the statement that writes it cannot see the new row). */
export type InvoiceCollectionFields = Pick<Invoice, 'id' | 'status' | 'collectionMethod' | 'attemptCount' | 'dueDate' | 'nextPaymentAttemptAt'>;

/**
 * A SELECT of one row (`status` of the subscription, `uncollectible`, `overdue`) for the
 * subscription `subscriptionId` at `now`; none when the subscription is not there. With
 * `replacing`, that invoice counts with the given fields instead of its row.
 */
export function collectionSituationSql(tenant: Tenant, subscriptionId: string, now: Date, replacing?: InvoiceCollectionFields): Prisma.Sql {
  const others = Prisma.sql`SELECT i.status, i.collection_method, i.attempt_count, i.due_date, i.next_payment_attempt_at FROM invoices i
    WHERE i.merchant_id = s.merchant_id AND i.mode = s.mode AND i.subscription_id = s.id
      AND i.status IN ('open', 'uncollectible')${replacing ? Prisma.sql` AND i.id <> ${replacing.id}` : Prisma.empty}`;
  const rows = replacing
    ? Prisma.sql`${others} UNION ALL SELECT ${replacing.status}::"InvoiceStatus", ${replacing.collectionMethod}::text, ${replacing.attemptCount}::int,
        ${replacing.dueDate}::timestamptz, ${replacing.nextPaymentAttemptAt}::timestamptz`
    : others;
  return Prisma.sql`
    SELECT s.status::text AS status,
           COALESCE(bool_or(x.status = 'uncollectible'), false) AS uncollectible,
           COALESCE(bool_or(x.status = 'open' AND (
             (x.collection_method = 'charge_automatically' AND x.attempt_count > 0)
             OR (x.collection_method = 'send_invoice' AND x.due_date <= ${now}::timestamptz)
             -- no claim stands for it (refused, or dropped by the bank): the merchant must act
             OR (x.collection_method = 'send_invoice' AND x.next_payment_attempt_at IS NULL))), false) AS overdue
    FROM subscriptions s
    LEFT JOIN LATERAL (${rows}) x ON true
    WHERE s.id = ${subscriptionId} AND s.merchant_id = ${tenant.merchantId} AND s.mode = ${tenant.mode}::"Mode"
    GROUP BY s.id, s.status`;
}

/** The row collectionSituationSql reads. */
export interface CollectionSituationRow extends CollectionSituation {
  status: Subscription['status'];
}

/** Writes the status the situation calls for (and sends subscription.updated) when it differs; nothing otherwise. */
export async function applyCollectionSituation(db: TenantDb, tenant: Tenant, subscriptionId: string, row: CollectionSituationRow): Promise<RecordedEvent[]> {
  const next = statusAfterCollection(row.status, row);
  if (next === row.status) return [];
  const updated = await db.subscription.update({ where: { id: subscriptionId }, data: { status: next } });
  return [await recordSubscriptionEvent(db, tenant, 'subscription.updated', updated)];
}

export async function refreshCollectionStatus(db: TenantDb, tenant: Tenant, sub: Subscription, now: Date): Promise<{ subscription: Subscription; events: RecordedEvent[] }> {
  const rows = await db.$queryRaw<CollectionSituationRow[]>(collectionSituationSql(tenant, sub.id, now));
  const situation = rows[0] ?? { status: sub.status, uncollectible: false, overdue: false };
  const next = statusAfterCollection(sub.status, situation);
  if (next === sub.status) return { subscription: sub, events: [] };
  const updated = await db.subscription.update({ where: { id: sub.id }, data: { status: next } });
  return { subscription: updated, events: [await recordSubscriptionEvent(db, tenant, 'subscription.updated', updated)] };
}
