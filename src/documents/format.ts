// Dates and amounts as documents print them. Amounts use the currency's own style
// (src/billing formatAmount: ISK without decimals, "12.990 kr."); dates are UTC calendar days.
import { formatAmount, isSupportedCurrency } from '../billing/currency';
import { formatCalendarDay } from '../billing/calendar-day';
import type { DocumentLocale } from './document-model';

export function formatDocumentDate(d: Date, locale: DocumentLocale): string {
  return formatCalendarDay(d, locale);
}

export function formatPeriod(start: Date | null, end: Date | null, locale: DocumentLocale): string {
  if (!start || !end) return '';
  // Periods are half-open [start, end) and usually start at the time of day the subscription
  // began, so both ends are printed as their days (as card statements and Stripe do).
  return `${formatDocumentDate(start, locale)} – ${formatDocumentDate(end, locale)}`;
}

export function formatMoney(amount: number, currency: string): string {
  return isSupportedCurrency(currency) ? formatAmount(amount, currency) : `${amount} ${currency}`;
}

/** 0102694009 → 010269-4009 */
export function formatKennitalaForPrint(kt: string | null): string | null {
  return kt && /^\d{10}$/.test(kt) ? `${kt.slice(0, 6)}-${kt.slice(6)}` : kt;
}
