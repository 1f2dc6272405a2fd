// Discounts on a subtotal: a fixed amount_off or a percent_off with up to two decimals.
// percent_off is read as an exact number of hundredths of a percent (33.33 → 3333), never as a
// float factor, so the discount is round(subtotal × hundredths / 10000) with the one rule.
// The discount never exceeds the subtotal and is 0 for a subtotal of 0 or less.
import { assertSafeInteger } from './integers';
import { addMonthsClamped, Instant } from './periods';
import { mulDivRound } from './rounding';

export type DiscountDuration = 'once' | 'repeating' | 'forever';

export interface Discount {
  readonly amount_off?: number | null;
  /** 0.01 to 100, at most two decimals. */
  readonly percent_off?: number | null;
  readonly duration: DiscountDuration;
  /** Required for 'repeating', absent otherwise. */
  readonly duration_in_months?: number | null;
}

const DURATIONS: readonly DiscountDuration[] = ['once', 'repeating', 'forever'];

/**
 * percent_off in exact hundredths of a percent, read from the number's shortest decimal form
 * (String(33.33) === '33.33'), or null when it has more than two decimals or is not a plain decimal.
 */
export function percentOffHundredths(percentOff: number): number | null {
  if (typeof percentOff !== 'number' || !Number.isFinite(percentOff)) return null;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(percentOff));
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function isPresent<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

/** Problems with a discount, in human-readable sentences; an empty list means valid. */
export function validateDiscount(discount: Discount): string[] {
  const problems: string[] = [];
  const hasAmount = isPresent(discount.amount_off);
  const hasPercent = isPresent(discount.percent_off);
  if (hasAmount === hasPercent) problems.push('a discount needs exactly one of amount_off and percent_off');
  if (hasAmount && (!Number.isSafeInteger(discount.amount_off) || (discount.amount_off as number) < 1)) {
    problems.push(`amount_off must be a positive integer in minor units, got ${String(discount.amount_off)}`);
  }
  if (hasPercent) {
    const hundredths = percentOffHundredths(discount.percent_off as number);
    if (hundredths === null || hundredths < 1 || hundredths > 10_000) {
      problems.push(`percent_off must be between 0.01 and 100 with at most two decimals, got ${String(discount.percent_off)}`);
    }
  }
  if (!DURATIONS.includes(discount.duration)) {
    problems.push(`duration must be once, repeating or forever, got ${String(discount.duration)}`);
  }
  const months = discount.duration_in_months;
  if (discount.duration === 'repeating') {
    if (!isPresent(months) || !Number.isSafeInteger(months) || months < 1) {
      problems.push(`a repeating discount needs duration_in_months as a positive integer, got ${String(months)}`);
    }
  } else if (isPresent(months)) {
    problems.push('duration_in_months is only allowed with duration repeating');
  }
  return problems;
}

function assertValidDiscount(discount: Discount): void {
  const problems = validateDiscount(discount);
  if (problems.length > 0) throw new RangeError(`invalid discount: ${problems.join('; ')}`);
}

/**
 * The discount amount for a subtotal (a non-negative integer, at most the subtotal).
 * Whether the discount applies to this period at all is discountAppliesToPeriod's question.
 */
export function applyDiscount(subtotal: number, discount: Discount): number {
  assertSafeInteger(subtotal, 'subtotal');
  assertValidDiscount(discount);
  if (subtotal <= 0) return 0;
  if (isPresent(discount.amount_off)) return Math.min(discount.amount_off, subtotal);
  const hundredths = percentOffHundredths(discount.percent_off as number) as number;
  return Math.min(mulDivRound(subtotal, hundredths, 10_000), subtotal);
}

/**
 * Whether the discount applies to the period with index periodIndex, when it was first applied in
 * period startedAtPeriodIndex:
 *   once      → only that first period;
 *   forever   → that period and every later one;
 *   repeating → the periods that START within duration_in_months months of the first one, i.e.
 *               (periodIndex − startedAtPeriodIndex) × monthsPerPeriod < duration_in_months.
 * monthsPerPeriod is 1 for monthly prices (the default), 3 for quarterly, 12 for yearly. For day
 * and week intervals use repeatingDiscountEndsAt and compare period starts instead.
 */
export function discountAppliesToPeriod(discount: Discount, startedAtPeriodIndex: number, periodIndex: number, monthsPerPeriod = 1): boolean {
  assertValidDiscount(discount);
  assertSafeInteger(startedAtPeriodIndex, 'startedAtPeriodIndex');
  assertSafeInteger(periodIndex, 'periodIndex');
  if (!Number.isSafeInteger(monthsPerPeriod) || monthsPerPeriod < 1) {
    throw new RangeError(`monthsPerPeriod must be a positive integer, got ${String(monthsPerPeriod)}`);
  }
  const offset = periodIndex - startedAtPeriodIndex;
  if (offset < 0) return false;
  switch (discount.duration) {
    case 'once':
      return offset === 0;
    case 'forever':
      return true;
    case 'repeating':
      return offset * monthsPerPeriod < (discount.duration_in_months as number);
  }
}

/**
 * When a repeating discount stops (exclusive): startedAt + duration_in_months calendar months with
 * the same month-end clamping as billing periods. A period whose start is before this instant
 * gets the discount. Works for every interval, including day and week.
 */
export function repeatingDiscountEndsAt(startedAt: Instant, durationInMonths: number): Date {
  if (!Number.isSafeInteger(durationInMonths) || durationInMonths < 1) {
    throw new RangeError(`duration_in_months must be a positive integer, got ${String(durationInMonths)}`);
  }
  return addMonthsClamped(startedAt, durationInMonths);
}
