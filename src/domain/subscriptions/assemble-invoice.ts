// Assemble, the pure middle part of building a subscription invoice (./build-invoice.ts): from
// what was gathered (./gather-invoice-inputs.ts) to the invoice's amounts and lines, VAT per line
// and the discount's lines per rate, the credit carried forward and the rollover units left. No
// database, no clock, no ids: ./persist-invoice.ts gives the rows their ids and times.
// Unit-tested in test/unit/subscriptions/assemble-invoice.test.ts.
import type { Prisma } from '../../generated/prisma/client';
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
import { priceTerms } from '../prices/price-for-subscription';
import { lineVatRate } from '../vat/vat-settings';
import { revenueAccount } from '../ledger/post-ledger';
import type { BuildInvoiceInput } from './build-invoice-input';
import type { GatheredInvoiceInputs } from './gather-invoice-inputs';

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

/** An invoice line as the builder writes it, before it has an id (the invoice's tenant, id, currency and position are added when it is written). */
export interface LineDraft {
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

/** The invoice as assembled: what ./persist-invoice.ts writes. */
export interface InvoiceDraft {
  subtotal: bigint;
  discount: bigint;
  /** Total and amount due (VAT included). */
  total: bigint;
  vat: bigint;
  pricesIncludeVat: boolean;
  vatBreakdown: ReturnType<typeof applyVat>['breakdown'];
  /** In position order: the assembled lines, then the discount's lines (one per VAT rate). */
  lines: LineDraft[];
  /** The credit carried forward, one invoice item per VAT rate it came from (docs/vat.md). */
  carried: ReturnType<typeof carriedBalanceByRate>;
  /** Items whose rolled-over units change (item id → the new units); none on a first invoice. */
  rolloverOut: Map<string, bigint>;
}

type Assembled = ReturnType<typeof assembleSubscriptionInvoice>;

/** Null when the invoice would have no line at all (nothing to bill). */
export function assembleInvoiceDraft(input: BuildInvoiceInput, gathered: GatheredInvoiceInputs): InvoiceDraft | null {
  const sub = input.subscription;
  const isFirstInvoice = input.closingPeriod === null;
  const isFinal = input.openingPeriod === null;
  const discount = (sub.discount as unknown as Discount | null) ?? null;
  const applies = discount !== null && sub.discountStart !== null && input.discountBoundary !== null && discountApplies(discount, sub.discountStart, input.discountBoundary);
  const assembled = assembleSubscriptionInvoice({
    currency: sub.currency as Currency,
    closingPeriod: input.closingPeriod,
    openingPeriod: isFinal ? null : input.openingPeriod,
    isFirstInvoice,
    isFinal: isFinal && !isFirstInvoice,
    items: assemblerItems(gathered),
    meteredUsage: isFirstInvoice ? {} : gathered.meteredUsage,
    rolloverIn: isFirstInvoice ? {} : gathered.rolloverIn,
    pendingInvoiceItems: pendingItems(gathered),
    discount: applies ? discount : null,
    ...(applies ? { discountApplies: true } : {}),
  });
  if (assembled.lines.length === 0) return null;
  const vat = vatOf(gathered, assembled);
  const lines = assembled.lines.map((l, i) => lineDraft(gathered, l, vat.lines[i]!));
  if (assembled.discount > 0) lines.push(...discountLines(discount!, vat.discountLines, input.period));
  const rolloverOut = new Map<string, bigint>();
  for (const item of gathered.items) {
    const out = BigInt(assembled.rolloverOut[item.id] ?? 0);
    if (!isFirstInvoice && item.rolledOverUnits !== out) rolloverOut.set(item.id, out);
  }
  return {
    subtotal: BigInt(assembled.subtotal),
    discount: BigInt(assembled.discount),
    total: BigInt(vat.total),
    vat: BigInt(vat.vat),
    pricesIncludeVat: gathered.vatSettings.pricesIncludeVat,
    vatBreakdown: vat.breakdown,
    lines,
    // The credit carried forward keeps the VAT rates it came from: one item per rate (docs/vat.md).
    carried: carriedBalanceByRate(
      assembled.creditCarriedForward,
      assembled.lines.map((l, i) => ({ amount: l.amount, rate: vat.lines[i]!.rate })),
    ),
    rolloverOut,
  };
}

/** The subscription's items as the pure assembler (src/billing) takes them. */
function assemblerItems(gathered: GatheredInvoiceInputs): SubscriptionInvoiceItem[] {
  return gathered.items.map((item) => {
    const price = gathered.priceById.get(item.priceId);
    if (!price) throw new Error(`price ${item.priceId} of item ${item.id} is missing`);
    const terms = priceTerms(price);
    return {
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
        usageType: terms.usageType ?? 'licensed',
        aggregateUsage: terms.aggregateUsage,
        includedUnits: terms.includedUnits,
      },
    };
  });
}

