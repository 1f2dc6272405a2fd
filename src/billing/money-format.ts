// The one money formatter, for the server and the browser alike. `formatMinorUnits` is served to
// the dashboard's browser script as its own compiled text (api/dashboard/assets/dashboard-js.ts
// embeds `formatMinorUnits.toString()`), so it must stay self-contained: no imports, no helpers
// from this module, nothing but its arguments and the language's built-ins.
// test/unit/dashboard/chart-money.test.ts runs the served text against formatAmount.

/** How one currency's amounts are written (src/billing/currency.ts has the style of each). */
export interface MoneyStyle {
  readonly thousands: string;
  readonly decimal: string;
  readonly prefix: string;
  readonly suffix: string;
  /** Digits of the minor unit: 0 for ISK, 2 for EUR. */
  readonly exponent: number;
}

/**
 * An integer amount in minor units written in a style, on the digits (never dividing a float):
 * 123456 with the EUR style is "€1,234.56", 1990 with the ISK style "1.990 kr."; a negative
 * amount starts with "-". Callers check that the amount is a safe integer.
 */
export function formatMinorUnits(amount: number, style: MoneyStyle): string {
  const digits = Math.abs(amount)
    .toString()
    .padStart(style.exponent + 1, '0');
  const major = digits.slice(0, digits.length - style.exponent);
  const minor = digits.slice(digits.length - style.exponent);
  const grouped = major.replace(/\B(?=(\d{3})+$)/g, style.thousands);
  return (amount < 0 ? '-' : '') + style.prefix + (minor === '' ? grouped : grouped + style.decimal + minor) + style.suffix;
}
