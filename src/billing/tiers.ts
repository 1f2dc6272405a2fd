// Price amounts: unit_amount × quantity, and graduated or volume tiers.
//
// Tiers: `up_to` is the inclusive upper bound; tiers ascend strictly; only the last tier is open
// (`up_to: null`). A tier's lower bound is the previous tier's up_to + 1, the first tier's is 1
// for units and 0 for the volume lookup (see quantity 0 below).
//   graduated: each tier prices the units inside its range, plus its flat_amount once if at least
//              one unit falls in the tier.
//   volume:    the single tier containing the total quantity prices all units, plus its flat_amount.
//
// Quantity 0 (decision, documented in ZERO_QUANTITY_RULE and returned with every 0 result):
//   graduated → 0, no tier is touched, no flat_amount is charged (no unit falls in any tier).
//   volume    → the first tier "contains" 0, so its flat_amount is charged (0 × unit_amount + flat).
// Both follow from the definitions above. Stripe's docs, as far as we could check, do not spell
// out the zero case, and billing engines differ here (Lago, for one, charges the first tier's
// flat fee at zero in both modes). A merchant who wants "nothing at zero" in volume mode leaves
// the first tier without a flat_amount; one who wants a base fee uses a separate licensed price.
//
// Quantities are non-negative integers. All products are exact (BigInt) and must fit a safe integer.
import { assertNonNegativeSafeInteger, toSafeNumber } from './integers';

export type TiersMode = 'graduated' | 'volume';

export interface PriceTier {
  /** Inclusive upper bound of the tier; null for the last, open tier. */
  readonly up_to: number | null;
  readonly unit_amount?: number | null;
  readonly flat_amount?: number | null;
}

export interface TierBreakdownRow {
  /** 0-based position of the tier in the price's tier list. */
  readonly tier_index: number;
  readonly up_to: number | null;
  /** Units priced by this tier. */
  readonly quantity: number;
  readonly unit_amount: number;
  readonly flat_amount: number;
  /** quantity × unit_amount + flat_amount. */
  readonly amount: number;
}

export const ZERO_QUANTITY_RULE: Readonly<Record<TiersMode, string>> = {
  graduated: 'graduated, quantity 0: no unit falls in any tier, so nothing is charged (no flat_amount either)',
  volume: 'volume, quantity 0: the first tier contains quantity 0, so its flat_amount is charged',
};

export interface TieredAmount {
  readonly tiers_mode: TiersMode;
  readonly quantity: number;
  readonly amount: number;
  /** Only the tiers that priced something (graduated) or the one chosen tier (volume). */
  readonly breakdown: readonly TierBreakdownRow[];
  /** Present only when quantity is 0: which rule produced the amount. */
  readonly zero_quantity_rule?: string;
}

function isNonNegativeSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Problems with a tier list, in human-readable sentences; an empty list means valid.
 * Tiers are numbered from 1 in the messages.
 */
export function validateTiers(tiers: readonly PriceTier[]): string[] {
  const problems: string[] = [];
  if (!Array.isArray(tiers) || tiers.length === 0) return ['tiers must contain at least one tier'];
  let previousUpTo: number | null = null;
  tiers.forEach((tier, i) => {
    const label = `tier ${i + 1}`;
    const isLast = i === tiers.length - 1;
    if (tier.up_to === null) {
      if (!isLast) problems.push(`${label}: only the last tier may have up_to null (open tier)`);
    } else if (!isNonNegativeSafeInteger(tier.up_to) || tier.up_to < 1) {
      problems.push(`${label}: up_to must be a positive integer or null, got ${String(tier.up_to)}`);
    } else {
      if (previousUpTo !== null && tier.up_to <= previousUpTo) {
        problems.push(`${label}: up_to ${tier.up_to} must be greater than the previous tier's up_to ${previousUpTo}`);
      }
      previousUpTo = tier.up_to;
    }
    for (const field of ['unit_amount', 'flat_amount'] as const) {
      const value = tier[field];
      if (value !== undefined && value !== null && !isNonNegativeSafeInteger(value)) {
        problems.push(`${label}: ${field} must be a non-negative integer, got ${String(value)}`);
      }
    }
    if ((tier.unit_amount ?? null) === null && (tier.flat_amount ?? null) === null) {
      problems.push(`${label}: needs a unit_amount or a flat_amount`);
    }
  });
  if (tiers[tiers.length - 1].up_to !== null) {
    problems.push('the last tier must be open (up_to null) so that every quantity has a tier');
  }
  return problems;
}

function assertValidTiers(tiers: readonly PriceTier[]): void {
  const problems = validateTiers(tiers);
  if (problems.length > 0) throw new RangeError(`invalid tiers: ${problems.join('; ')}`);
}

function breakdownRow(tiers: readonly PriceTier[], index: number, quantity: number): TierBreakdownRow {
  const tier = tiers[index];
  const unitAmount = tier.unit_amount ?? 0;
  const flatAmount = tier.flat_amount ?? 0;
  return {
    tier_index: index,
    up_to: tier.up_to,
    quantity,
    unit_amount: unitAmount,
    flat_amount: flatAmount,
    amount: toSafeNumber(BigInt(quantity) * BigInt(unitAmount) + BigInt(flatAmount), `tier ${index + 1} amount`),
  };
}

