// The merchant's business details printed on invoice documents: legal name, kennitala, VAT
// number, address and support e-mail. One row per merchant (the same in test and live mode);
// no row means nothing set yet, and documents then show the merchant's name only. Managed with
// `billing merchants details` (boot/cli.ts) and the dashboard's Settings: both call these.
import type { Db } from '../../db/client';
import type { TenantDb } from '../../db/tenancy';
import type { MerchantBusinessDetails } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { KENNITALA_CHECK_DIGIT, normalizeCountryCode, validateEmail, validateKennitala } from '../../validation';
import { isStorableText, longerThan } from '../../validation/text';

export interface BusinessDetails {
  legalName: string | null;
  kennitala: string | null;
  vatNumber: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  supportEmail: string | null;
}

export type BusinessDetailsPatch = Partial<BusinessDetails>;

const EMPTY: BusinessDetails = {
  legalName: null,
  kennitala: null,
  vatNumber: null,
  addressLine1: null,
  addressLine2: null,
  postalCode: null,
  city: null,
  country: null,
  supportEmail: null,
};
const MAX_LENGTH: Record<keyof BusinessDetails, number> = {
  legalName: 200,
  kennitala: 11,
  vatNumber: 40,
  addressLine1: 200,
  addressLine2: 200,
  postalCode: 20,
  city: 100,
  country: 2,
  supportEmail: 254,
};
/** Parameter names as the CLI and the dashboard show them. */
export const BUSINESS_DETAIL_PARAMS: Record<keyof BusinessDetails, string> = {
  legalName: 'legal_name',
  kennitala: 'kennitala',
  vatNumber: 'vat_number',
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  postalCode: 'postal_code',
  city: 'city',
  country: 'country',
  supportEmail: 'support_email',
};

function pick(row: MerchantBusinessDetails | null): BusinessDetails {
  if (!row) return { ...EMPTY };
  const { merchantId: _m, updatedAt: _u, ...rest } = row;
  return rest;
}

export async function getBusinessDetails(db: Db | TenantDb, merchantId: string): Promise<BusinessDetails> {
  return pick(await db.merchantBusinessDetails.findUnique({ where: { merchantId } }));
}

/** Checks and normalises a patch: trimmed text, '' or null clears, kennitala/e-mail/country checked. */
export function normalizeBusinessDetails(patch: BusinessDetailsPatch): BusinessDetailsPatch {
  const out: BusinessDetailsPatch = {};
  for (const key of Object.keys(patch) as Array<keyof BusinessDetails>) {
    if (!(key in MAX_LENGTH)) continue;
    const raw = patch[key];
    const param = BUSINESS_DETAIL_PARAMS[key];
    if (raw === undefined) continue;
    if (raw !== null && typeof raw !== 'string') throw errors.validationFailed(`${param} must be a string`, param);
    const value = raw === null ? null : raw.trim() === '' ? null : raw.trim();
    if (value === null) {
      out[key] = null;
      continue;
    }
    if (!isStorableText(value)) throw errors.validationFailed(`${param} must not contain NUL characters or invalid Unicode`, param);
    if (key === 'kennitala') {
      const r = validateKennitala(value, { checkDigit: KENNITALA_CHECK_DIGIT });
      if (!r.ok) throw errors.validationFailed(r.message, param);
      out.kennitala = r.value;
      continue;
    }
    if (key === 'supportEmail') {
      const r = validateEmail(value);
      if (!r.ok) throw errors.validationFailed(`${param} is invalid: ${r.message}`, param);
      out.supportEmail = r.value;
      continue;
    }
    if (key === 'country') {
      const code = normalizeCountryCode(value);
      if (code === null) throw errors.validationFailed(`${param} must be an ISO 3166-1 alpha-2 country code such as IS`, param);
      out.country = code;
      continue;
    }
    if (longerThan(value, MAX_LENGTH[key])) throw errors.validationFailed(`${param} must be at most ${MAX_LENGTH[key]} characters`, param);
    out[key] = value;
  }
  return out;
}

/** Sets the given fields (others unchanged); returns the details as they are afterwards. */
export async function updateBusinessDetails(db: Db, merchantId: string, patch: BusinessDetailsPatch): Promise<BusinessDetails> {
  const merchant = await db.merchant.findUnique({ where: { id: merchantId }, select: { id: true } });
  if (!merchant) throw errors.resourceMissing(`No such merchant: '${merchantId}'`, 'merchant');
  const data = normalizeBusinessDetails(patch);
  const row = await db.merchantBusinessDetails.upsert({ where: { merchantId }, create: { merchantId, ...data }, update: data });
  return pick(row);
}
