// Supported currencies and their minor units (ISO 4217). Amounts everywhere are integers in
// the minor unit: 1990 ISK is 1.990 kr. (ISK has no minor unit), 1990 EUR is €19.90.
import { assertSafeInteger } from './integers';

export const SUPPORTED_CURRENCIES = ['ISK', 'EUR', 'USD', 'GBP', 'DKK', 'NOK', 'SEK'] as const;

export type Currency = (typeof SUPPORTED_CURRENCIES)[number];

const MINOR_UNIT_EXPONENT: Readonly<Record<Currency, number>> = {
  ISK: 0,
  EUR: 2,
  USD: 2,
  GBP: 2,
  DKK: 2,
  NOK: 2,
  SEK: 2,
};

/** Exact, case-sensitive match on the upper-case ISO code; normalising input is the API's job. */
export function isSupportedCurrency(code: string): code is Currency {
  return (SUPPORTED_CURRENCIES as readonly string[]).includes(code);
}

/** Number of decimal digits of the minor unit: 0 for ISK, 2 for the others. */
export function minorUnitExponent(currency: Currency): number {
  if (!isSupportedCurrency(currency)) {
    throw new RangeError(`unsupported currency: ${String(currency)}`);
  }
  return MINOR_UNIT_EXPONENT[currency];
}

export interface DisplayStyle {
  readonly thousands: string;
  readonly decimal: string;
  readonly prefix: string;
  readonly suffix: string;
}

// Each currency is shown the way its home market writes it. Written out by hand instead of
// Intl.NumberFormat because ICU data differs between Node builds and the output must not.
// Plain ASCII spaces, never no-break spaces, so the strings are easy to compare and log.
const DISPLAY_STYLE: Readonly<Record<Currency, DisplayStyle>> = {
  ISK: { thousands: '.', decimal: ',', prefix: '', suffix: ' kr.' },
  EUR: { thousands: ',', decimal: '.', prefix: '€', suffix: '' },
  USD: { thousands: ',', decimal: '.', prefix: '$', suffix: '' },
  GBP: { thousands: ',', decimal: '.', prefix: '£', suffix: '' },
  DKK: { thousands: '.', decimal: ',', prefix: '', suffix: ' kr.' },
  NOK: { thousands: ' ', decimal: ',', prefix: 'kr ', suffix: '' },
  SEK: { thousands: ' ', decimal: ',', prefix: '', suffix: ' kr' },
};

function splitMajorMinor(amount: number, currency: Currency): { negative: boolean; major: string; minor: string } {
  assertSafeInteger(amount, 'amount');
  const exponent = minorUnitExponent(currency);
  const digits = Math.abs(amount)
    .toString()
    .padStart(exponent + 1, '0');
  return {
    negative: amount < 0,
    major: digits.slice(0, digits.length - exponent),
    minor: digits.slice(digits.length - exponent),
  };
}

/**
 * The amount in major units as a plain decimal string without grouping, computed on the
 * digits (never by dividing a float): formatDecimal(123456, 'EUR') === '1234.56',
 * formatDecimal(1990, 'ISK') === '1990'. Meant for exports and logs.
 */
export function formatDecimal(amount: number, currency: Currency): string {
  const { negative, major, minor } = splitMajorMinor(amount, currency);
  return `${negative ? '-' : ''}${major}${minor === '' ? '' : `.${minor}`}`;
}

/**
 * The amount for humans, deterministic: formatAmount(1990, 'ISK') === '1.990 kr.',
 * formatAmount(123456, 'EUR') === '€1,234.56', negative amounts start with '-'.
 */
export function formatAmount(amount: number, currency: Currency): string {
  const { negative, major, minor } = splitMajorMinor(amount, currency);
  const style = DISPLAY_STYLE[currency];
  const grouped = major.replace(/\B(?=(\d{3})+$)/g, style.thousands);
  const number = minor === '' ? grouped : `${grouped}${style.decimal}${minor}`;
  return `${negative ? '-' : ''}${style.prefix}${number}${style.suffix}`;
}

/**
 * How a currency's amounts are written, for code outside this module that must format them the
 * same way (the dashboard's chart script): separators, prefix, suffix and the minor-unit exponent.
 */
export function displayStyleOf(currency: Currency): DisplayStyle & { exponent: number } {
  return { ...DISPLAY_STYLE[currency], exponent: minorUnitExponent(currency) };
}
