// Billing periods in UTC, computed from the subscription's anchor.
//
// The n-th boundary is always anchor + n × (interval × interval_count), computed from the
// ANCHOR, never by stepping from the previous boundary: stepping from a clamped Feb 28 would
// lose the anchor day and give Mar 28 instead of Mar 31.
// Month and year intervals keep the anchor's day of month, clamped to the last day of shorter
// months (Jan 31 → Feb 28/29 → Mar 31 → Apr 30 …; a Feb 29 anchor, yearly → Feb 28 in common
// years and Feb 29 again in leap years). Day and week intervals are exact multiples of 24 h
// (UTC has no daylight saving). The anchor's time of day is kept in every case.
// Periods are half-open: start inclusive, end exclusive.
import { assertNonNegativeSafeInteger } from './integers';

export type BillingInterval = 'day' | 'week' | 'month' | 'year';

export const BILLING_INTERVALS: readonly BillingInterval[] = ['day', 'week', 'month', 'year'];

/** A point in time: a Date or epoch milliseconds. */
export type Instant = Date | number;

export interface BillingPeriod {
  /** Inclusive. */
  readonly start: Date;
  /** Exclusive. */
  readonly end: Date;
  /** 0 for the period that starts at the anchor. */
  readonly index: number;
}

/** Longest period we accept, like Stripe: three years (3 years, 36 months, 156 weeks, 1095 days). */
export const MAX_INTERVAL_SPAN_YEARS = 3;

export const MAX_INTERVAL_COUNT: Readonly<Record<BillingInterval, number>> = {
  day: 1095,
  week: 156,
  month: 36,
  year: 3,
};

const DAY_MS = 86_400_000;

/** Epoch milliseconds of a Date or a number; throws on invalid dates and non-integers. */
export function toEpochMilliseconds(instant: Instant, name = 'instant'): number {
  const ms = instant instanceof Date ? instant.getTime() : instant;
  if (!Number.isSafeInteger(ms)) {
    throw new RangeError(`${name} must be a valid Date or integer epoch milliseconds, got ${String(instant)}`);
  }
  return ms;
}

/** Throws unless interval is known and count is an integer in 1..MAX_INTERVAL_COUNT[interval]. */
export function validateIntervalCount(interval: BillingInterval, intervalCount: number): void {
  if (!BILLING_INTERVALS.includes(interval)) {
    throw new RangeError(`unknown billing interval: ${String(interval)}`);
  }
  if (!Number.isSafeInteger(intervalCount) || intervalCount < 1) {
    throw new RangeError(`interval_count must be an integer of at least 1, got ${String(intervalCount)}`);
  }
  const max = MAX_INTERVAL_COUNT[interval];
  if (intervalCount > max) {
    throw new RangeError(`interval_count ${intervalCount} for interval ${interval} exceeds ${max} (at most ${MAX_INTERVAL_SPAN_YEARS} years)`);
  }
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month; month is 0-based like Date's. */
export function daysInMonth(year: number, month: number): number {
  const days = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return days[month];
}

/**
 * anchor + months calendar months, keeping the anchor's day (clamped to the month's last day)
 * and its time of day, in UTC.
 */
export function addMonthsClamped(anchor: Instant, months: number): Date {
  const a = new Date(toEpochMilliseconds(anchor, 'anchor'));
  if (!Number.isSafeInteger(months)) throw new RangeError(`months must be an integer, got ${String(months)}`);
  const monthIndex = a.getUTCMonth() + months;
  const year = a.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const day = Math.min(a.getUTCDate(), daysInMonth(year, month));
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0..99 to 1900..1999.
  const out = new Date(0);
  out.setUTCFullYear(year, month, day);
  out.setUTCHours(a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds(), a.getUTCMilliseconds());
  if (Number.isNaN(out.getTime())) throw new RangeError('date out of range');
  return out;
}

function monthsPerPeriod(interval: 'month' | 'year', intervalCount: number): number {
  return interval === 'year' ? 12 * intervalCount : intervalCount;
}

function fixedPeriodMs(interval: 'day' | 'week', intervalCount: number): number {
  return (interval === 'week' ? 7 : 1) * DAY_MS * intervalCount;
}

/** The n-th period boundary (n = 0 is the anchor itself), computed from the anchor. */
export function periodBoundary(anchor: Instant, interval: BillingInterval, intervalCount: number, n: number): Date {
  validateIntervalCount(interval, intervalCount);
  assertNonNegativeSafeInteger(n, 'n');
  const anchorMs = toEpochMilliseconds(anchor, 'anchor');
  if (interval === 'day' || interval === 'week') {
    const ms = anchorMs + n * fixedPeriodMs(interval, intervalCount);
    const out = new Date(ms);
    if (!Number.isSafeInteger(ms) || Number.isNaN(out.getTime())) throw new RangeError('date out of range');
    return out;
  }
  return addMonthsClamped(anchorMs, n * monthsPerPeriod(interval, intervalCount));
}

/** The period with the given index: [boundary(index), boundary(index + 1)). */
export function periodAt(anchor: Instant, interval: BillingInterval, intervalCount: number, index: number): BillingPeriod {
  return {
    start: periodBoundary(anchor, interval, intervalCount, index),
    end: periodBoundary(anchor, interval, intervalCount, index + 1),
    index,
  };
}

/**
 * The period that contains `at` (start <= at < end). A time exactly on a boundary belongs to
 * the period that starts there. Throws when `at` is before the anchor.
 */
export function periodContaining(anchor: Instant, interval: BillingInterval, intervalCount: number, at: Instant): BillingPeriod {
  validateIntervalCount(interval, intervalCount);
  const anchorMs = toEpochMilliseconds(anchor, 'anchor');
  const atMs = toEpochMilliseconds(at, 'at');
  if (atMs < anchorMs) throw new RangeError('at is before the anchor: no billing period contains it');

  let index: number;
  if (interval === 'day' || interval === 'week') {
    index = Math.floor((atMs - anchorMs) / fixedPeriodMs(interval, intervalCount));
  } else {
    // Estimate from the calendar month difference, then correct by at most a step or two.
    const a = new Date(anchorMs);
    const t = new Date(atMs);
    const monthDiff = (t.getUTCFullYear() - a.getUTCFullYear()) * 12 + (t.getUTCMonth() - a.getUTCMonth());
    index = Math.max(0, Math.floor(monthDiff / monthsPerPeriod(interval, intervalCount)));
    while (index > 0 && periodBoundary(anchorMs, interval, intervalCount, index).getTime() > atMs) index -= 1;
    while (periodBoundary(anchorMs, interval, intervalCount, index + 1).getTime() <= atMs) index += 1;
  }
  return periodAt(anchorMs, interval, intervalCount, index);
}

/** The period right after the one that contains `at`. */
export function nextPeriod(anchor: Instant, interval: BillingInterval, intervalCount: number, at: Instant): BillingPeriod {
  const current = periodContaining(anchor, interval, intervalCount, at);
  return periodAt(anchor, interval, intervalCount, current.index + 1);
}
