// Dates as documents print them: UTC calendar days. Amounts are formatMoney's (src/billing/currency.ts:
// the currency's own style, ISK without decimals, "12.990 kr.").
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

/** 0102694009 → 010269-4009 */
export function formatKennitalaForPrint(kt: string | null): string | null {
  return kt && /^\d{10}$/.test(kt) ? `${kt.slice(0, 6)}-${kt.slice(6)}` : kt;
}
