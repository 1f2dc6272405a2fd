// Text rules shared by every input check: what a string may hold, how its length is counted,
// and how a rejected value may appear in an error message. One module, so the API edge, the
// schemas and the domain agree.
//
// - Length counts Unicode code points (as PostgreSQL counts characters), not UTF-16 units:
//   "😀" is one character.
// - Storable text has no NUL (PostgreSQL text and jsonb cannot hold it) and no lone UTF-16
//   surrogate (not valid Unicode; jsonb refuses its escape).
// - An error message never carries a rejected value beyond `excerpt()`: at most a few dozen
//   characters, with control characters and lone surrogates escaped.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Number of Unicode code points (a valid surrogate pair counts once). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** True when `s` has more than `max` code points (cheap when s.length ≤ max). */
export function longerThan(s: string, max: number): boolean {
  return s.length > max && codePointLength(s) > max;
}

export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/** True when the string can be stored in a text or jsonb column unchanged. */
export function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/** Why `s` is not storable text, or null: names the rule, never the value. */
export function storableTextProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode (it holds a lone UTF-16 surrogate)';
  return null;
}

const EXCERPT_DEFAULT = 32;

/**
 * A short, printable rendering of a (rejected) value for an error message: at most `max` code
 * points of it, control characters, quotes, backslashes and lone surrogates escaped as in JSON,
 * "…" when cut. Never throws, whatever the value.
 */
export function excerpt(value: unknown, max = EXCERPT_DEFAULT): string {
  const s = typeof value === 'string' ? value : String(value);
  let out = '';
  let taken = 0;
  for (let i = 0; i < s.length; i++) {
    if (taken >= max) return `${out}…`;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
        taken++;
        continue;
      }
    }
    if (c < 0x20 || c === 0x7f || (c >= 0xd800 && c <= 0xdfff)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else out += s[i]!;
    taken++;
  }
  return out;
}

/** `text` cut to at most `max` code points (with "…"), control characters and lone surrogates escaped. */
export function boundedText(text: string, max: number): string {
  if (text.length <= max && !/[\u0000-\u001f\u007f]/.test(text) && !LONE_SURROGATE.test(text)) return text;
  let out = '';
  let taken = 0;
  for (let i = 0; i < text.length; i++) {
    if (taken >= max) return `${out}…`;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
        taken++;
        continue;
      }
    }
    if (c === 0x0a) out += ' ';
    else if (c < 0x20 || c === 0x7f || (c >= 0xd800 && c <= 0xdfff)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += text[i]!;
    taken++;
  }
  return out;
}
