// From meter quantities to the whole units a metered price bills for one period.
//
// The period may be split into sub-periods (for example around a quantity or price change);
// `quantities` holds each sub-period's meter quantity in time order, as aggregateEvents or the
// SQL returns it, with null for "no value" (max/min/avg over no events).
// - sum: total of all sub-periods (null counts as 0);
// - max: largest sub-period value; 0 when none has a value;
// - last_during_period: the last sub-period that has a value; 0 when none has.
// Then included units are subtracted, the result floored at 0, and rounded UP to a whole unit:
// usage is billed in whole units and a started unit is billed (10.2 GB beyond the allowance
// bills 11). Rounding happens once, on the period total, never per sub-period.
import { type Decimal, DECIMAL_ZERO, ceilDecimal, compareDecimals, decimalFromNumber, parseDecimal, subtractDecimals, addDecimals } from './decimal';

export const PRICE_AGGREGATE_USAGES = ['sum', 'max', 'last_during_period'] as const;
export type PriceAggregateUsage = (typeof PRICE_AGGREGATE_USAGES)[number];

export type MeterQuantity = string | number | null;

export interface BillableQuantityInput {
  aggregateUsage: PriceAggregateUsage;
  quantities: ReadonlyArray<MeterQuantity>;
  /** Whole units included in the base price; null or absent means 0. */
  includedUnits?: number | null;
}

/** Whole units to bill; throws RangeError on malformed input or a total beyond 2^53 − 1. */
export function billableQuantity(input: BillableQuantityInput): number {
  const included = input.includedUnits ?? 0;
  if (!Number.isSafeInteger(included) || included < 0) {
    throw new RangeError(`included units must be a whole number ≥ 0, got ${included}`);
  }
  const values = input.quantities.map(toDecimal);
  const present = values.filter((v): v is Decimal => v !== null);

  let usage: Decimal;
  switch (input.aggregateUsage) {
    case 'sum':
      usage = present.reduce(addDecimals, DECIMAL_ZERO);
      break;
    case 'max':
      usage = present.length === 0 ? DECIMAL_ZERO : present.reduce((a, b) => (compareDecimals(b, a) > 0 ? b : a));
      break;
    case 'last_during_period':
      usage = present.length === 0 ? DECIMAL_ZERO : present[present.length - 1];
      break;
    default:
      throw new RangeError(`unknown aggregate_usage ${JSON.stringify(input.aggregateUsage)}`);
  }

  const beyondIncluded = subtractDecimals(usage, { coefficient: BigInt(included), scale: 0 });
  const units = beyondIncluded.coefficient <= 0n ? 0n : ceilDecimal(beyondIncluded);
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('billable quantity exceeds 2^53 − 1');
  return Number(units);
}

function toDecimal(q: MeterQuantity, index: number): Decimal | null {
  if (q === null) return null;
  const d = typeof q === 'number' ? decimalFromNumber(q) : parseDecimal(q);
  if (d === null) throw new RangeError(`quantity ${index} is not a finite decimal: ${JSON.stringify(q)}`);
  return d;
}
