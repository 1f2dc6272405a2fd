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
import {
  Prisma,
  type Invoice,
  type InvoiceItem,
  type InvoiceLine,
  type Meter,
  type Price,
  type Product,
  type Subscription,
  type SubscriptionItem,
  type VatSettings,
} from '../../generated/prisma/client';
import { camelRow, jsonRow, jsonRows } from '../../db/raw-rows';
import { newId } from '../../ids';
import {
  applyVat,
  assembleSubscriptionInvoice,
  carriedBalanceByRate,
  repeatingDiscountEndsAt,
  type Currency,
  type Discount,
  type PendingInvoiceItem,
  type SubscriptionInvoiceItem,
} from '../../billing';
import { meterQuantity } from '../meters/meter-quantity';
import { priceTerms } from '../prices/price-for-subscription';
import { lineVatRate, vatSettingsOf } from '../vat/vat-settings';
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
  /** The lines this call wrote, in position order (only when it created the invoice). */
  lines?: InvoiceLine[];
}

/** Null when the invoice would have no line at all (nothing to bill): no invoice is made. */
export async function buildSubscriptionInvoice(db: TenantDb, tenant: Tenant, input: BuildInvoiceInput): Promise<BuiltInvoice | null> {
  const sub = input.subscription;
  const key = periodKey(sub.id, input.keyPart, input.billingReason);
  const read = await readBuilderInputs(db, tenant, sub, key, input);
  if (read.existing) return { invoice: read.existing, created: false };

  const isFirstInvoice = input.closingPeriod === null;
  const isFinal = input.openingPeriod === null;
  const { items, priceById } = read;
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

  const pendingRows = read.pending;
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
  const settings = read.vatSettings;
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
  const wall = new Date();
  const lineRows: LineRow[] = assembled.lines.map((l, i) => ({
    id: newId('invoiceLine'),
    kind: l.kind,
    description: l.description,
    quantity: BigInt(l.quantity),
    unitAmount: l.unitAmount === null ? null : BigInt(l.unitAmount),
    amount: BigInt(l.amount),
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
    details: l.tierBreakdown.length > 0 || l.metered !== null ? JSON.parse(JSON.stringify({ tiers_mode: l.tiersMode, tiers: l.tierBreakdown, metered: l.metered })) : null,
  }));
  if (assembled.discount > 0) {
    const d = discount!;
    const label = d.amount_off ? `Discount (${d.amount_off} off)` : `Discount (${d.percent_off}% off)`;
    // One discount line per VAT rate it reduces (a single line when the invoice has one rate).
    for (const share of vat.discountLines) {
      lineRows.push({
        id: newId('invoiceLine'),
        kind: 'discount',
        description: vat.discountLines.length > 1 ? `${label}, ${share.rate} VAT` : label,
        quantity: 1n,
        unitAmount: null,
        amount: BigInt(share.amount),
        periodStart: input.period.start,
        periodEnd: input.period.end,
        priceId: null,
        subscriptionItemId: null,
        invoiceItemId: null,
        proration: false,
        vatRate: share.rate,
        vatBasisPoints: share.basisPoints,
        vatAmount: BigInt(share.vat),
        ledgerAccount: null,
        details: { duration: d.duration },
      });
    }
  }
  // The invoice and its lines in one statement (the lines' key to the invoice is checked at its end).
  const lineValues = lineRows.map(
    (l, i) => Prisma.sql`(${l.id}, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${invoiceId}, ${i + 1}::int, ${l.kind}, ${l.description}, ${l.quantity}::bigint,
      ${l.unitAmount}::bigint, ${l.amount}::bigint, ${sub.currency}, ${l.periodStart}::timestamptz, ${l.periodEnd}::timestamptz, ${l.priceId}::text,
      ${l.subscriptionItemId}::text, ${l.invoiceItemId}::text, ${l.proration}::boolean, ${l.vatRate}::text, ${l.vatBasisPoints}::int, ${l.vatAmount}::bigint,
      ${l.ledgerAccount}::text, ${l.details === null ? null : JSON.stringify(l.details)}::jsonb, ${wall}::timestamptz)`,
  );
  const rows = await db.$queryRaw<Array<Record<string, unknown>>>`
    WITH inv AS (
      INSERT INTO invoices (id, merchant_id, mode, customer_id, subscription_id, period_key, status, billing_reason, collection_method, currency,
                            subtotal, discount_amount, total, amount_due, amount_paid, vat_amount, prices_include_vat, vat_breakdown,
                            period_start, period_end, metadata, created_at, updated_at)
      VALUES (${invoiceId}, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${sub.customerId}, ${sub.id}, ${key}, 'draft', ${input.billingReason}, ${sub.collectionMethod}::text,
              ${sub.currency}, ${BigInt(assembled.subtotal)}::bigint, ${BigInt(assembled.discount)}::bigint, ${BigInt(vat.total)}::bigint, ${BigInt(vat.total)}::bigint, 0,
              ${BigInt(vat.vat)}::bigint, ${settings.pricesIncludeVat}::boolean, ${JSON.stringify(vatBreakdownJson(vat.breakdown))}::jsonb,
              ${input.period.start}::timestamptz, ${input.period.end}::timestamptz, '{}'::jsonb, ${input.issuedAt ?? wall}::timestamptz, ${wall}::timestamptz)
      RETURNING *
    ), lines AS (
      INSERT INTO invoice_lines (id, merchant_id, mode, invoice_id, position, kind, description, quantity, unit_amount, amount, currency, period_start, period_end,
                                 price_id, subscription_item_id, invoice_item_id, proration, vat_rate, vat_basis_points, vat_amount, ledger_account, details, created_at)
      VALUES ${Prisma.join(lineValues)}
      RETURNING *
    )
    SELECT inv.*, (SELECT json_agg(to_jsonb(l) ORDER BY l.position) FROM lines l) AS built_lines FROM inv`;
  const { built_lines: builtLines, ...invoiceRow } = rows[0]!;
  const invoice = camelRow<Invoice>(invoiceRow);
  const lines = jsonRows<InvoiceLine>('InvoiceLine', builtLines as Array<Record<string, unknown>> | null);
  if (pendingRows.length > 0) {
    await db.invoiceItem.updateMany({ where: { id: { in: pendingRows.map((r) => r.id) }, invoiceId: null }, data: { invoiceId } });
  }
  for (const item of items) {
    const out = BigInt(assembled.rolloverOut[item.id] ?? 0);
    if (!isFirstInvoice && item.rolledOverUnits !== out) {
      await db.subscriptionItem.update({ where: { id: item.id }, data: { rolledOverUnits: out } });
    }
  }
  // The credit carried forward keeps the VAT rates it came from: one item per rate (docs/vat.md).
  const carried = carriedBalanceByRate(
    assembled.creditCarriedForward,
    assembled.lines.map((l, i) => ({ amount: l.amount, rate: vat.lines[i]!.rate })),
  );
  for (const share of carried) {
    await db.invoiceItem.create({
      data: {
        id: newId('invoiceItem'),
        merchantId: tenant.merchantId,
        mode: tenant.mode,
        customerId: sub.customerId,
        subscriptionId: sub.id,
        amount: BigInt(share.amount),
        quantity: 1,
        currency: sub.currency,
        description: carried.length > 1 ? `Balance carried forward from invoice ${invoiceId}, ${share.rate} VAT` : `Credit carried forward from invoice ${invoiceId}`,
        proration: false,
        vatRate: share.rate,
        metadata: {},
        ...(input.issuedAt ? { createdAt: input.issuedAt } : {}),
      },
    });
  }
  return { invoice, created: true, lines };
}

