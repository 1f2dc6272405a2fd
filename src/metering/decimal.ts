// Exact decimals for meter quantities: coefficient × 10^−scale with a bigint coefficient, so
// 0.1 + 0.2 is 0.3 and sums never drift the way floats do. Only what metering needs. Kept by hand
// after measuring big.js and decimal.js against it (bench/decimal.ts; docs/architecture.md
// "Libraries and why"): both are exact when configured so, and slower on this mix.

export interface Decimal {
  readonly coefficient: bigint;
  /** Digits after the decimal point; never negative. */
  readonly scale: number;
}

export const DECIMAL_ZERO: Decimal = { coefficient: 0n, scale: 0 };

const PLAIN_DECIMAL = /^(-?)([0-9]+)(?:[.]([0-9]+))?$/;
const JS_NUMBER_TEXT = /^(-?)([0-9]+)(?:[.]([0-9]+))?(?:e([+-][0-9]+))?$/;

/** Plain decimal text (`-12.50`, as PostgreSQL prints numeric), any length; otherwise null. */
export function parseDecimal(text: string): Decimal | null {
  const m = PLAIN_DECIMAL.exec(text);
  if (!m) return null;
  const fraction = m[3] ?? '';
  const magnitude = BigInt(m[2] + fraction);
  return { coefficient: m[1] === '-' ? -magnitude : magnitude, scale: fraction.length };
}

/**
 * The exact decimal of a finite JS number's shortest round-trip form (`String(n)`), which is
 * also what JSON.stringify writes and so what a jsonb column holds: 0.1 → 0.1, 1e21 → 10²¹.
 */
export function decimalFromNumber(n: number): Decimal | null {
  if (!Number.isFinite(n)) return null;
  const m = JS_NUMBER_TEXT.exec(String(n));
  if (!m) return null;
  const fraction = m[3] ?? '';
  const exponent = m[4] === undefined ? 0 : Number(m[4]);
  let magnitude = BigInt(m[2] + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    magnitude *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { coefficient: m[1] === '-' ? -magnitude : magnitude, scale };
}

export function decimalFromBigInt(n: bigint): Decimal {
  return { coefficient: n, scale: 0 };
}

/** Plain text without exponent or trailing fractional zeros: `3.5`, `-0.25`, `1000`. */
export function decimalToString(d: Decimal): string {
  if (d.scale === 0) return d.coefficient.toString();
  const negative = d.coefficient < 0n;
  const digits = (negative ? -d.coefficient : d.coefficient).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  if (fraction === '' && whole.replace(/^0+/, '') === '') return '0';
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { coefficient: x + y, scale };
}

export function subtractDecimals(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { coefficient: x - y, scale };
}

export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function multiplyDecimal(a: Decimal, factor: bigint): Decimal {
  return { coefficient: a.coefficient * factor, scale: a.scale };
}

/** Smallest integer ≥ the value. */
export function ceilDecimal(a: Decimal): bigint {
  const unit = 10n ** BigInt(a.scale);
  const truncated = a.coefficient / unit; // bigint division truncates toward zero
  return a.coefficient > 0n && a.coefficient % unit !== 0n ? truncated + 1n : truncated;
}

/**
 * a ÷ divisor rounded half away from zero to `significant` significant digits, but never to
 * fewer digits than the integer part has: 2/3 → 0.666666666667, 10¹⁵+0.5 → 1000000000000001.
 */
export function divideToSignificant(a: Decimal, divisor: bigint, significant: number): Decimal {
  if (divisor <= 0n) throw new RangeError('divisor must be positive');
  if (a.coefficient === 0n) return DECIMAL_ZERO;
  const negative = a.coefficient < 0n;
  const numerator = negative ? -a.coefficient : a.coefficient;
  const denominator = divisor * 10n ** BigInt(a.scale);

  let scale: number;
  const integerPart = numerator / denominator;
  if (integerPart > 0n) {
    scale = Math.max(0, significant - integerPart.toString().length);
  } else {
    // First significant digit sits `firstDigit` places after the point.
    let firstDigit = Math.max(1, denominator.toString().length - numerator.toString().length);
    while (numerator * 10n ** BigInt(firstDigit) < denominator) firstDigit++;
    scale = firstDigit + significant - 1;
  }
  const scaled = numerator * 10n ** BigInt(scale);
  let quotient = scaled / denominator;
  if ((scaled % denominator) * 2n >= denominator) quotient += 1n;
  return { coefficient: negative ? -quotient : quotient, scale };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.coefficient, b.coefficient, a.scale];
  if (a.scale > b.scale) return [a.coefficient, b.coefficient * 10n ** BigInt(a.scale - b.scale), a.scale];
  return [a.coefficient * 10n ** BigInt(b.scale - a.scale), b.coefficient, b.scale];
}
