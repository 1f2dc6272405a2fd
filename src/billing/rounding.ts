// THE rounding rule of this service: round half away from zero to the minor unit.
//   2.5 → 3, -2.5 → -3, 2.4999 → 2, -2.4999 → -2.
// It is symmetric around zero, so a credit is always the exact mirror of the matching charge
// (round(-x) === -round(x)). Every computed amount is rounded once, at line level, on an
// exact rational (BigInt numerator / denominator); no float ever enters a total.
import { toExactBigInt, toSafeNumber, assertSafeInteger } from './integers';

/** numerator / denominator rounded half away from zero, exactly. */
export function roundRatio(numerator: bigint, denominator: bigint): bigint {
  if (typeof numerator !== 'bigint' || typeof denominator !== 'bigint') {
    throw new TypeError('roundRatio takes bigint arguments');
  }
  if (denominator === 0n) throw new RangeError('roundRatio: division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  let quotient = n / d;
  const remainder = n % d;
  if (remainder * 2n >= d) quotient += 1n;
  return negative ? -quotient : quotient;
}

/**
 * amount × mul / div computed exactly and rounded once with the rule above.
 * amount must be a safe integer (a minor-unit amount); mul and div integers (number or bigint).
 * Throws on non-integers, on div = 0 and when the result leaves the safe integer range.
 */
export function mulDivRound(amount: number, mul: number | bigint, div: number | bigint): number {
  assertSafeInteger(amount, 'amount');
  const m = toExactBigInt(mul, 'mul');
  const d = toExactBigInt(div, 'div');
  if (d === 0n) throw new RangeError('mulDivRound: division by zero');
  return toSafeNumber(roundRatio(BigInt(amount) * m, d), 'mulDivRound result');
}
