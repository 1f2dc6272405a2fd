// A pragmatic e-mail format check: it accepts the addresses people actually type and rejects
// obvious mistakes; whether the mailbox exists is a question for delivery, not for this check.
//
// Accepted, after trimming surrounding whitespace:
// - exactly one `@`, at most 254 characters in all;
// - local part: 1–64 characters of ASCII letters, digits and ! # $ % & ' * + / = ? ^ _ ` { | } ~ -
//   and dots, with no leading, trailing or doubled dot (RFC 5321 "dot-atom");
// - domain: two or more dot-separated labels, each 1–63 characters of letters, digits and
//   hyphens, not starting or ending with a hyphen; letters may be non-ASCII (internationalised
//   domains such as `dæmi.is`); the last label (top-level domain) is not all digits.
// Rejected: any whitespace or control character inside, quoted local parts ("a b"@x.is),
// IP-literal domains (a@[10.0.0.1]), single-label domains (a@localhost), non-ASCII local parts.
// Case is preserved: the local part is case-sensitive in principle, so the value is stored as given.

import { codePointLength } from './text';

export type EmailResult = { ok: true; value: string } | { ok: false; message: string };

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_LOCAL_MAX_LENGTH = 64;

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
const ALL_DIGITS = /^\d+$/;

export function validateEmail(input: string): EmailResult {
  const value = input.trim();
  if (value.length === 0) return { ok: false, message: 'e-mail address is empty' };
  if (codePointLength(value) > EMAIL_MAX_LENGTH) {
    return { ok: false, message: `e-mail address must be at most ${EMAIL_MAX_LENGTH} characters` };
  }
  if (/[\s\p{Cc}]/u.test(value)) return { ok: false, message: 'e-mail address must not contain spaces' };

  const at = value.indexOf('@');
  if (at === -1 || at !== value.lastIndexOf('@')) {
    return { ok: false, message: 'e-mail address must contain exactly one "@"' };
  }
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);

  if (local.length === 0 || local.length > EMAIL_LOCAL_MAX_LENGTH) {
    return { ok: false, message: `e-mail local part must be 1–${EMAIL_LOCAL_MAX_LENGTH} characters` };
  }
  if (!LOCAL_PART.test(local)) return { ok: false, message: 'e-mail local part contains an invalid character or dot' };

  const labels = domain.split('.');
  if (labels.length < 2) return { ok: false, message: 'e-mail domain must contain a dot, as in example.is' };
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) {
    return { ok: false, message: 'e-mail domain is not a valid host name' };
  }
  if (ALL_DIGITS.test(labels[labels.length - 1])) {
    return { ok: false, message: 'e-mail domain must end in a top-level domain, not a number' };
  }
  return { ok: true, value };
}

export function isEmail(input: string): boolean {
  return validateEmail(input).ok;
}