function pendingItems(gathered: GatheredInvoiceInputs): PendingInvoiceItem[] {
  return gathered.pending.map((r) => ({
    id: r.id,
    description: r.description,
    amount: Number(r.amount),
    quantity: r.quantity,
    proration: r.proration,
    periodStart: r.periodStart,
    periodEnd: r.periodEnd,
  }));
}

/**
 * VAT per line (docs/vat.md): the price's rate, else the product's, else the merchant's default;
 * invoice items carry their own or the default. The discount becomes one line per rate.
 */
function vatOf(gathered: GatheredInvoiceInputs, assembled: Assembled): ReturnType<typeof applyVat> {
  const settings = gathered.vatSettings;
  const pendingById = new Map(gathered.pending.map((r) => [r.id, r]));
  const lineRate = (l: Assembled['lines'][number]) => {
    if (l.priceId) {
      const p = gathered.priceById.get(l.priceId);
      return lineVatRate(settings, p?.vatRate, p?.product.vatRate);
    }
    return lineVatRate(settings, l.invoiceItemId ? pendingById.get(l.invoiceItemId)?.vatRate : null);
  };
  return applyVat({
    country: settings.country,
    pricesIncludeVat: settings.pricesIncludeVat,
    discount: assembled.discount,
    lines: assembled.lines.map((l) => ({ amount: l.amount, rate: lineRate(l) })),
  });
}

function lineDraft(gathered: GatheredInvoiceInputs, l: Assembled['lines'][number], vat: ReturnType<typeof applyVat>['lines'][number]): LineDraft {
  return {
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
    vatRate: vat.rate,
    vatBasisPoints: vat.basisPoints,
    vatAmount: BigInt(vat.vat),
    ledgerAccount: revenueAccount(l.priceId ? gathered.priceById.get(l.priceId)?.accountingCode : null),
    details: l.tierBreakdown.length > 0 || l.metered !== null ? JSON.parse(JSON.stringify({ tiers_mode: l.tiersMode, tiers: l.tierBreakdown, metered: l.metered })) : null,
  };
}

/** One discount line per VAT rate it reduces (a single line when the invoice has one rate). */
function discountLines(d: Discount, shares: ReturnType<typeof applyVat>['discountLines'], period: BuildInvoiceInput['period']): LineDraft[] {
  const label = d.amount_off ? `Discount (${d.amount_off} off)` : `Discount (${d.percent_off}% off)`;
  return shares.map((share) => ({
    kind: 'discount',
    description: shares.length > 1 ? `${label}, ${share.rate} VAT` : label,
    quantity: 1n,
    unitAmount: null,
    amount: BigInt(share.amount),
    periodStart: period.start,
    periodEnd: period.end,
    priceId: null,
    subscriptionItemId: null,
    invoiceItemId: null,
    proration: false,
    vatRate: share.rate,
    vatBasisPoints: share.basisPoints,
    vatAmount: BigInt(share.vat),
    ledgerAccount: null,
    details: { duration: d.duration },
  }));
}
