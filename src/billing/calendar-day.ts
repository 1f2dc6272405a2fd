// A calendar day as a person reads it, in Icelandic or English: "11. mars 2027", "11 Mar 2027".
// Days are UTC calendar days, like every period boundary the service stores. Used by invoice
// documents and by the invoice line descriptions the billing steps write (see docs/invoices.md).
export type CalendarLocale = 'is' | 'en';

const MONTHS: Readonly<Record<CalendarLocale, readonly string[]>> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  is: ['janúar', 'febrúar', 'mars', 'apríl', 'maí', 'júní', 'júlí', 'ágúst', 'september', 'október', 'nóvember', 'desember'],
};

export function formatCalendarDay(d: Date, locale: CalendarLocale): string {
  const day = d.getUTCDate();
  const month = MONTHS[locale][d.getUTCMonth()]!;
  const year = d.getUTCFullYear();
  return locale === 'is' ? `${day}. ${month} ${year}` : `${day} ${month} ${year}`;
}

const SHORT_MONTHS: Readonly<Record<CalendarLocale, readonly string[]>> = {
  en: MONTHS.en,
  is: ['jan.', 'feb.', 'mars', 'apr.', 'maí', 'júní', 'júlí', 'ágú.', 'sep.', 'okt.', 'nóv.', 'des.'],
};

/** A month as a person reads it: "nóv. 2026", "Nov 2026" (from a Date, or "2026-11"). */
export function formatMonth(month: Date | string, locale: CalendarLocale): string {
  const d = typeof month === 'string' ? new Date(`${month}-01T00:00:00.000Z`) : month;
  return `${SHORT_MONTHS[locale][d.getUTCMonth()]!} ${d.getUTCFullYear()}`;
}
