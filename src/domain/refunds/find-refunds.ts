// Retrieve and list refunds. The list is bounded (docs/payments.md): at most `limit` refunds,
// newest first, no cursor and no has_more; filtered by `payment` when given.
import type { TenantDb } from '../../db/tenancy';
import type { Refund } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newestFirst } from '../../db/paging';

export async function findRefund(db: TenantDb, id: string): Promise<Refund> {
  const row = await db.refund.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such refund: '${id}'`, 'id');
  return row;
}

export async function listRefunds(db: TenantDb, filter: { paymentId?: string }, limit: number): Promise<Refund[]> {
  if (filter.paymentId !== undefined) {
    const p = await db.payment.findFirst({ where: { id: filter.paymentId }, select: { id: true } });
    if (!p) throw errors.resourceNotFound(`No such payment: '${filter.paymentId}'`, 'payment');
  }
  return db.refund.findMany({
    where: filter.paymentId !== undefined ? { paymentId: filter.paymentId } : {},
    orderBy: newestFirst(),
    take: limit,
  });
}
