// Endpoints of the tenant (deleted ones are gone from the API), newest first.
import type { TenantDb } from '../../db/tenancy';
import type { WebhookEndpoint } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export async function listWebhookEndpoints(db: TenantDb, params: PageParams): Promise<Page<WebhookEndpoint>> {
  return listPage({
    params,
    findCursor: async (id) => {
      const e = await db.webhookEndpoint.findFirst({ where: { id, deletedAt: null }, select: { id: true, createdAt: true } });
      return e && { id: e.id, sortKey: e.createdAt };
    },
    fetch: (after, take) => db.webhookEndpoint.findMany({ where: { deletedAt: null, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}

/** The endpoint, or resource_missing (unknown, deleted, another merchant's, the other mode's). */
export async function getWebhookEndpoint(db: TenantDb, id: string, param = 'id'): Promise<WebhookEndpoint> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, deletedAt: null } });
  if (!row) throw errors.resourceMissing(`No such webhook endpoint: '${id}'`, param);
  return row;
}
