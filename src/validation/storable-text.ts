// PostgreSQL refuses two things JavaScript strings can hold: NUL (in text and jsonb) and lone
// UTF-16 surrogates (JSON.stringify writes them as \udXXX escapes, which jsonb rejects). Both
// would surface as a 500, so input holding them is refused as validation_failed instead.

// The rule for strings is written once, in ./text.ts; this module adds the one for JSON text.
export { isStorableText } from './text';

// In JSON.stringify output a NUL or a lone surrogate appears as an escape preceded by an even
// number of backslashes (an odd number means the backslash itself was escaped).
const BAD_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** For JSON text produced by JSON.stringify: true when jsonb will accept it. */
export function isStorableJsonText(json: string): boolean {
  return !BAD_ESCAPE.test(json);
}