function sumRows(rows: readonly TierBreakdownRow[]): number {
  return toSafeNumber(
    rows.reduce((sum, row) => sum + BigInt(row.amount), 0n),
    'tiered amount',
  );
}

/** Graduated tiers: each tier prices the units inside its range, plus its flat_amount if used. */
export function graduatedAmount(tiers: readonly PriceTier[], quantity: number): TieredAmount {
  assertValidTiers(tiers);
  assertNonNegativeSafeInteger(quantity, 'quantity');
  const rows: TierBreakdownRow[] = [];
  let covered = 0;
  for (let i = 0; i < tiers.length && covered < quantity; i += 1) {
    const upper = tiers[i].up_to ?? quantity;
    const inTier = Math.min(quantity, upper) - covered;
    if (inTier > 0) rows.push(breakdownRow(tiers, i, inTier));
    covered = Math.min(quantity, upper);
  }
  return {
    tiers_mode: 'graduated',
    quantity,
    amount: sumRows(rows),
    breakdown: rows,
    ...(quantity === 0 ? { zero_quantity_rule: ZERO_QUANTITY_RULE.graduated } : {}),
  };
}

/** Volume tiers: the tier containing the whole quantity prices every unit, plus its flat_amount. */
export function volumeAmount(tiers: readonly PriceTier[], quantity: number): TieredAmount {
  assertValidTiers(tiers);
  assertNonNegativeSafeInteger(quantity, 'quantity');
  // validateTiers guarantees an open last tier, so findIndex always finds one.
  const index = tiers.findIndex((tier) => tier.up_to === null || quantity <= tier.up_to);
  const rows = [breakdownRow(tiers, index, quantity)];
  return {
    tiers_mode: 'volume',
    quantity,
    amount: sumRows(rows),
    breakdown: rows,
    ...(quantity === 0 ? { zero_quantity_rule: ZERO_QUANTITY_RULE.volume } : {}),
  };
}

/** Tiered amount in the given mode. */
export function tieredAmount(mode: TiersMode, tiers: readonly PriceTier[], quantity: number): TieredAmount {
  if (mode === 'graduated') return graduatedAmount(tiers, quantity);
  if (mode === 'volume') return volumeAmount(tiers, quantity);
  throw new RangeError(`unknown tiers_mode: ${String(mode)}`);
}

/** Licensed (per-unit) pricing: unit_amount × quantity, exact. */
export function licensedAmount(unitAmount: number, quantity: number): number {
  assertNonNegativeSafeInteger(unitAmount, 'unit_amount');
  assertNonNegativeSafeInteger(quantity, 'quantity');
  return toSafeNumber(BigInt(unitAmount) * BigInt(quantity), 'licensed amount');
}

/** Units charged after the included (free) units: max(0, quantity − includedUnits). */
export function billableQuantity(quantity: number, includedUnits: number | null | undefined): number {
  assertNonNegativeSafeInteger(quantity, 'quantity');
  const included = includedUnits ?? 0;
  assertNonNegativeSafeInteger(included, 'included_units');
  return Math.max(0, quantity - included);
}

/** The pricing fields of a Price (unit_amount is null when tiers_mode is set: docs/catalog.md). */
export interface PricingScheme {
  readonly unit_amount?: number | null;
  readonly tiers_mode?: TiersMode | null;
  readonly tiers?: readonly PriceTier[] | null;
}

export interface PriceAmount {
  readonly amount: number;
  /** Quantity before included units are taken off. */
  readonly quantity: number;
  readonly included_units: number;
  /** Quantity actually priced. */
  readonly billable_quantity: number;
  readonly tiers_mode: TiersMode | null;
  /** Empty for per-unit prices. */
  readonly breakdown: readonly TierBreakdownRow[];
  readonly zero_quantity_rule?: string;
}

/**
 * The amount of a price for a quantity: included units are taken off first, then the remainder is
 * priced per unit or through the tiers.
 */
export function priceAmount(price: PricingScheme, quantity: number, includedUnits?: number | null): PriceAmount {
  const billable = billableQuantity(quantity, includedUnits);
  const base = { quantity, included_units: includedUnits ?? 0, billable_quantity: billable };
  if (price.tiers_mode !== undefined && price.tiers_mode !== null) {
    const tiered = tieredAmount(price.tiers_mode, price.tiers ?? [], billable);
    return {
      ...base,
      amount: tiered.amount,
      tiers_mode: tiered.tiers_mode,
      breakdown: tiered.breakdown,
      ...(tiered.zero_quantity_rule === undefined ? {} : { zero_quantity_rule: tiered.zero_quantity_rule }),
    };
  }
  if (price.unit_amount === undefined || price.unit_amount === null) {
    throw new RangeError('a price needs unit_amount when tiers_mode is not set');
  }
  return { ...base, amount: licensedAmount(price.unit_amount, billable), tiers_mode: null, breakdown: [] };
}
