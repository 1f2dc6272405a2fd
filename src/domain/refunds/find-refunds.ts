// Retrieve and list refunds. The list is bounded (docs/payments.md): at most `limit` refunds,
// newest first, no has_more; filtered by `payment` when given; `starting_after` as on every list.
import type { TenantDb } from '../../db/tenancy';
import type { Refund } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';

export async function findRefund(db: TenantDb, id: string): Promise<Refund> {
  const row = await db.refund.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such refund: '${id}'`, 'id');
  return row;
}

export async function listRefunds(db: TenantDb, filter: { paymentId?: string }, params: PageParams): Promise<Page<Refund>> {
  if (filter.paymentId !== undefined) {
    const parent = await db.payment.findFirst({ where: { id: filter.paymentId }, select: { id: true } });
    if (!parent) throw errors.resourceNotFound(`No such payment: '${filter.paymentId}'`, 'payment');
  }
  const where = filter.paymentId !== undefined ? { paymentId: filter.paymentId } : {};
  // starting_after, when given, must name one of the list's own rows (unknown, foreign or
  // other-mode ids answer resource_missing, as on every list).
  return listPage({
    params,
    findCursor: async (id) => {
      const row = await db.refund.findFirst({ where: { id, ...where }, select: { id: true, createdAt: true } });
      return row && { id: row.id, sortKey: row.createdAt };
    },
    fetch: (after, take) => db.refund.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
