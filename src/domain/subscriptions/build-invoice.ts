// Builds one subscription invoice (status `draft`) inside the caller's transaction: gathers the
// items, prices, meter quantities, rollover credit and pending invoice items, runs the pure
// assembler (src/billing assembleSubscriptionInvoice) and stores the invoice, its lines and the
// attachments. Exactly once: the invoice's period_key is UNIQUE per merchant and mode, and an
// existing invoice with the key is returned instead of a second one (docs/subscriptions.md).
//
// period_key = `${subscriptionId}:${keyPart}:${billingReason}` where keyPart is the boundary's
// ISO instant for cycle and create invoices (the instant the invoice is issued: the start of the
// period billed in advance), and the command id for invoices of an item change (always_invoice):
// two changes may happen at the same instant on a test clock.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, Prisma, Subscription } from '../../generated/prisma/client';
import { newId } from '../../ids';
import {
  applyVat,
  assembleSubscriptionInvoice,
  repeatingDiscountEndsAt,
  type Currency,
  type Discount,
  type PendingInvoiceItem,
  type SubscriptionInvoiceItem,
} from '../../billing';
import { meterQuantity } from '../meters/meter-quantity';
import { priceTerms } from '../prices/price-for-subscription';
import { itemsOf } from './find-subscriptions';
import { getVatSettings, lineVatRate } from '../vat/vat-settings';
import { revenueAccount } from '../ledger/post-ledger';
import { vatBreakdownJson } from '../invoices/payment-invoice';

export type SubscriptionBillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

export interface Period {
  start: Date;
  end: Date;
}

export interface BuildInvoiceInput {
  subscription: Subscription;
  billingReason: SubscriptionBillingReason;
  /** Boundary ISO instant (create, cycle) or command id (update): see period_key above. */
  keyPart: string;
  /** The instant the invoice is issued; decides whether the discount applies. Null: no discount. */
  discountBoundary: Date | null;
  /** Shown as the invoice's period. */
  period: Period;
  /** Licensed items are billed for this period (null: none). */
  openingPeriod: Period | null;
  /** Metered items are billed for this period (null: none). */
  closingPeriod: Period | null;
  /** Which pending invoice items go on it: the subscription's and the customer's unassigned ones, or only the subscription's. */
  pendingScope: 'customer' | 'subscription';
  /** The subscription's time when the invoice is made (its clock's time on a test clock): its created_at. */
  issuedAt?: Date;
}

export function periodKey(subscriptionId: string, keyPart: string, reason: SubscriptionBillingReason): string {
  return `${subscriptionId}:${keyPart}:${reason}`;
}

/** Whether the subscription's discount applies to the invoice issued at `boundary` (docs/subscriptions.md "Discounts"). */
export function discountApplies(discount: Discount, discountStart: Date, boundary: Date): boolean {
  const b = boundary.getTime();
  const s = discountStart.getTime();
  switch (discount.duration) {
    case 'once':
      return b === s;
    case 'forever':
      return b >= s;
    case 'repeating':
      return b >= s && b < repeatingDiscountEndsAt(discountStart, discount.duration_in_months as number).getTime();
  }
  return false;
}

export interface BuiltInvoice {
  invoice: Invoice;
  created: boolean;
}

