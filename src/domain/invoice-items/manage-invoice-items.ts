// One-off invoice items: pending (invoice_id null) until the subscription engine puts them on
// the customer's (or the subscription's) next invoice and sets invoice_id in that invoice's
// transaction. `amount` is the unit amount; the line is amount × quantity.
import { customerClockTime } from '../test-clocks/customer-clock-time';
import type { Db } from '../../db/client';
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { InvoiceItem } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { listPage, newestFirst, type Page, type PageParams } from '../../db/paging';
import { checkAmount, checkCurrency, checkMetadata, checkText } from '../checks/payment-fields';
import { requireCustomer } from '../customers/find-customers';

export const INVOICE_ITEM_DESCRIPTION_MAX = 500;
export const INVOICE_ITEM_QUANTITY_MAX = 1_000_000_000;

/**
 * A subscription referenced in a body or query: unknown (or another tenant's) answers
 * resource_not_found. Raw SQL with an explicit tenant filter, so this area does not depend at
 * compile time on the subscriptions area's models (issue 6); before its table exists every
 * subscription id is unknown.
 */
export async function requireSubscription(db: TenantDb, tenant: Tenant, id: string, param = 'subscription'): Promise<{ id: string; customerId: string }> {
  // Checked first: a failing statement would abort the caller's transaction.
  const [table] = await db.$queryRaw<Array<{ present: boolean }>>`SELECT to_regclass('subscriptions') IS NOT NULL AS present`;
  const rows = table?.present
    ? await db.$queryRaw<Array<{ id: string; customer_id: string }>>`
        SELECT id, customer_id FROM subscriptions
        WHERE id = ${id} AND merchant_id = ${tenant.merchantId} AND mode = ${tenant.mode}::"Mode"`
    : [];
  const sub = rows[0];
  if (!sub) throw errors.resourceNotFound(`No such subscription: '${id}'`, param);
  return { id: sub.id, customerId: sub.customer_id };
}

export async function createInvoiceItem(
  deps: { db: TenantDb; rootDb: Db },
  tenant: Tenant,
  input: {
    customerId: string;
    amount: number;
    description: string;
    subscriptionId?: string | null;
    currency?: string | null;
    quantity?: number | null;
    vatRate?: string | null;
    metadata?: Record<string, string> | null;
  },
): Promise<InvoiceItem> {
  const { db } = deps;
  checkAmount(input.amount);
  if (typeof input.description !== 'string' || input.description.trim() === '') throw errors.validationFailed('description must not be empty', 'description');
  checkText(input.description, INVOICE_ITEM_DESCRIPTION_MAX, 'description');
  const quantity = input.quantity ?? 1;
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > INVOICE_ITEM_QUANTITY_MAX) {
    throw errors.validationFailed(`quantity must be an integer from 1 to ${INVOICE_ITEM_QUANTITY_MAX}`, 'quantity');
  }
  if (!Number.isSafeInteger(input.amount * quantity)) throw errors.validationFailed('amount × quantity is too large', 'amount');
  const metadata = checkMetadata(input.metadata);
  const customer = await db.customer.findFirst({ where: { id: input.customerId }, select: { id: true, currency: true } });
  if (!customer) throw errors.resourceNotFound(`No such customer: '${input.customerId}'`, 'customer');
  if (input.subscriptionId) {
    const sub = await requireSubscription(db, tenant, input.subscriptionId);
    if (sub.customerId !== customer.id) throw errors.validationFailed(`Subscription '${sub.id}' belongs to another customer`, 'subscription');
  }
  let currency = input.currency ? input.currency.toUpperCase() : (customer.currency ?? null);
  if (!currency) {
    const merchant = await deps.rootDb.merchant.findUnique({ where: { id: tenant.merchantId }, select: { defaultCurrency: true } });
    currency = merchant?.defaultCurrency ?? 'ISK';
  }
  checkCurrency(currency);
  // A test-clock customer's item is created at the clock's time (docs/test-clocks.md "Timestamps").
  const clockTime = await customerClockTime(db, customer.id);
  return db.invoiceItem.create({
    data: {
      id: newId('invoiceItem'),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      customerId: customer.id,
      subscriptionId: input.subscriptionId ?? null,
      amount: BigInt(input.amount),
      quantity,
      currency,
      description: input.description,
      vatRate: input.vatRate ?? null,
      metadata,
      ...(clockTime ? { createdAt: clockTime, updatedAt: clockTime } : {}),
    },
  });
}

export async function findInvoiceItem(db: TenantDb, id: string): Promise<InvoiceItem> {
  const row = await db.invoiceItem.findFirst({ where: { id } });
  if (!row) throw errors.resourceMissing(`No such invoice item: '${id}'`, 'id');
  return row;
}

export async function listInvoiceItems(
  db: TenantDb,
  tenant: Tenant,
  filter: { customerId?: string; subscriptionId?: string; pending?: boolean },
  params: PageParams,
): Promise<Page<InvoiceItem>> {
  if (filter.customerId !== undefined) {
    await requireCustomer(db, filter.customerId);
  }
  if (filter.subscriptionId !== undefined) await requireSubscription(db, tenant, filter.subscriptionId);
  const where = {
    ...(filter.customerId !== undefined ? { customerId: filter.customerId } : {}),
    ...(filter.subscriptionId !== undefined ? { subscriptionId: filter.subscriptionId } : {}),
    ...(filter.pending === true ? { invoiceId: null } : filter.pending === false ? { invoiceId: { not: null } } : {}),
  };
  return listPage({
    params,
    findCursor: async (id) => {
      const ii = await db.invoiceItem.findFirst({ where: { id }, select: { id: true, createdAt: true } });
      return ii && { id: ii.id, sortKey: ii.createdAt };
    },
    fetch: (after, take) => db.invoiceItem.findMany({ where: { ...where, ...(after ?? {}) }, orderBy: newestFirst(), take }),
  });
}
