// GET /v1/events: newest first by timestamp (then id), filtered by customer, event name and an
// inclusive [from, to] range. A customer filter must name one of the caller's customers
// (404 resource_not_found otherwise, as on every list: docs/errors.md "Ids").
// Indexes: (merchant_id, mode, timestamp desc, id desc) for the merchant-wide list and
// (merchant_id, mode, customer_id, event_name, timestamp) when customer (and event_name) is given.
import type { TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import type { StoredUsageEvent } from '../../objects/usage-events';
import { requireCustomer } from '../customers/find-customers';

export interface UsageEventFilter {
  customer?: string;
  eventName?: string;
  from?: Date;
  to?: Date;
}

export async function listUsageEvents(db: TenantDb, params: PageParams, filter: UsageEventFilter): Promise<Page<StoredUsageEvent>> {
  if (filter.from && filter.to && filter.from.getTime() > filter.to.getTime()) {
    throw errors.validationFailed('from must not be after to', 'from');
  }
  if (filter.customer !== undefined) await requireCustomer(db, filter.customer, 'customer');
  const where: Record<string, unknown> = {};
  if (filter.customer !== undefined) where.customerId = filter.customer;
  if (filter.eventName !== undefined) where.eventName = filter.eventName;
  if (filter.from || filter.to) where.timestamp = { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) };
  const select = { id: true, customerId: true, eventName: true, idempotencyKey: true, timestamp: true, metadata: true, receivedAt: true } as const;
  return listPage({
    params,
    sortField: 'timestamp',
    findCursor: async (id) => {
      const e = await db.usageEvent.findFirst({ where: { id }, select: { id: true, timestamp: true } });
      return e && { id: e.id, sortKey: e.timestamp };
    },
    fetch: (after, take) => db.usageEvent.findMany({ where: after ? { AND: [where, after] } : where, orderBy: newestFirst('timestamp'), take, select }),
  });
}
