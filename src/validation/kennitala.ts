// Icelandic national id (kennitala): DDMMYY + two sequence digits + check digit + century digit.
// Persons carry their birth date; companies and other legal entities carry their registration
// date with 40 added to the day (41–71).
//
// Accepted input: `DDMMYYNNNN`, `DDMMYY-NNNN` or `DDMMYY NNNN` (one hyphen or one space after
// the sixth digit), surrounding whitespace ignored. Stored form: the ten digits only.
//
// Check digit (9th digit): weights 3,2,7,6,5,4,3,2 over the first eight digits,
// r = sum mod 11, check = 11 − r; r = 0 gives 0, and a result of 10 is never issued.
//
// Registers Iceland (Þjóðskrá) stopped computing the check digit for persons and system ids
// issued from 18 February 2026 (skra.is, "Kennitölur án vartölu"), so genuine new kennitölur
// may fail it. `checkDigit: 'ignore'` keeps every other rule and skips that one.

export type KennitalaKind = 'person' | 'company';

export type KennitalaResult = { ok: true; value: string; kind: KennitalaKind } | { ok: false; message: string };

export interface KennitalaOptions {
  /** `'enforce'` (default) rejects a wrong 9th digit; `'ignore'` accepts any 9th digit. */
  checkDigit?: 'enforce' | 'ignore';
}

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;
const INPUT_FORMAT = /^(\d{6})[- ]?(\d{4})$/;
const CENTURY_BY_DIGIT: Readonly<Record<string, number>> = { '8': 1800, '9': 1900, '0': 2000 };
const COMPANY_DAY_OFFSET = 40;

/** Check digit for the first eight digits, or null when the sum leaves remainder 1 (check 10). */
export function kennitalaCheckDigit(firstEight: string): number | null {
  if (!/^\d{8}$/.test(firstEight)) throw new RangeError('kennitalaCheckDigit needs exactly 8 digits');
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += WEIGHTS[i] * Number(firstEight[i]);
  const remainder = sum % 11;
  if (remainder === 0) return 0;
  const check = 11 - remainder;
  return check === 10 ? null : check;
}

/**
 * The service's one kennitala rule, used by the API (customers), the bank-claim simulator and
 * the bank-claim step alike, so a kennitala the API accepted is never refused by our own checks
 * later: format, calendar date, day range and century digit are checked; the check digit is
 * NOT (Registers Iceland stopped issuing it for new personal ids on 18 February 2026 and asks
 * that it not be verified; docs/catalog.md). What a bank may still refuse (a payer it does not
 * know, a closed account) is the bank's answer, handled as a refusal (docs/subscriptions.md).
 */
export const KENNITALA_CHECK_DIGIT = 'ignore' as const;

/** validateKennitala under the service's rule (KENNITALA_CHECK_DIGIT). */
export function checkKennitala(input: string): KennitalaResult {
  return validateKennitala(input, { checkDigit: KENNITALA_CHECK_DIGIT });
}

export function validateKennitala(input: string, options: KennitalaOptions = {}): KennitalaResult {
  const match = INPUT_FORMAT.exec(input.trim());
  if (!match) {
    return { ok: false, message: 'kennitala must be 10 digits, written DDMMYYNNNN, DDMMYY-NNNN or DDMMYY NNNN' };
  }
  const digits = match[1] + match[2];

  const centuryBase = CENTURY_BY_DIGIT[digits[9]];
  if (centuryBase === undefined) {
    return { ok: false, message: 'kennitala century digit (the last digit) must be 9, 0 or 8' };
  }

  const dayField = Number(digits.slice(0, 2));
  const month = Number(digits.slice(2, 4));
  const year = centuryBase + Number(digits.slice(4, 6));
  let kind: KennitalaKind;
  let day: number;
  if (dayField >= 1 && dayField <= 31) {
    kind = 'person';
    day = dayField;
  } else if (dayField >= 1 + COMPANY_DAY_OFFSET && dayField <= 31 + COMPANY_DAY_OFFSET) {
    kind = 'company';
    day = dayField - COMPANY_DAY_OFFSET;
  } else {
    return { ok: false, message: 'kennitala day must be 01–31 for a person or 41–71 for a company' };
  }
  if (month < 1 || month > 12) {
    return { ok: false, message: 'kennitala month must be 01–12' };
  }
  if (!isCalendarDate(year, month, day)) {
    return { ok: false, message: `kennitala date ${pad(day)}.${pad(month)}.${year} does not exist` };
  }

  if ((options.checkDigit ?? 'enforce') === 'enforce') {
    const expected = kennitalaCheckDigit(digits.slice(0, 8));
    if (expected === null) {
      return { ok: false, message: 'kennitala is invalid: no check digit exists for its first eight digits' };
    }
    if (expected !== Number(digits[8])) {
      return { ok: false, message: 'kennitala check digit (the 9th digit) does not match' };
    }
  }
  return { ok: true, value: digits, kind };
}

/** `DDMMYY-NNNN`, the customary printed form of a stored (digits-only) kennitala. */
export function formatKennitala(digits: string): string {
  if (!/^\d{10}$/.test(digits)) throw new RangeError('formatKennitala needs the 10-digit stored form');
  return `${digits.slice(0, 6)}-${digits.slice(6)}`;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
