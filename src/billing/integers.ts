// Guards shared by the billing math: every amount and quantity is a safe integer, and every
// exact intermediate (BigInt) must come back inside Number.MAX_SAFE_INTEGER before it leaves.

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/** Throws a RangeError unless `value` is a safe integer (no fractions, NaN or infinities). */
export function assertSafeInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${name} must be a safe integer, got ${String(value)}`);
  }
}

/** Like assertSafeInteger, and also at least zero. */
export function assertNonNegativeSafeInteger(value: number, name: string): void {
  assertSafeInteger(value, name);
  if (value < 0) throw new RangeError(`${name} must be at least 0, got ${value}`);
}

/** Converts an exact BigInt result back to a number, refusing anything beyond the safe range. */
export function toSafeNumber(value: bigint, what: string): number {
  if (value > MAX_SAFE || value < MIN_SAFE) {
    throw new RangeError(`${what} is outside the safe integer range: ${value.toString()}`);
  }
  return Number(value);
}

/** Accepts a bigint as is, or a number that must be a safe integer. */
export function toExactBigInt(value: number | bigint, name: string): bigint {
  if (typeof value === 'bigint') return value;
  assertSafeInteger(value, name);
  return BigInt(value);
}
