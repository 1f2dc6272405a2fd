// One subscription invoice for one billing cycle, assembled from plain data. Pure: no I/O, no clock,
// no imports outside src/billing (Temporal workflows import this folder). The caller loads the
// subscription, its items and prices, the meter quantities, the rollover credit and the pending
// invoice items, decides whether the discount applies (discountAppliesToPeriod), and persists the
// result. Every amount is an integer in the currency's minor unit.
//
// Which periods are billed
//   - A regular cycle invoice (at the end of period N) bills metered items in ARREARS for the
//     closing period N and licensed items in ADVANCE for the opening period N + 1.
//   - isFirstInvoice (subscription create): licensed items for the first period only; there is no
//     closing period, so no metered line at all (not even a zero line) and no usage or rollover in.
//   - isFinal (cancel at period end): metered usage of the closing period only; no licensed line.
//   - Both at once is refused: a first invoice has nothing to close and a final one nothing to open.
//   - Pending invoice items (one-off charges and the proration items created earlier by quantity or
//     price changes) go on every kind of invoice, each exactly once.
//
// Lines
//   licensed:   priceAmount(price, quantity) for the opening period: unit_amount × quantity, or the
//               graduated / volume tiers (tiers.ts). Included units are NOT applied to licensed
//               items: the API defines included_units as "units included before metered charges".
//   metered:    the closing period's usage (an exact decimal, see below) minus the allowance,
//               floored at 0 and rounded UP to whole units (a started unit is billed: 10.2 units
//               beyond the allowance bill 11), then priceAmount(price, units) through the unit
//               amount or the tiers. The subscription item's quantity is ignored for metered items.
//   invoice_item / proration: amount × quantity (amount may be negative: a proration credit).
//   Every line keeps the same shape: description, quantity, unitAmount (null for tiered prices),
//   amount, period (null for an invoice item without one), kind, and the tier breakdown (empty
//   for per-unit prices and invoice items).
//
// Included units (metered items): the item's includedUnits overrides the price's whenever it is
//   not null, so an item-level 0 overrides a price-level 1000; null on the item falls back to the
//   price; null on both means 0.
//
// Metered usage (input.meteredUsage, keyed by subscription item id): ONE plain decimal string per
//   metered item, the closing period's meter quantity ALREADY aggregated per the price's
//   aggregate_usage (sum: the total; max: the largest value; last_during_period: the last value)
//   and NOT rounded, e.g. "1000.5". A missing entry means no usage (0). A negative value (a sum of
//   negative events) counts as 0. The rounding matches src/metering's billableQuantity exactly; it
//   is re-done here because src/billing may import nothing outside its folder (purity test), and
//   the unit tests check both agree.
//
// Credit rollover (input.rolloverIn, keyed by item id, whole units; result.rolloverOut):
//   only for metered items whose creditRollover is true. The closing period's allowance is
//   included + rolloverIn. Rolled-in units are consumed FIRST and expire at the end of the period
//   they were rolled into, so at most one period's worth of included units carries forward:
//       rolloverOut = min(floor(max(0, allowance − usage)), included)
//   floor: a partly used unit counts as used (mirrors billing a started unit). rolloverIn for an
//   item whose creditRollover is (now) false, or whose price is licensed, is forfeited. rolloverOut
//   has an entry for EVERY item (0 where nothing carries), ready to be passed back as the next
//   invoice's rolloverIn; it is all zeros on the first invoice (no period was consumed yet) and on
//   the final invoice (there is no next period; unused credit expires, it is never refunded).
//
// Zero quantities: lines are KEPT, never dropped. A licensed item with quantity 0, a metered item
//   with no usage and a pending item with quantity 0 all appear (usually with amount 0), so the
//   invoice shows every item of the period and every pending item passed in is attached exactly
//   once. A volume-tiered price at quantity 0 charges its first tier's flat_amount (tiers.ts,
//   ZERO_QUANTITY_RULE); a graduated one charges nothing.
//
// Order of lines (stable): licensed lines, then metered lines, both in the order of input.items;
//   then proration items, then the other invoice items, both in the order of
//   input.pendingInvoiceItems. Callers pass items and pending items in their stored order (for
//   example created_at, then id).
//
// Totals: the discount is applied once, on the subtotal of all lines, through totals()
//   (invoice-lines.ts): subtotal = Σ lines; discount = 0 unless discountApplies; total never below
//   0; a negative subtotal (credits larger than charges) gives total 0 and creditCarriedForward.
import { Currency, isSupportedCurrency } from './currency';
import { Discount, validateDiscount } from './discounts';
import { assertNonNegativeSafeInteger, assertSafeInteger, toSafeNumber } from './integers';
import { totals } from './invoice-lines';
import { Instant, toEpochMilliseconds } from './periods';
import { PriceTier, TierBreakdownRow, TiersMode, priceAmount } from './tiers';