/** An invoice line as the builder writes it (the invoice's tenant, id, currency and position are added when it is written). */
interface LineRow {
  id: string;
  kind: string;
  description: string;
  quantity: bigint;
  unitAmount: bigint | null;
  amount: bigint;
  periodStart: Date | null;
  periodEnd: Date | null;
  priceId: string | null;
  subscriptionItemId: string | null;
  invoiceItemId: string | null;
  proration: boolean;
  vatRate: string | null;
  vatBasisPoints: number;
  vatAmount: bigint;
  ledgerAccount: string | null;
  details: Prisma.InputJsonValue | null;
}

type PriceWithProduct = Price & { product: Product; meter: Meter | null };

interface BuilderInputs {
  existing: Invoice | null;
  items: SubscriptionItem[];
  priceById: Map<string, PriceWithProduct>;
  pending: InvoiceItem[];
  vatSettings: ReturnType<typeof vatSettingsOf>;
}

/**
 * Everything the builder reads, in one statement (it runs on every renewal): the invoice the
 * period key already names, the subscription's items with their prices, products and meters
 * (none for an item change's invoice, which bills only pending items), the pending invoice items
 * in scope, and the VAT settings. Raw SQL: every table filtered by merchant and mode explicitly
 * (src/db/tenancy.ts); rows come back as JSON and are typed by src/db/raw-rows.ts.
 */
