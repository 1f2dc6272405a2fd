import { yup } from '../../validate';
import { VAT_COUNTRIES, VAT_RATE_IDS } from '../../../src/billing';

export const updateVatSettingsSchema = yup.object({
  country: yup.string().oneOf([...VAT_COUNTRIES], `country must be one of ${VAT_COUNTRIES.join(', ')}`),
  default_vat_rate: yup.string().oneOf([...VAT_RATE_IDS], `default_vat_rate must be one of ${VAT_RATE_IDS.join(', ')}`),
  prices_include_vat: yup.boolean(),
});