export type BillingUsageType = 'licensed' | 'metered';
export type BillingAggregateUsage = 'sum' | 'max' | 'last_during_period';
export type SubscriptionInvoiceLineKind = 'licensed' | 'metered' | 'invoice_item' | 'proration';

/** A half-open period [start, end) as the caller has it. */
export interface SubscriptionInvoicePeriod {
  readonly start: Instant;
  readonly end: Instant;
}

/** The pricing fields of the item's Price (exactly one of unitAmount and tiersMode: docs/catalog.md). */
export interface SubscriptionInvoicePrice {
  readonly unitAmount: number | null;
  readonly tiersMode: TiersMode | null;
  readonly tiers: readonly PriceTier[] | null;
  readonly usageType: BillingUsageType;
  /** Informational here: meteredUsage must already be aggregated this way. */
  readonly aggregateUsage: BillingAggregateUsage | null;
  /** Price-level included units (metered only); overridden by the item's includedUnits. */
  readonly includedUnits: number | null;
}

export interface SubscriptionInvoiceItem {
  readonly itemId: string;
  readonly priceId: string;
  /** Shown on the line: the product name. */
  readonly description: string;
  /** Licensed items: a non-negative integer. Ignored for metered items. */
  readonly quantity: number;
  /** Item-level included units; overrides the price's when not null. */
  readonly includedUnits: number | null;
  readonly creditRollover: boolean;
  readonly price: SubscriptionInvoicePrice;
}

/** A pending invoice item; proration items are the ones with proration: true. */
export interface PendingInvoiceItem {
  readonly id: string;
  readonly description: string;
  /** Unit amount in minor units; negative for a credit. */
  readonly amount: number;
  /** Non-negative integer. */
  readonly quantity: number;
  readonly proration: boolean;
  /** Both or neither. */
  readonly periodStart?: Instant | null;
  readonly periodEnd?: Instant | null;
}

export interface SubscriptionInvoiceInput {
  readonly currency: Currency;
  /** The period billed in arrears (metered). Required unless isFirstInvoice; ignored when it is. */
  readonly closingPeriod: SubscriptionInvoicePeriod | null;
  /** The period billed in advance (licensed). Required unless isFinal; ignored when it is. */
  readonly openingPeriod: SubscriptionInvoicePeriod | null;
  readonly isFirstInvoice: boolean;
  readonly isFinal: boolean;
  readonly items: readonly SubscriptionInvoiceItem[];
  /** Item id → closing-period usage as a plain decimal string, aggregated, not rounded. */
  readonly meteredUsage?: Readonly<Record<string, string>>;
  /** Item id → whole units rolled over from the previous period (a previous rolloverOut). */
  readonly rolloverIn?: Readonly<Record<string, number>>;
  readonly pendingInvoiceItems?: readonly PendingInvoiceItem[];
  readonly discount?: Discount | null;
  /** Required (true or false) when discount is set: discountAppliesToPeriod's answer. */
  readonly discountApplies?: boolean;
}

export interface SubscriptionInvoiceLinePeriod {
  readonly start: Date;
  readonly end: Date;
}

/** How a metered line's quantity came about. */
export interface MeteredLineDetail {
  /** The usage before the allowance, as normalised decimal text ("1000.50" → "1000.5"; negative → "0"). */
  readonly usage: string;
  /** Included units in effect (item-level, else price-level, else 0). */
  readonly includedUnits: number;
  /** Rolled-in units applied (0 unless creditRollover). */
  readonly rolloverIn: number;
  /** Units carried to the next period (also in result.rolloverOut). */
  readonly rolloverOut: number;
}

