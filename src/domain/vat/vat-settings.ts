// The merchant's VAT settings per mode (docs/vat.md): country, default rate identifier, and
// whether prices include VAT. A merchant without a row has the defaults (IS, standard,
// prices include VAT), so invoices of merchants who never touched VAT are unchanged.
import type { Tenant, TenantDb } from '../../db/tenancy';
import { errors } from '../../errors';
import type { VatSettingsView } from '../../objects/vat-settings';
import { isVatCountry, isVatRateId, type VatCountry, type VatRateId } from '../../billing';

export type { VatSettingsView };

export const DEFAULT_VAT_SETTINGS: VatSettingsView = { country: 'IS', defaultVatRate: 'standard', pricesIncludeVat: true };

export async function getVatSettings(db: TenantDb): Promise<VatSettingsView> {
  return vatSettingsOf(await db.vatSettings.findFirst({}));
}

/** The settings a row holds (the defaults without a row). */
export function vatSettingsOf(row: { country: string; defaultVatRate: string; pricesIncludeVat: boolean } | null): VatSettingsView {
  if (!row) return { ...DEFAULT_VAT_SETTINGS };
  return {
    country: isVatCountry(row.country) ? row.country : DEFAULT_VAT_SETTINGS.country,
    defaultVatRate: isVatRateId(row.defaultVatRate) ? row.defaultVatRate : DEFAULT_VAT_SETTINGS.defaultVatRate,
    pricesIncludeVat: row.pricesIncludeVat,
  };
}

export interface UpdateVatSettingsInput {
  country?: string;
  default_vat_rate?: string;
  prices_include_vat?: boolean;
}

/** Changes apply to invoices built from now on; finalized invoices keep the VAT they have. */
export async function updateVatSettings(db: TenantDb, tenant: Tenant, input: UpdateVatSettingsInput): Promise<VatSettingsView> {
  if (input.country !== undefined && !isVatCountry(input.country)) throw errors.validationFailed('country must be one of: IS', 'country');
  if (input.default_vat_rate !== undefined && !isVatRateId(input.default_vat_rate)) {
    throw errors.validationFailed('default_vat_rate must be standard, reduced or exempt', 'default_vat_rate');
  }
  const current = await getVatSettings(db);
  const next: VatSettingsView = {
    country: (input.country as VatCountry | undefined) ?? current.country,
    defaultVatRate: (input.default_vat_rate as VatRateId | undefined) ?? current.defaultVatRate,
    pricesIncludeVat: input.prices_include_vat ?? current.pricesIncludeVat,
  };
  const data = { country: next.country, defaultVatRate: next.defaultVatRate, pricesIncludeVat: next.pricesIncludeVat };
  await db.vatSettings.upsert({
    where: { merchantId_mode: { merchantId: tenant.merchantId, mode: tenant.mode } },
    create: { merchantId: tenant.merchantId, mode: tenant.mode, ...data },
    update: data,
  });
  return next;
}

/** The rate identifier of a line: the price's, else the product's, else the merchant's default. */
export function lineVatRate(settings: VatSettingsView, ...candidates: Array<string | null | undefined>): VatRateId {
  for (const c of candidates) if (isVatRateId(c)) return c;
  return settings.defaultVatRate;
}
