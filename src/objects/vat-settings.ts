// VAT settings as the API returns them (GET/POST /v1/vat_settings).
import { basisPointsToPercent, vatRatesOf, type VatCountry, type VatRateId } from '../billing';

export interface VatSettingsView {
  country: VatCountry;
  defaultVatRate: VatRateId;
  pricesIncludeVat: boolean;
}

export function presentVatSettings(s: VatSettingsView) {
  return {
    object: 'vat_settings',
    country: s.country,
    default_vat_rate: s.defaultVatRate,
    prices_include_vat: s.pricesIncludeVat,
    rates: vatRatesOf(s.country).map((r) => ({ id: r.rate, percent: basisPointsToPercent(r.basisPoints) })),
  };
}