export interface SubscriptionInvoiceLine {
  readonly kind: SubscriptionInvoiceLineKind;
  readonly description: string;
  /** Subscription item id for licensed and metered lines, else null. */
  readonly itemId: string | null;
  readonly priceId: string | null;
  /** Pending invoice item id for invoice_item and proration lines, else null. */
  readonly invoiceItemId: string | null;
  /** Quantity priced: licensed quantity, whole metered units billed, or the invoice item's quantity. */
  readonly quantity: number;
  /** Per-unit amount; null for tiered prices. */
  readonly unitAmount: number | null;
  readonly amount: number;
  readonly period: SubscriptionInvoiceLinePeriod | null;
  readonly tiersMode: TiersMode | null;
  /** The tiers that priced something (graduated) or the one tier used (volume); empty otherwise. */
  readonly tierBreakdown: readonly TierBreakdownRow[];
  /** Present on metered lines only. */
  readonly metered: MeteredLineDetail | null;
}

export interface SubscriptionInvoice {
  readonly currency: Currency;
  readonly lines: readonly SubscriptionInvoiceLine[];
  readonly subtotal: number;
  readonly discount: number;
  readonly total: number;
  readonly creditCarriedForward: number;
  /** Every item id → whole units to pass as the next invoice's rolloverIn (0 where none). */
  readonly rolloverOut: Readonly<Record<string, number>>;
}

// ---- exact decimal usage (same semantics as src/metering's billableQuantity) ----

interface ExactDecimal {
  /** value = coefficient / 10^scale */
  readonly coefficient: bigint;
  readonly scale: number;
}

const PLAIN_DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

function parseUsage(text: unknown, itemId: string): ExactDecimal {
  const match = typeof text === 'string' ? PLAIN_DECIMAL.exec(text) : null;
  if (match === null) {
    throw new RangeError(`item ${itemId}: metered usage must be a plain decimal string such as "12.5", got ${JSON.stringify(text)}`);
  }
  const fraction = match[3] ?? '';
  const magnitude = BigInt(match[2] + fraction);
  return { coefficient: match[1] === '-' ? -magnitude : magnitude, scale: fraction.length };
}