/** Null when the invoice would have no line at all (nothing to bill): no invoice is made. */
export async function buildSubscriptionInvoice(db: TenantDb, tenant: Tenant, input: BuildInvoiceInput): Promise<BuiltInvoice | null> {
  const sub = input.subscription;
  const key = periodKey(sub.id, input.keyPart, input.billingReason);
  const existing = await db.invoice.findFirst({ where: { periodKey: key } });
  if (existing) return { invoice: existing, created: false };

  const isFirstInvoice = input.closingPeriod === null;
  const isFinal = input.openingPeriod === null;
  const items = input.billingReason === 'subscription_update' ? [] : await itemsOf(db, sub.id);
  const prices = items.length ? await db.price.findMany({ where: { id: { in: items.map((i) => i.priceId) } }, include: { product: true, meter: true } }) : [];
  const priceById = new Map(prices.map((p) => [p.id, p]));

  const assemblerItems: SubscriptionInvoiceItem[] = [];
  const meteredUsage: Record<string, string> = {};
  const rolloverIn: Record<string, number> = {};
  for (const item of items) {
    const price = priceById.get(item.priceId);
    if (!price) throw new Error(`price ${item.priceId} of item ${item.id} is missing`);
    const terms = priceTerms(price);
    const usageType = terms.usageType ?? 'licensed';
    assemblerItems.push({
      itemId: item.id,
      priceId: price.id,
      description: price.product.name,
      quantity: item.quantity,
      includedUnits: item.includedUnits === null ? null : Number(item.includedUnits),
      creditRollover: item.creditRollover,
      price: {
        unitAmount: terms.unitAmount,
        tiersMode: terms.tiersMode,
        tiers: terms.tiers,
        usageType,
        aggregateUsage: terms.aggregateUsage,
        includedUnits: terms.includedUnits,
      },
    });
    if (usageType === 'metered' && !isFirstInvoice && input.closingPeriod && price.meter) {
      // The closing period is one sub-period: aggregate_usage (sum, max, last) of a single
      // value is that value, so the meter's own aggregation decides (docs/subscriptions.md).
      const q = await meterQuantity(db, tenant, {
        meter: price.meter,
        customerId: sub.customerId,
        from: input.closingPeriod.start,
        to: new Date(input.closingPeriod.end.getTime() - 1),
      });
      meteredUsage[item.id] = q.quantity ?? '0';
      if (item.creditRollover && item.rolledOverUnits > 0n) rolloverIn[item.id] = Number(item.rolledOverUnits);
    }
  }

  const pendingRows = await db.invoiceItem.findMany({
    where: {
      customerId: sub.customerId,
      invoiceId: null,
      currency: sub.currency,
      ...(input.pendingScope === 'subscription' ? { subscriptionId: sub.id } : { OR: [{ subscriptionId: sub.id }, { subscriptionId: null }] }),
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const pending: PendingInvoiceItem[] = pendingRows.map((r) => ({
    id: r.id,
    description: r.description,
    amount: Number(r.amount),
    quantity: r.quantity,
    proration: r.proration,
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
  }));

  const discount = (sub.discount as unknown as Discount | null) ?? null;
  const applies = discount !== null && sub.discountStart !== null && input.discountBoundary !== null && discountApplies(discount, sub.discountStart, input.discountBoundary);

  const assembled = assembleSubscriptionInvoice({
    currency: sub.currency as Currency,
    closingPeriod: input.closingPeriod,
    openingPeriod: isFinal ? null : input.openingPeriod,
    isFirstInvoice,
    isFinal: isFinal && !isFirstInvoice,
    items: assemblerItems,
    meteredUsage: isFirstInvoice ? {} : meteredUsage,
    rolloverIn: isFirstInvoice ? {} : rolloverIn,
    pendingInvoiceItems: pending,
    discount: applies ? discount : null,
    ...(applies ? { discountApplies: true } : {}),
  });
  if (assembled.lines.length === 0) return null;

  // VAT per line (docs/vat.md): the price's rate, else the product's, else the merchant's default;
  // invoice items carry their own or the default. The discount becomes one line per rate.
  const settings = await getVatSettings(db);
  const pendingById = new Map(pendingRows.map((r) => [r.id, r]));
  const lineRate = (l: (typeof assembled.lines)[number]) => {
    if (l.priceId) {
      const p = priceById.get(l.priceId);
      return lineVatRate(settings, p?.vatRate, p?.product.vatRate);
    }
    return lineVatRate(settings, l.invoiceItemId ? pendingById.get(l.invoiceItemId)?.vatRate : null);
  };
  const vat = applyVat({
    country: settings.country,
    pricesIncludeVat: settings.pricesIncludeVat,
    discount: assembled.discount,
    lines: assembled.lines.map((l) => ({ amount: l.amount, rate: lineRate(l) })),
  });

  const invoiceId = newId('invoice');
  const invoice = await db.invoice.create({
    data: {
      id: invoiceId,
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      customerId: sub.customerId,
      subscriptionId: sub.id,
      periodKey: key,
      status: 'draft',
      billingReason: input.billingReason,
      collectionMethod: sub.collectionMethod,
      currency: sub.currency,
      subtotal: BigInt(assembled.subtotal),
      discountAmount: BigInt(assembled.discount),
      total: BigInt(vat.total),
      amountDue: BigInt(vat.total),
      amountPaid: 0n,
      vatAmount: BigInt(vat.vat),
      pricesIncludeVat: settings.pricesIncludeVat,
      vatBreakdown: vatBreakdownJson(vat.breakdown),
      periodStart: input.period.start,
      periodEnd: input.period.end,
      metadata: {},
      ...(input.issuedAt ? { createdAt: input.issuedAt } : {}),
    },
  });
  const lineRows: Prisma.InvoiceLineCreateManyInput[] = assembled.lines.map((l, i) => ({
    id: newId('invoiceLine'),
    merchantId: tenant.merchantId,
    mode: tenant.mode,
    invoiceId,
    position: i + 1,
    kind: l.kind,
    description: l.description,
    quantity: BigInt(l.quantity),
    unitAmount: l.unitAmount === null ? null : BigInt(l.unitAmount),
    amount: BigInt(l.amount),
    currency: sub.currency,
    periodStart: l.period?.start ?? null,
    periodEnd: l.period?.end ?? null,
    priceId: l.priceId,
    subscriptionItemId: l.itemId,
    invoiceItemId: l.invoiceItemId,
    proration: l.kind === 'proration',
    vatRate: vat.lines[i]!.rate,
    vatBasisPoints: vat.lines[i]!.basisPoints,
    vatAmount: BigInt(vat.lines[i]!.vat),
    ledgerAccount: revenueAccount(l.priceId ? priceById.get(l.priceId)?.accountingCode : null),
    details: (l.tierBreakdown.length > 0 || l.metered !== null
      ? JSON.parse(JSON.stringify({ tiers_mode: l.tiersMode, tiers: l.tierBreakdown, metered: l.metered }))
      : undefined) as Prisma.InputJsonValue | undefined,
  }));
  if (assembled.discount > 0) {
    const d = discount!;
    const label = d.amount_off ? `Discount (${d.amount_off} off)` : `Discount (${d.percent_off}% off)`;
    // One discount line per VAT rate it reduces (a single line when the invoice has one rate).
    for (const share of vat.discountLines) {
      lineRows.push({
        id: newId('invoiceLine'),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        invoiceId,
        position: lineRows.length + 1,
        kind: 'discount',
        description: vat.discountLines.length > 1 ? `${label}, ${share.rate} VAT` : label,
        quantity: 1n,
        unitAmount: null,
        amount: BigInt(share.amount),
        currency: sub.currency,
        periodStart: input.period.start,
        periodEnd: input.period.end,
        vatRate: share.rate,
        vatBasisPoints: share.basisPoints,
        vatAmount: BigInt(share.vat),
        details: { duration: d.duration } as Prisma.InputJsonValue,
      });
    }
  }
  await db.invoiceLine.createMany({ data: lineRows });
  if (pendingRows.length > 0) {
    await db.invoiceItem.updateMany({ where: { id: { in: pendingRows.map((r) => r.id) }, invoiceId: null }, data: { invoiceId } });
  }
  for (const item of items) {
    const out = BigInt(assembled.rolloverOut[item.id] ?? 0);
    if (!isFirstInvoice && item.rolledOverUnits !== out) {
      await db.subscriptionItem.update({ where: { id: item.id }, data: { rolledOverUnits: out } });
    }
  }
  if (assembled.creditCarriedForward > 0) {
    await db.invoiceItem.create({
      data: {
        id: newId('invoiceItem'),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId: sub.customerId,
        subscriptionId: sub.id,
        amount: BigInt(-assembled.creditCarriedForward),
        quantity: 1,
        currency: sub.currency,
        description: `Credit carried forward from invoice ${invoiceId}`,
        proration: false,
        metadata: {},
      },
    });
  }
  return { invoice, created: true };
}
