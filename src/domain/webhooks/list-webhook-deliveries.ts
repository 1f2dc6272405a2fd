// Delivery records, newest first, each with its attempts (newest attempt first, at most
// MAX_ATTEMPTS_SHOWN of them). Filtered by endpoint and/or event.
import type { TenantDb } from '../../db/tenancy';
import type { DeliveryWithAttempts } from '../../objects/webhook-deliveries';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export const MAX_ATTEMPTS_SHOWN = 50;

const withAttempts = { attempts: { orderBy: { attemptNumber: 'desc' as const }, take: MAX_ATTEMPTS_SHOWN } };

export interface DeliveryFilter {
  endpoint?: string;
  event?: string;
}

export async function listWebhookDeliveries(db: TenantDb, filter: DeliveryFilter, params: PageParams): Promise<Page<DeliveryWithAttempts>> {
  // A referenced id that is unknown, deleted, another merchant's or the other mode's: resource_not_found.
  if (filter.endpoint !== undefined) {
    const ep = await db.webhookEndpoint.findFirst({ where: { id: filter.endpoint, deletedAt: null }, select: { id: true } });
    if (!ep) throw errors.resourceNotFound(`No such webhook endpoint: '${filter.endpoint}'`, 'endpoint');
  }
  if (filter.event !== undefined) {
    const ev = await db.event.findFirst({ where: { id: filter.event }, select: { id: true } });
    if (!ev) throw errors.resourceNotFound(`No such event: '${filter.event}'`, 'event');
  }
  const where = {
    ...(filter.endpoint !== undefined ? { endpointId: filter.endpoint } : {}),
    ...(filter.event !== undefined ? { eventId: filter.event } : {}),
  };
  return listPage({
    params,
    findCursor: async (id) => {
      const d = await db.webhookDelivery.findFirst({ where: { id, ...where }, select: { id: true, createdAt: true } });
      return d && { id: d.id, sortKey: d.createdAt };
    },
    fetch: (after, take) => db.webhookDelivery.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take, include: withAttempts }),
  });
}

export async function getWebhookDelivery(db: TenantDb, id: string): Promise<DeliveryWithAttempts> {
  const row = await db.webhookDelivery.findFirst({ where: { id }, include: withAttempts });
  if (!row) throw errors.resourceMissing(`No such webhook delivery: '${id}'`, 'id');
  return row;
}