function decimalText(d: ExactDecimal): string {
  if (d.coefficient <= 0n) return '0';
  const digits = d.coefficient.toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** Units beyond the allowance, rounded up, and whole units of the allowance left, rounded down. */
function splitUsage(usage: ExactDecimal, allowance: number, itemId: string): { billable: number; unused: number } {
  const unit = 10n ** BigInt(usage.scale);
  const used = usage.coefficient < 0n ? 0n : usage.coefficient; // negative usage counts as 0
  const allowanceScaled = BigInt(allowance) * unit;
  const beyond = used - allowanceScaled;
  const left = allowanceScaled - used;
  // ceil for the billed units, floor for the unused ones (both on non-negative values)
  const billable = beyond <= 0n ? 0n : (beyond + unit - 1n) / unit;
  const unused = left <= 0n ? 0n : left / unit;
  return {
    billable: toSafeNumber(billable, `item ${itemId}: billable metered units`),
    unused: toSafeNumber(unused, `item ${itemId}: unused included units`),
  };
}

// ---- validation helpers ----

function linePeriod(period: SubscriptionInvoicePeriod | null, name: string): SubscriptionInvoiceLinePeriod {
  if (period === null || period === undefined) throw new RangeError(`${name} is required for this invoice`);
  const start = toEpochMilliseconds(period.start, `${name}.start`);
  const end = toEpochMilliseconds(period.end, `${name}.end`);
  if (end <= start) throw new RangeError(`${name} must end after it starts`);
  return { start: new Date(start), end: new Date(end) };
}

function ownEntries<T>(record: Readonly<Record<string, T>> | undefined, name: string): Array<[string, T]> {
  if (record === undefined || record === null) return [];
  if (typeof record !== 'object' || Array.isArray(record)) throw new TypeError(`${name} must be an object keyed by item id`);
  return Object.keys(record).map((key) => [key, record[key]]);
}

function lookup<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && record !== null && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function checkPrice(item: SubscriptionInvoiceItem): void {
  const price = item.price;
  const label = `item ${item.itemId} (price ${item.priceId})`;
  if (price.usageType !== 'licensed' && price.usageType !== 'metered') {
    throw new RangeError(`${label}: usageType must be licensed or metered, got ${String(price.usageType)}`);
  }
  const tiered = price.tiersMode !== null && price.tiersMode !== undefined;
  const perUnit = price.unitAmount !== null && price.unitAmount !== undefined;
  if (tiered === perUnit) throw new RangeError(`${label}: a price has exactly one of unitAmount and tiersMode`);
  const aggregate = price.aggregateUsage;
  if (aggregate !== null && aggregate !== undefined && aggregate !== 'sum' && aggregate !== 'max' && aggregate !== 'last_during_period') {
    throw new RangeError(`${label}: unknown aggregateUsage ${String(aggregate)}`);
  }
  for (const [name, value] of [
    ['item includedUnits', item.includedUnits],
    ['price includedUnits', price.includedUnits],
  ] as const) {
    if (value !== null && value !== undefined) assertNonNegativeSafeInteger(value, `${label}: ${name}`);
  }
}

function pricedLine(
  item: SubscriptionInvoiceItem,
  kind: 'licensed' | 'metered',
  quantity: number,
  period: SubscriptionInvoiceLinePeriod,
  metered: MeteredLineDetail | null,
): SubscriptionInvoiceLine {
  const priced = priceAmount({ unit_amount: item.price.unitAmount, tiers_mode: item.price.tiersMode, tiers: item.price.tiers }, quantity, 0);
  return {
    kind,
    description: item.description,
    itemId: item.itemId,
    priceId: item.priceId,
    invoiceItemId: null,
    quantity,
    unitAmount: priced.tiers_mode === null ? item.price.unitAmount : null,
    amount: priced.amount,
    period: { start: period.start, end: period.end },
    tiersMode: priced.tiers_mode,
    tierBreakdown: priced.breakdown,
    metered,
  };
}

function pendingLine(pending: PendingInvoiceItem): SubscriptionInvoiceLine {
  const label = `invoice item ${pending.id}`;
  assertSafeInteger(pending.amount, `${label}: amount`);
  assertNonNegativeSafeInteger(pending.quantity, `${label}: quantity`);
  const hasStart = pending.periodStart !== undefined && pending.periodStart !== null;
  const hasEnd = pending.periodEnd !== undefined && pending.periodEnd !== null;
  if (hasStart !== hasEnd) throw new RangeError(`${label}: periodStart and periodEnd come together`);
  let period: SubscriptionInvoiceLinePeriod | null = null;
  if (hasStart) {
    const start = toEpochMilliseconds(pending.periodStart as Instant, `${label}: periodStart`);
    const end = toEpochMilliseconds(pending.periodEnd as Instant, `${label}: periodEnd`);
    if (end < start) throw new RangeError(`${label}: periodEnd is before periodStart`);
    period = { start: new Date(start), end: new Date(end) };
  }
  return {
    kind: pending.proration ? 'proration' : 'invoice_item',
    description: pending.description,
    itemId: null,
    priceId: null,
    invoiceItemId: pending.id,
    quantity: pending.quantity,
    unitAmount: pending.amount,
    // 0 + x turns a -0 into 0
    amount: 0 + toSafeNumber(BigInt(pending.amount) * BigInt(pending.quantity), `${label}: amount × quantity`),
    period,
    tiersMode: null,
    tierBreakdown: [],
    metered: null,
  };
}

/** Assembles the invoice of one billing cycle; see the rules at the top of this file. */
export function assembleSubscriptionInvoice(input: SubscriptionInvoiceInput): SubscriptionInvoice {
  if (!isSupportedCurrency(input.currency)) throw new RangeError(`unsupported currency: ${String(input.currency)}`);
  if (typeof input.isFirstInvoice !== 'boolean' || typeof input.isFinal !== 'boolean') {
    throw new TypeError('isFirstInvoice and isFinal must be booleans');
  }
  if (input.isFirstInvoice && input.isFinal) {
    throw new RangeError('an invoice cannot be both the first and the final one');
  }
  const billsMetered = !input.isFirstInvoice;
  const billsLicensed = !input.isFinal;
  const closing = billsMetered ? linePeriod(input.closingPeriod, 'closingPeriod') : null;
  const opening = billsLicensed ? linePeriod(input.openingPeriod, 'openingPeriod') : null;
  if (closing !== null && opening !== null && opening.start.getTime() < closing.end.getTime()) {
    throw new RangeError('openingPeriod must not start before closingPeriod ends');
  }

  // items: unique ids, valid prices
  const byId = new Map<string, SubscriptionInvoiceItem>();
  for (const item of input.items) {
    if (byId.has(item.itemId)) throw new RangeError(`duplicate subscription item ${item.itemId}`);
    byId.set(item.itemId, item);
    checkPrice(item);
    if (typeof item.creditRollover !== 'boolean') throw new TypeError(`item ${item.itemId}: creditRollover must be a boolean`);
    if (item.price.usageType === 'licensed') assertNonNegativeSafeInteger(item.quantity, `item ${item.itemId}: quantity`);
  }

  // usage and rollover maps: only known items; usage only for metered ones; nothing on a first invoice
  const usageEntries = ownEntries(input.meteredUsage, 'meteredUsage');
  const rolloverEntries = ownEntries(input.rolloverIn, 'rolloverIn');
  for (const [itemId] of usageEntries) {
    const item = byId.get(itemId);
    if (item === undefined) throw new RangeError(`meteredUsage for unknown item ${itemId}`);
    if (item.price.usageType !== 'metered') throw new RangeError(`meteredUsage for licensed item ${itemId}`);
  }
  for (const [itemId, units] of rolloverEntries) {
    if (!byId.has(itemId)) throw new RangeError(`rolloverIn for unknown item ${itemId}`);
    assertNonNegativeSafeInteger(units, `rolloverIn for item ${itemId}`);
  }
  if (input.isFirstInvoice && (usageEntries.length > 0 || rolloverEntries.some(([, units]) => units > 0))) {
    throw new RangeError('a first invoice has no closing period: meteredUsage and rolloverIn must be empty');
  }

  const licensedLines: SubscriptionInvoiceLine[] = [];
  const meteredLines: SubscriptionInvoiceLine[] = [];
  const rolloverOut: Array<[string, number]> = [];

  for (const item of input.items) {
    let carried = 0;
    if (item.price.usageType === 'licensed') {
      if (opening !== null) licensedLines.push(pricedLine(item, 'licensed', item.quantity, opening, null));
    } else if (closing !== null) {
      const usage = parseUsage(lookup(input.meteredUsage, item.itemId) ?? '0', item.itemId);
      const included = item.includedUnits ?? item.price.includedUnits ?? 0;
      const rolledIn = item.creditRollover ? (lookup(input.rolloverIn, item.itemId) ?? 0) : 0;
      const allowance = toSafeNumber(BigInt(included) + BigInt(rolledIn), `item ${item.itemId}: allowance`);
      const { billable, unused } = splitUsage(usage, allowance, item.itemId);
      carried = item.creditRollover && !input.isFinal ? Math.min(unused, included) : 0;
      meteredLines.push(
        pricedLine(item, 'metered', billable, closing, {
          usage: decimalText(usage),
          includedUnits: included,
          rolloverIn: rolledIn,
          rolloverOut: carried,
        }),
      );
    }
    rolloverOut.push([item.itemId, carried]);
  }

  const pending = input.pendingInvoiceItems ?? [];
  const seenPending = new Set<string>();
  for (const p of pending) {
    if (seenPending.has(p.id)) throw new RangeError(`duplicate invoice item ${p.id}`);
    seenPending.add(p.id);
  }
  const pendingLines = pending.map(pendingLine);
  const lines = [...licensedLines, ...meteredLines, ...pendingLines.filter((line) => line.kind === 'proration'), ...pendingLines.filter((line) => line.kind === 'invoice_item')];

  const discount = input.discount ?? null;
  if (discount !== null) {
    if (typeof input.discountApplies !== 'boolean') {
      throw new TypeError('discountApplies (true or false) is required when a discount is given');
    }
    const problems = validateDiscount(discount);
    if (problems.length > 0) throw new RangeError(`invalid discount: ${problems.join('; ')}`);
  }
  const sums = totals(lines, discount !== null && input.discountApplies === true ? discount : null);

  return {
    currency: input.currency,
    lines,
    subtotal: sums.subtotal,
    discount: sums.discount,
    total: sums.total,
    creditCarriedForward: sums.credit_carried_forward,
    rolloverOut: Object.fromEntries(rolloverOut),
  };
}
