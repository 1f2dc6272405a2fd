// yup field builders shared by every route's schemas. Bodies are validated strictly
// (api/validate.ts): no coercion. Lengths count characters as Unicode code points.
import { yup } from './validate';
import { isStorableText, longerThan } from '../src/validation/text';
import { SUPPORTED_CURRENCIES } from '../src/billing/currency';
import { VAT_RATE_IDS } from '../src/billing';
import { METADATA_LIMITS } from '../src/validation/metadata';

/** A string of at most `max` characters that PostgreSQL can store (no NUL, no lone surrogate). */
export function text(max: number) {
  return (
    yup
      .string()
      // Named `max` with its bound as a param, so the OpenAPI document shows maxLength (api/openapi/).
      .test({ name: 'max', message: `\${path} must be at most ${max} characters`, params: { max }, test: (v) => v === undefined || v === null || !longerThan(v, max) })
      .test('storable', '${path} must not contain NUL characters or invalid Unicode', (v) => v === undefined || v === null || isStorableText(v))
  );
}

/**
 * Any JSON value here; the domain applies the metadata rules (src/validation/metadata.ts). The
 * OpenAPI document gives its shape: an object of string values (in an update, a `null` value
 * removes its key and `metadata: null` removes them all).
 */
export function metadataField() {
  return yup
    .mixed<Record<string, string>>()
    .nullable()
    .meta({
      jsonSchema: {
        type: ['object', 'null'],
        propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.maxKeyLength, pattern: '^[^\\[\\]]+$' },
        additionalProperties: { type: ['string', 'null'], maxLength: METADATA_LIMITS.maxValueLength },
        maxProperties: METADATA_LIMITS.maxKeys,
        description: `Keys to string values (at most ${METADATA_LIMITS.maxKeys}). In an update a key set to null is removed, and \`metadata: null\` removes every key.`,
      },
    });
}

/** A non-negative safe integer (amounts in minor units, units). */
export function wholeNumber() {
  return yup.number().integer('${path} must be an integer').min(0, '${path} must be at least 0').max(Number.MAX_SAFE_INTEGER, '${path} is too large');
}

/** A positive safe integer in the currency's minor unit. */
export function positiveAmount() {
  return yup.number().integer('${path} must be an integer').min(1, '${path} must be at least 1').max(Number.MAX_SAFE_INTEGER, '${path} is too large');
}

/** A supported ISO 4217 code, any letter case (callers upper-case it). */
export function currencyField() {
  return yup
    .string()
    .test(
      'currency',
      `\${path} must be one of ${SUPPORTED_CURRENCIES.join(', ')}`,
      (v) => v === undefined || v === null || (SUPPORTED_CURRENCIES as readonly string[]).includes(v.toUpperCase()),
    );
}

/** An object id referenced in a body or query: bounded, id charset (anything else cannot exist). */
export function idField() {
  return yup
    .string()
    .max(255, '${path} must be at most 255 characters')
    .matches(/^[A-Za-z0-9_-]+$/, { message: '${path} must be an object id', excludeEmptyString: false });
}

/** A VAT rate identifier (docs/vat.md) or null for the default. */
export function vatRateField() {
  return yup
    .string()
    .nullable()
    .oneOf([...VAT_RATE_IDS, null], '${path} must be one of standard, reduced, exempt (or null for the default)');
}
