// What never reaches a log line: API keys (sk_/pk_/rk_), webhook endpoint secrets (whsec_),
// bearer tokens, card numbers (any 12–19 digit run starting 2–6, spaces or dashes allowed, passing the
// Luhn check), and the values of fields named like a secret (password, token, cvc, cookie, …).
// Applied by the logger to every message and every string field (src/observability/logger.ts).

export const REDACTED = '[redacted]';

const KEY_PATTERN = /\b(?:sk|pk|rk)_(?:test|live)_[A-Za-z0-9]{8,}|\bwhsec_[A-Za-z0-9_-]{8,}/g;
const BEARER_PATTERN = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
/** Card numbers start with 2–6 (Visa, Mastercard, Amex, Discover, JCB, UnionPay, Maestro); millisecond timestamps start with 1. */
const CARD_PATTERN = /\b[2-6](?:[ -]?\d){11,18}\b/g;
/** `password=…`, `"token":"…"`, `cvc: 123` inside free text. */
const SECRET_ASSIGNMENT = /\b((?:[a-z_]*password|[a-z_]*secret|[a-z_]*token|cvc|cvv|authorization|cookie)["']?\s*[:=]\s*["']?)([^\s"',;&}]+)/gi;

/** Field names whose values are never logged, whatever they hold. */
export const SECRET_FIELD =
  /^(?:authorization|cookie|set-cookie|password|new_password|current_password|secret|client_secret|webhook_secret|api_token|access_token|refresh_token|token|session|session_token|cvc|cvv|card_number|pan|totp|otp|code_verifier)$/i;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The text with every key, token, secret and card number replaced by [redacted]. */
export function redactText(text: string): string {
  if (!text) return text;
  return text
    .replace(KEY_PATTERN, REDACTED)
    .replace(BEARER_PATTERN, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(SECRET_ASSIGNMENT, (_m, name: string) => `${name}${REDACTED}`)
    .replace(CARD_PATTERN, (run) => {
      const digits = run.replace(/[ -]/g, '');
      return digits.length >= 12 && digits.length <= 19 && luhnValid(digits) ? REDACTED : run;
    });
}

/** A copy of a log record's fields with secret-named fields dropped to [redacted] and strings scrubbed. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) return { type: value.name, message: redactText(value.message), stack: value.stack ? redactText(value.stack) : undefined };
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) && v != null && v !== '' ? REDACTED : redactValue(v, depth + 1);
  return out;
}
