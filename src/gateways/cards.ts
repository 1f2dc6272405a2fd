// Pure card-data checks shared by the simulator and (later) checkout's client and server
// validation: number normalisation, the Luhn check, brand detection, expiry and CVC format.
// No I/O; the current time is a parameter.
import type { CardBrand, CardDeclineCode } from './card-acquirer';

const SEPARATORS = /[ \-]/g;

/** The digits of a card number typed with spaces or hyphens, or null if anything else is in it. */
export function normalizeCardNumber(input: string): string | null {
  if (typeof input !== 'string') return null;
  const digits = input.trim().replace(SEPARATORS, '');
  return /^\d+$/.test(digits) ? digits : null;
}

/** The Luhn (mod 10) check over a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

interface BrandRule {
  brand: Exclude<CardBrand, 'unknown'>;
  /** Inclusive ranges over the first `digits` digits of the number. */
  prefixes: ReadonlyArray<readonly [from: number, to: number, digits: number]>;
  lengths: readonly number[];
}

// IIN ranges of the networks we recognise (ISO/IEC 7812 as the networks publish them).
// Order matters only where ranges could overlap; they do not here.
const BRAND_RULES: readonly BrandRule[] = [
  {
    brand: 'amex',
    prefixes: [
      [34, 34, 2],
      [37, 37, 2],
    ],
    lengths: [15],
  },
  {
    brand: 'diners',
    prefixes: [
      [300, 305, 3],
      [36, 36, 2],
      [38, 39, 2],
    ],
    lengths: [14, 15, 16, 17, 18, 19],
  },
  { brand: 'jcb', prefixes: [[3528, 3589, 4]], lengths: [16, 17, 18, 19] },
  { brand: 'visa', prefixes: [[4, 4, 1]], lengths: [13, 16, 19] },
  {
    brand: 'mastercard',
    prefixes: [
      [51, 55, 2],
      [2221, 2720, 4],
    ],
    lengths: [16],
  },
  {
    brand: 'discover',
    prefixes: [
      [6011, 6011, 4],
      [644, 649, 3],
      [65, 65, 2],
    ],
    lengths: [16, 17, 18, 19],
  },
  { brand: 'unionpay', prefixes: [[62, 62, 2]], lengths: [16, 17, 18, 19] },
];

/** The card network by IIN prefix and length; 'unknown' when no rule matches. */
export function detectBrand(digits: string): CardBrand {
  if (!/^\d+$/.test(digits)) return 'unknown';
  for (const rule of BRAND_RULES) {
    if (!rule.lengths.includes(digits.length)) continue;
    for (const [from, to, n] of rule.prefixes) {
      const p = Number(digits.slice(0, n));
      if (p >= from && p <= to) return rule.brand;
    }
  }
  return 'unknown';
}

/** Four-digit year: two-digit years are read as 20YY. */
export function normalizeExpYear(expYear: number): number {
  return expYear >= 0 && expYear < 100 ? 2000 + expYear : expYear;
}

/** A card is valid through the last day of its expiry month (UTC). */
export function isExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = normalizeExpYear(expYear);
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  return year < nowYear || (year === nowYear && expMonth < nowMonth);
}

export interface CardFormatInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc?: string;
  /** Wallet payments carry a cryptogram instead of a CVC, so the CVC is optional for them. */
  wallet?: string;
}

export type CardFormatResult =
  | { ok: true; number: string; brand: CardBrand; last4: string; expMonth: number; expYear: number }
  | { ok: false; code: Extract<CardDeclineCode, 'invalid_number' | 'invalid_expiry' | 'expired_card' | 'invalid_cvc'>; message: string };

/**
 * The checks any acquirer makes before looking at the card itself: number format and Luhn,
 * expiry month/year and not in the past at `now`, CVC format (4 digits for amex, else 3).
 */
export function checkCardFormat(input: CardFormatInput, now: Date): CardFormatResult {
  const number = normalizeCardNumber(input.number);
  if (number === null || number.length < 12 || number.length > 19 || !luhnValid(number)) {
    return { ok: false, code: 'invalid_number', message: 'The card number is not a valid card number.' };
  }
  const brand = detectBrand(number);
  const { expMonth } = input;
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) {
    return { ok: false, code: 'invalid_expiry', message: "The card's expiration month is invalid." };
  }
  if (!Number.isInteger(input.expYear) || input.expYear < 0) {
    return { ok: false, code: 'invalid_expiry', message: "The card's expiration year is invalid." };
  }
  const expYear = normalizeExpYear(input.expYear);
  if (expYear > now.getUTCFullYear() + 50) {
    return { ok: false, code: 'invalid_expiry', message: "The card's expiration year is invalid." };
  }
  if (isExpired(expMonth, expYear, now)) {
    return { ok: false, code: 'expired_card', message: 'The card has expired.' };
  }
  if (input.cvc !== undefined || !input.wallet) {
    const cvcLength = brand === 'amex' ? 4 : 3;
    if (typeof input.cvc !== 'string' || !new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc.trim())) {
      return { ok: false, code: 'invalid_cvc', message: `The card's security code must be ${cvcLength} digits.` };
    }
  }
  return { ok: true, number, brand, last4: number.slice(-4), expMonth, expYear };
}
