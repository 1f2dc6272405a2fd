// Everything the portal shows one customer, read in the customer's tenant: their subscriptions
// (with items, product names and the preview of the next invoice), finalized invoices, credit
// notes, saved payment methods and billing details, the merchant's name, support e-mail and
// portal settings. Nothing of another customer is read: every query filters on the customer.
import type { ScopedDb, Tenant } from '../../db/tenancy';
import type { CreditNote, Customer, Invoice, PaymentMethod, Subscription } from '../../generated/prisma/client';
import { previewNextInvoice } from '../subscriptions/preview-next-invoice';

/** The next invoice as the portal shows it: when it is issued and what it asks for. */
export interface InvoicePreview {
  issuesAt: Date;
  currency: string;
  total: number;
}
import { getPortalSettings, type PortalSettings } from './portal-settings';

/** How many invoices and credit notes the portal lists (newest first). */
export const PORTAL_HISTORY_LIMIT = 50;

export interface PortalSubscription {
  subscription: Subscription;
  items: Array<{ id: string; description: string; quantity: number }>;
  preview: InvoicePreview | null;
}

export interface PortalOverview {
  merchant: { name: string; supportEmail: string | null };
  settings: PortalSettings;
  customer: Customer;
  subscriptions: PortalSubscription[];
  invoices: Invoice[];
  creditNotes: Array<CreditNote & { invoiceNumber: string | null }>;
  paymentMethods: PaymentMethod[];
  defaultPaymentMethodId: string | null;
}

export async function loadPortalOverview(db: ScopedDb, tenant: Tenant, customerId: string): Promise<PortalOverview> {
  const customer = await db.customer.findFirstOrThrow({ where: { id: customerId } });
  const [merchant, details, settings, subs, invoices, paymentMethods] = await Promise.all([
    db.merchant.findUniqueOrThrow({ where: { id: tenant.merchantId }, select: { name: true } }),
    db.merchantBusinessDetails.findUnique({ where: { merchantId: tenant.merchantId } }),
    getPortalSettings(db, tenant.merchantId),
    db.subscription.findMany({ where: { customerId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    db.invoice.findMany({ where: { customerId, status: { not: 'draft' } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: PORTAL_HISTORY_LIMIT }),
    db.paymentMethod.findMany({ where: { customerId, detachedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
  ]);
  const notes = await db.creditNote.findMany({
    where: { invoice: { customerId } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: PORTAL_HISTORY_LIMIT,
    include: { invoice: { select: { number: true } } },
  });
  const items = subs.length
    ? await db.subscriptionItem.findMany({ where: { subscriptionId: { in: subs.map((s) => s.id) }, deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
    : [];
  const prices = items.length
    ? await db.price.findMany({ where: { id: { in: [...new Set(items.map((i) => i.priceId))] } }, include: { product: { select: { name: true } } } })
    : [];
  const productOf = new Map(prices.map((p) => [p.id, p.product.name]));
  const subscriptions: PortalSubscription[] = [];
  for (const s of subs) {
    subscriptions.push({
      subscription: s,
      items: items.filter((i) => i.subscriptionId === s.id).map((i) => ({ id: i.id, description: productOf.get(i.priceId) ?? i.priceId, quantity: i.quantity })),
      preview: await nextInvoice(db, tenant, s),
    });
  }
  return {
    merchant: { name: details?.legalName ?? merchant.name, supportEmail: details?.supportEmail ?? null },
    settings,
    customer,
    subscriptions,
    invoices: settings.showInvoiceHistory ? invoices : [],
    creditNotes: settings.showInvoiceHistory ? notes.map(({ invoice, ...cn }) => ({ ...cn, invoiceNumber: invoice.number })) : [],
    paymentMethods,
    defaultPaymentMethodId: customer.defaultPaymentMethodId,
  };
}

/** The dashboard's and the portal's one preview (preview-next-invoice.ts), issued at the period end. */
async function nextInvoice(db: ScopedDb, tenant: Tenant, s: Subscription): Promise<InvoicePreview | null> {
  if (s.status === 'canceled') return null;
  const p = await previewNextInvoice(db, tenant, s.id);
  return p ? { issuesAt: s.currentPeriodEnd, currency: p.invoice.currency, total: Number(p.invoice.total) } : null;
}
