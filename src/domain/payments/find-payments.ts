// Retrieve and list payments within the tenant (another merchant's or mode's id is unknown).
import type { TenantDb } from '../../db/tenancy';
import type { Payment, PaymentStatus } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { paymentInvoiceIds } from '../invoices/payment-invoice';
import { requireCustomer } from '../customers/find-customers';

export interface PaymentWithInvoice {
  payment: Payment;
  invoiceId: string | null;
}

export async function findPayment(db: TenantDb, id: string): Promise<PaymentWithInvoice> {
  const payment = await db.payment.findFirst({ where: { id } });
  if (!payment) throw errors.resourceMissing(`No such payment: '${id}'`, 'id');
  const ids = await paymentInvoiceIds(db, [id]);
  return { payment, invoiceId: ids.get(id) ?? null };
}

export async function listPayments(db: TenantDb, filter: { status?: PaymentStatus; customerId?: string }, params: PageParams): Promise<Page<PaymentWithInvoice>> {
  if (filter.customerId !== undefined) {
    await requireCustomer(db, filter.customerId);
  }
  const where = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
  };
  const page = await listPage({
    params,
    findCursor: async (id) => {
      const p = await db.payment.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return p && { id: p.id, sortKey: p.createdAt };
    },
    fetch: (after, take) => db.payment.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
  const ids = await paymentInvoiceIds(
    db,
    page.data.map((p) => p.id),
  );
  return { hasMore: page.hasMore, data: page.data.map((payment) => ({ payment, invoiceId: ids.get(payment.id) ?? null })) };
}
