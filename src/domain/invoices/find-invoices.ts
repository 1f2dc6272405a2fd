// Retrieve (with lines) and list (without lines) invoices within the tenant.
import type { TenantDb } from '../../db/tenancy';
import type { Invoice, InvoiceStatus } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import type { InvoiceWithLines } from './payment-invoice';
import { requireCustomer } from '../customers/find-customers';
import { containsText, customerMatch, searchText } from '../customers/search-customers';
import { requireSubscription } from '../subscriptions/find-subscriptions';

export async function findInvoice(db: TenantDb, id: string): Promise<InvoiceWithLines> {
  const invoice = await db.invoice.findFirst({ where: { id } });
  if (!invoice) throw errors.resourceMissing(`No such invoice: '${id}'`, 'id');
  const lines = await db.invoiceLine.findMany({ where: { invoiceId: invoice.id }, orderBy: { position: 'asc' } });
  return { invoice, lines };
}

/**
 * Invoices newest first, filtered. `search` (the dashboard's search box) matches the invoice
 * number (any case, e.g. `000042` or `inv-000042`) or the invoice's customer by e-mail, name,
 * external id or kennitala (customerMatch, the customer search's own rule).
 */
export async function listInvoices(
  db: TenantDb,
  filter: { status?: InvoiceStatus; customerId?: string; subscriptionId?: string; search?: string },
  params: PageParams,
): Promise<Page<Invoice>> {
  if (filter.customerId !== undefined) {
    await requireCustomer(db, filter.customerId);
  }
  // A filter naming no subscription of the caller is refused like the customer filter (docs/errors.md "Ids").
  if (filter.subscriptionId !== undefined) await requireSubscription(db, filter.subscriptionId, 'subscription');
  const q = searchText(filter.search ?? '');
  const where = {
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
    ...(filter.subscriptionId !== undefined ? { subscriptionId: filter.subscriptionId } : {}),
    ...(q ? { OR: [{ number: containsText(q) }, { customer: customerMatch(q) }] } : {}),
  };
  return listPage({
    params,
    findCursor: async (id) => {
      const inv = await db.invoice.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return inv && { id: inv.id, sortKey: inv.createdAt };
    },
    fetch: (after, take) => db.invoice.findMany({ where: { AND: [where, after ?? {}] }, orderBy: newestFirst(), take }),
  });
}
