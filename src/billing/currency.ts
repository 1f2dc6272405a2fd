// Supported currencies and their minor units (ISO 4217). Amounts everywhere are integers in
// the minor unit: 1990 ISK is 1.990 kr. (ISK has no minor unit), 1990 EUR is €19.90.
import { assertSafeInteger } from './integers';
import { formatMinorUnits, type MoneyStyle } from './money-format';

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

type DisplayStyle = Omit<MoneyStyle, 'exponent'>;

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

/**
 * The amount in major units as a plain decimal string without grouping, computed on the
 * digits (never by dividing a float): formatDecimal(123456, 'EUR') === '1234.56',
 * formatDecimal(1990, 'ISK') === '1990'. Meant for exports and logs.
 */
export function formatDecimal(amount: number, currency: Currency): string {
  assertSafeInteger(amount, 'amount');
  return formatMinorUnits(amount, { thousands: '', decimal: '.', prefix: '', suffix: '', exponent: minorUnitExponent(currency) });
}

/**
 * The amount for humans, deterministic: formatAmount(1990, 'ISK') === '1.990 kr.',
 * formatAmount(123456, 'EUR') === '€1,234.56', negative amounts start with '-'.
 */
export function formatAmount(amount: number, currency: Currency): string {
  assertSafeInteger(amount, 'amount');
  return formatMinorUnits(amount, displayStyleOf(currency));
}

/**
 * formatAmount for any currency code (upper-cased first), as pages, documents and exports show
 * money: a code this service does not support is written plainly, "1990 XYZ".
 */
export function formatMoney(amount: bigint | number, currency: string): string {
  const c = currency.toUpperCase();
  return isSupportedCurrency(c) ? formatAmount(Number(amount), c) : `${Number(amount)} ${c}`;
}

/**
 * How a currency's amounts are written (separators, prefix, suffix, minor-unit exponent): what
 * formatMinorUnits needs, also on a dashboard chart in the browser.
 */
export function displayStyleOf(currency: Currency): MoneyStyle {
  return { ...DISPLAY_STYLE[currency], exponent: minorUnitExponent(currency) };
}
