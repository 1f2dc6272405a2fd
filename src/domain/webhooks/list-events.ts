// The merchant's events (GET /v1/webhook_events), newest first, optionally of one type.
import type { TenantDb } from '../../db/tenancy';
import type { Event } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export async function listEvents(db: TenantDb, filter: { type?: string }, params: PageParams): Promise<Page<Event>> {
  const where = filter.type !== undefined ? { type: filter.type } : {};
  return listPage({
    params,
    findCursor: async (id) => {
      const e = await db.event.findFirst({ where: { id, ...where }, select: { id: true, createdAt: true } });
      return e && { id: e.id, sortKey: e.createdAt };
    },
    fetch: (after, take) => db.event.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}

export async function getEvent(db: TenantDb, id: string): Promise<Event> {
  const row = await db.event.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such event: '${id}'`, 'id');
  return row;
}
