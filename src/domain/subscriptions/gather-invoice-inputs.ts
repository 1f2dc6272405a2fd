// Gather, the first part of building a subscription invoice (./build-invoice.ts): every database
// read it needs, before anything is decided — the invoice the period key already names, the items
// with their prices, products and meters, the pending invoice items in scope, the VAT settings
// (one statement), then the metered items' quantities for the closing period.
import type { Tenant, TenantDb } from '../../db/tenancy';
import {
  Prisma,
  type Invoice,
  type InvoiceItem,
  type Meter,
  type Price,
  type Product,
  type Subscription,
  type SubscriptionItem,
  type VatSettings,
} from '../../generated/prisma/client';
import { jsonRow, jsonRows } from '../../db/raw-rows';
import { meterQuantity } from '../meters/meter-quantity';
import { priceTerms } from '../prices/price-for-subscription';
import { vatSettingsOf } from '../vat/vat-settings';
import type { BuildInvoiceInput } from './build-invoice-input';

export type PriceWithProduct = Price & { product: Product; meter: Meter | null };

/** What the builder read. */
export interface GatheredInvoiceInputs {
  existing: Invoice | null;
  items: SubscriptionItem[];
  priceById: Map<string, PriceWithProduct>;
  pending: InvoiceItem[];
  vatSettings: ReturnType<typeof vatSettingsOf>;
  /** Metered items' usage of the closing period (item id → quantity, a decimal string); none on a first invoice. */
  meteredUsage: Record<string, string>;
  /** Units carried over into this invoice by items with credit rollover (item id → units). */
  rolloverIn: Record<string, number>;
}

/** The builder's reads: one statement, then one meter query per metered item (none on a first invoice or when the existing invoice is found). */
export async function gatherInvoiceInputs(db: TenantDb, tenant: Tenant, input: BuildInvoiceInput, key: string): Promise<GatheredInvoiceInputs> {
  const read = await readBuilderInputs(db, tenant, input.subscription, key, input);
  const meteredUsage: Record<string, string> = {};
  const rolloverIn: Record<string, number> = {};
  if (read.existing) return { ...read, meteredUsage, rolloverIn };
  const isFirstInvoice = input.closingPeriod === null;
  for (const item of read.items) {
    const price = read.priceById.get(item.priceId);
    if (!price) throw new Error(`price ${item.priceId} of item ${item.id} is missing`);
    const usageType = priceTerms(price).usageType ?? 'licensed';
    if (usageType === 'metered' && !isFirstInvoice && input.closingPeriod && price.meter) {
      // The closing period is one sub-period: aggregate_usage (sum, max, last) of a single
      // value is that value, so the meter's own aggregation decides (docs/subscriptions.md).
      const q = await meterQuantity(db, tenant, {
        meter: price.meter,
        customerId: input.subscription.customerId,
        from: input.closingPeriod.start,
        to: new Date(input.closingPeriod.end.getTime() - 1),
      });
      meteredUsage[item.id] = q.quantity ?? '0';
      if (item.creditRollover && item.rolledOverUnits > 0n) rolloverIn[item.id] = Number(item.rolledOverUnits);
    }
  }
  return { ...read, meteredUsage, rolloverIn };
}

type BuilderInputs = Omit<GatheredInvoiceInputs, 'meteredUsage' | 'rolloverIn'>;

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
