// What needs a person on the home page: past-due invoices (isPastDue, src/billing/invoice-due.ts:
// card invoices in payment retry and bank claims past their due date; the same rule as the home
// figure), payments that failed in the last 7 days, subscriptions past due or unpaid, and webhook
// deliveries that gave up.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { invoiceDueDateSql, pastDueSql } from '../invoices/past-due-sql';

const LIMIT = 5;

export async function needsAttention(db: TenantDb, tenant: Tenant, now: Date) {
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  const pastDueIds = db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM invoices
    WHERE merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode" AND ${pastDueSql(now)}
    ORDER BY ${invoiceDueDateSql()} ASC, id ASC LIMIT ${LIMIT}`;
  const [ids, failedPayments, troubledSubscriptions, failedDeliveries] = await Promise.all([
    pastDueIds,
    db.payment.findMany({ where: { status: 'failed', createdAt: { gte: weekAgo } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: LIMIT }),
    db.subscription.findMany({ where: { status: { in: ['past_due', 'unpaid'] } }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: LIMIT }),
    db.webhookDelivery.findMany({ where: { status: 'failed', updatedAt: { gte: weekAgo } }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: LIMIT }),
  ]);
  const rows = ids.length ? await db.invoice.findMany({ where: { id: { in: ids.map((r) => r.id) } } }) : [];
  const order = new Map(ids.map((r, i) => [r.id, i]));
  const pastDueInvoices = rows.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
  return { pastDueInvoices, failedPayments, troubledSubscriptions, failedDeliveries };
}
