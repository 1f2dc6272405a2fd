// What needs a person on the home page: open invoices past their due date, payments that failed
// in the last 7 days, subscriptions past due or unpaid, and webhook deliveries that gave up.
import type { TenantDb } from '../../db/tenancy';

const LIMIT = 5;

export async function needsAttention(db: TenantDb, now: Date) {
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000);
  const [pastDueInvoices, failedPayments, troubledSubscriptions, failedDeliveries] = await Promise.all([
    db.invoice.findMany({ where: { status: 'open', dueDate: { lt: now } }, orderBy: [{ dueDate: 'asc' }, { id: 'asc' }], take: LIMIT }),
    db.payment.findMany({ where: { status: 'failed', createdAt: { gte: weekAgo } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: LIMIT }),
    db.subscription.findMany({ where: { status: { in: ['past_due', 'unpaid'] } }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: LIMIT }),
    db.webhookDelivery.findMany({ where: { status: 'failed', updatedAt: { gte: weekAgo } }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: LIMIT }),
  ]);
  return { pastDueInvoices, failedPayments, troubledSubscriptions, failedDeliveries };
}
