// yup field builders shared by the catalog routes (customers, products, prices, meters, events).
import { yup } from '../../validate';
import { isStorableText } from '../../../src/domain/customers/json-safe';
import { VAT_RATE_IDS } from '../../../src/billing';

/** A string of at most `max` characters without NUL (PostgreSQL text cannot hold it). */
export function text(max: number) {
  return yup
    .string()
    .max(max, `\${path} must be at most ${max} characters`)
    .test('storable', '${path} must not contain NUL characters or invalid Unicode', (v) => v === undefined || v === null || isStorableText(v));
}

/** Any JSON value; the domain checks it (src/validation metadata rules). */
export function metadataField() {
  return yup.mixed<Record<string, unknown>>().nullable();
}

/** A non-negative safe integer (amounts in minor units, units). */
export function wholeNumber() {
  return yup
    .number()
    .integer('${path} must be an integer')
    .min(0, '${path} must be at least 0')
    .max(Number.MAX_SAFE_INTEGER, '${path} is too large');
}

/** An object id referenced in a body: bounded, id charset (anything else cannot exist). */
export function idField() {
  return yup
    .string()
    .max(255, '${path} must be at most 255 characters')
    .matches(/^[A-Za-z0-9_-]+$/, { message: '${path} must be an object id', excludeEmptyString: false });
}

/** A VAT rate identifier (docs/vat.md) or null for the default. */
export function vatRateField() {
  return yup.string().nullable().oneOf([...VAT_RATE_IDS, null], '${path} must be one of standard, reduced, exempt (or null for the default)');
}
