// Retrieve (with lines) and list (without lines) invoices within the tenant.
import type { TenantDb } from '../../db/tenancy';
import type { Invoice, InvoiceStatus } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import type { InvoiceWithLines } from './payment-invoice';
import { requireCustomer } from '../customers/find-customers';
import { requireSubscription } from '../subscriptions/find-subscriptions';

export async function findInvoice(db: TenantDb, id: string): Promise<InvoiceWithLines> {
  const invoice = await db.invoice.findFirst({ where: { id } });
  if (!invoice) throw errors.resourceMissing(`No such invoice: '${id}'`, 'id');
  const lines = await db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } });
  return { invoice, lines };
}

export async function listInvoices(db: TenantDb, filter: { status?: InvoiceStatus; customerId?: string; subscriptionId?: string }, params: PageParams): Promise<Page<Invoice>> {
  if (filter.customerId !== undefined) {
    await requireCustomer(db, filter.customerId);
  }
  // A filter naming no subscription of the caller is refused like the customer filter (docs/errors.md "Ids").
  if (filter.subscriptionId !== undefined) await requireSubscription(db, filter.subscriptionId, 'subscription');
  const where = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
    ...(filter.subscriptionId !== undefined ? { subscriptionId: filter.subscriptionId } : {}),
  };
  return listPage({
    params,
    findCursor: async (id) => {
      const inv = await db.invoice.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return inv && { id: inv.id, sortKey: inv.createdAt };
    },
    fetch: (after, take) => db.invoice.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