async function readBuilderInputs(db: TenantDb, tenant: Tenant, sub: Subscription, key: string, input: BuildInvoiceInput): Promise<BuilderInputs> {
  const m = tenant.merchantId;
  const mode = Prisma.sql`${tenant.mode}::"Mode"`;
  const items =
    input.billingReason === 'subscription_update'
      ? Prisma.sql`NULL::json`
      : Prisma.sql`(SELECT json_agg(json_build_object('item', to_jsonb(si), 'price', to_jsonb(p), 'product', to_jsonb(pr), 'meter', to_jsonb(me)) ORDER BY si.created_at, si.id)
          FROM subscription_items si
          LEFT JOIN prices p ON p.merchant_id = si.merchant_id AND p.mode = si.mode AND p.id = si.price_id
          LEFT JOIN products pr ON pr.merchant_id = p.merchant_id AND pr.mode = p.mode AND pr.id = p.product_id
          LEFT JOIN meters me ON me.merchant_id = p.merchant_id AND me.mode = p.mode AND me.id = p.meter_id
          WHERE si.merchant_id = ${m} AND si.mode = ${mode} AND si.subscription_id = ${sub.id} AND si.deleted_at IS NULL)`;
  const scope = input.pendingScope === 'subscription' ? Prisma.sql`ii.subscription_id = ${sub.id}` : Prisma.sql`(ii.subscription_id = ${sub.id} OR ii.subscription_id IS NULL)`;
  const rows = await db.$queryRaw<
    Array<{
      existing: Record<string, unknown> | null;
      items: Array<{ item: Record<string, unknown>; price: Record<string, unknown> | null; product: Record<string, unknown> | null; meter: Record<string, unknown> | null }> | null;
      pending: Array<Record<string, unknown>> | null;
      vat: Record<string, unknown> | null;
    }>
  >`SELECT
      (SELECT to_jsonb(i) FROM invoices i WHERE i.merchant_id = ${m} AND i.mode = ${mode} AND i.period_key = ${key}) AS existing,
      ${items} AS items,
      (SELECT json_agg(to_jsonb(ii) ORDER BY ii.created_at, ii.id) FROM invoice_items ii
        WHERE ii.merchant_id = ${m} AND ii.mode = ${mode} AND ii.customer_id = ${sub.customerId} AND ii.invoice_id IS NULL AND ii.currency = ${sub.currency} AND ${scope}) AS pending,
      (SELECT to_jsonb(v) FROM vat_settings v WHERE v.merchant_id = ${m} AND v.mode = ${mode}) AS vat`;
  const row = rows[0]!;
  const priceById = new Map<string, PriceWithProduct>();
  const itemRows: SubscriptionItem[] = [];
  for (const r of row.items ?? []) {
    const item = jsonRow<SubscriptionItem>('SubscriptionItem', r.item);
    if (!r.price || !r.product) throw new Error(`price ${item.priceId} of item ${item.id} is missing`);
    itemRows.push(item);
    const price = jsonRow<Price>('Price', r.price);
    priceById.set(price.id, { ...price, product: jsonRow<Product>('Product', r.product), meter: r.meter ? jsonRow<Meter>('Meter', r.meter) : null });
  }
  return {
    existing: row.existing ? jsonRow<Invoice>('Invoice', row.existing) : null,
    items: itemRows,
    priceById,
    pending: jsonRows<InvoiceItem>('InvoiceItem', row.pending),
    vatSettings: vatSettingsOf(row.vat ? jsonRow<VatSettings>('VatSettings', row.vat) : null),
  };
}
