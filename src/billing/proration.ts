// Proration by whole seconds of the period.
//
// Proration is by "exact seconds of the period" (docs/subscriptions.md): both the period length and the offset of the
// change from the period start are floored to whole seconds, then
//   remaining = periodSeconds - elapsedSeconds
//   amount    = round(fullAmount × remaining / periodSeconds)   (the one rounding rule, once)
// Sub-second parts never count: a change at start + 2.999 s has used 2 s. Consequently a change
// in the last second of a period still charges (and credits) one second.
// Each proration line is rounded on its own (line level); the credit for the old price is the
// exact negative of what the same amount would charge, because the rule is symmetric.
import { assertSafeInteger } from './integers';
import { Instant, toEpochMilliseconds } from './periods';
import { mulDivRound } from './rounding';

export interface ProrationWindow {
  /** Seconds of the period, floored. */
  readonly periodSeconds: number;
  /** Seconds from the change to the period end, floored offset; 0 when the change is at or after the end. */
  readonly remainingSeconds: number;
}

/** Whole-second window of [changeAt, periodEnd) inside [periodStart, periodEnd). */
export function prorationWindow(periodStart: Instant, periodEnd: Instant, changeAt: Instant): ProrationWindow {
  const startMs = toEpochMilliseconds(periodStart, 'periodStart');
  const endMs = toEpochMilliseconds(periodEnd, 'periodEnd');
  const changeMs = toEpochMilliseconds(changeAt, 'changeAt');
  const periodSeconds = Math.floor((endMs - startMs) / 1000);
  if (periodSeconds < 1) throw new RangeError('a period must last at least one second');
  if (changeMs < startMs) throw new RangeError('changeAt is before the period start');
  if (changeMs >= endMs) return { periodSeconds, remainingSeconds: 0 };
  const elapsedSeconds = Math.floor((changeMs - startMs) / 1000);
  return { periodSeconds, remainingSeconds: periodSeconds - elapsedSeconds };
}

/**
 * The part of amountForFullPeriod that belongs to [changeAt, periodEnd): the full amount when the
 * change is at the period start, 0 at or after the end. Throws when changeAt is before the start.
 * amountForFullPeriod may be negative; the result then mirrors the positive case.
 */
export function prorate(amountForFullPeriod: number, periodStart: Instant, periodEnd: Instant, changeAt: Instant): number {
  assertSafeInteger(amountForFullPeriod, 'amountForFullPeriod');
  const { periodSeconds, remainingSeconds } = prorationWindow(periodStart, periodEnd, changeAt);
  return mulDivRound(amountForFullPeriod, remainingSeconds, periodSeconds);
}

export interface ProrationLine {
  /** 'unused_time' credits the old price, 'remaining_time' charges the new one. */
  readonly kind: 'unused_time' | 'remaining_time';
  /** Negative for the credit, positive (or 0) for the charge. */
  readonly amount: number;
  /** The full-period amount this line was prorated from. */
  readonly full_period_amount: number;
  readonly period_start: Date;
  readonly period_end: Date;
  readonly remaining_seconds: number;
  readonly period_seconds: number;
}

export interface ProrationChange {
  /** Amount the old price and quantity cost for the whole period (e.g. from tiers.ts). */
  readonly oldAmountForFullPeriod: number;
  /** Amount the new price and quantity cost for the whole period. */
  readonly newAmountForFullPeriod: number;
  readonly periodStart: Instant;
  readonly periodEnd: Instant;
  readonly changeAt: Instant;
}

export interface ProrationLines {
  readonly credit: ProrationLine;
  readonly charge: ProrationLine;
}

/**
 * The pair of proration lines for a quantity or price change at changeAt: a credit for the unused
 * time of the old amount (negative) and a charge for the remaining time of the new amount, each
 * rounded on its own. Both lines cover [changeAt, periodEnd) (empty and 0 when changeAt >= end).
 * Callers usually drop zero lines.
 */
export function prorationLines(change: ProrationChange): ProrationLines {
  assertSafeInteger(change.oldAmountForFullPeriod, 'oldAmountForFullPeriod');
  assertSafeInteger(change.newAmountForFullPeriod, 'newAmountForFullPeriod');
  const { periodSeconds, remainingSeconds } = prorationWindow(change.periodStart, change.periodEnd, change.changeAt);
  const endMs = toEpochMilliseconds(change.periodEnd, 'periodEnd');
  const lineStart = new Date(Math.min(toEpochMilliseconds(change.changeAt, 'changeAt'), endMs));
  const common = {
    period_start: lineStart,
    period_end: new Date(endMs),
    remaining_seconds: remainingSeconds,
    period_seconds: periodSeconds,
  };
  return {
    credit: {
      kind: 'unused_time',
      // 0 - x, not -x: a zero credit must be +0, never -0.
      amount: 0 - mulDivRound(change.oldAmountForFullPeriod, remainingSeconds, periodSeconds),
      full_period_amount: change.oldAmountForFullPeriod,
      ...common,
    },
    charge: {
      kind: 'remaining_time',
      amount: mulDivRound(change.newAmountForFullPeriod, remainingSeconds, periodSeconds),
      full_period_amount: change.newAmountForFullPeriod,
      ...common,
    },
  };
}
