// Semantic checks and normal forms for customer fields, shared by create and update. The edge
// (api/routes/customers/schemas.ts) has already checked types and lengths; here the values are
// checked for meaning: e-mail format, kennitala, ISO country, supported currency, metadata.
import { validateEmail, checkKennitala, normalizeCountryCode, type Metadata } from '../../validation';
import { isSupportedCurrency } from '../../billing/currency';
import { errors } from '../../errors';
import { metadataOrThrow } from '../checks/metadata';

/** Fields as the API names them (flat address), all optional; `null` clears an optional field. */
export interface CustomerFieldsInput {
  email?: string;
  name?: string | null;
  phone?: string | null;
  kennitala?: string | null;
  external_id?: string | null;
  vat_number?: string | null;
  currency?: string | null;
  metadata?: Record<string, unknown> | null;
  billing_address_line1?: string | null;
  billing_address_line2?: string | null;
  billing_city?: string | null;
  billing_postal_code?: string | null;
  billing_country?: string | null;
}

/** Prisma column values for the supplied fields only (absent fields are left out). */
export interface CustomerColumns {
  email?: string;
  name?: string | null;
  phone?: string | null;
  kennitala?: string | null;
  externalId?: string | null;
  vatNumber?: string | null;
  currency?: string | null;
  metadata?: Metadata;
  billingAddressLine1?: string | null;
  billingAddressLine2?: string | null;
  billingCity?: string | null;
  billingPostalCode?: string | null;
  billingCountry?: string | null;
}

/** Empty or whitespace-only optional text is stored as null. */
function optionalText(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

export function customerColumns(input: CustomerFieldsInput): CustomerColumns {
  const out: CustomerColumns = {};
  if (input.email !== undefined) {
    const r = validateEmail(input.email);
    if (!r.ok) throw errors.validationFailed(`email is invalid: ${r.message}`, 'email');
    out.email = r.value;
  }
  if (input.kennitala !== undefined) {
    const raw = optionalText(input.kennitala);
    if (raw === null || raw === undefined) out.kennitala = null;
    else {
      // The service's one kennitala rule (src/validation/kennitala.ts, docs/catalog.md).
      const r = checkKennitala(raw);
      if (!r.ok) throw errors.validationFailed(r.message, 'kennitala');
      out.kennitala = r.value;
    }
  }
  if (input.billing_country !== undefined) {
    const raw = optionalText(input.billing_country);
    if (raw === null || raw === undefined) out.billingCountry = null;
    else {
      const code = normalizeCountryCode(raw);
      if (code === null) throw errors.validationFailed('billing_country must be an ISO 3166-1 alpha-2 country code such as IS', 'billing_country');
      out.billingCountry = code;
    }
  }
  if (input.currency !== undefined) {
    const raw = optionalText(input.currency);
    if (raw === null || raw === undefined) out.currency = null;
    else {
      const code = raw.toUpperCase();
      if (!isSupportedCurrency(code)) throw errors.validationFailed(`currency ${raw} is not supported`, 'currency');
      out.currency = code;
    }
  }
  if (input.metadata !== undefined) out.metadata = metadataOrThrow(input.metadata);
  const plain: Array<[keyof CustomerFieldsInput, keyof CustomerColumns]> = [
    ['name', 'name'],
    ['phone', 'phone'],
    ['vat_number', 'vatNumber'],
    ['billing_address_line1', 'billingAddressLine1'],
    ['billing_address_line2', 'billingAddressLine2'],
    ['billing_city', 'billingCity'],
    ['billing_postal_code', 'billingPostalCode'],
  ];
  for (const [from, to] of plain) {
    const v = input[from] as string | null | undefined;
    if (v !== undefined) (out as Record<string, unknown>)[to] = optionalText(v);
  }
  // external_id is the merchant's own key: stored exactly as given (no trimming), as the contract says.
  if (input.external_id !== undefined) out.externalId = input.external_id === '' ? null : input.external_id;
  return out;
}
