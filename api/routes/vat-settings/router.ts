// The merchant's VAT settings for the key's mode (docs/vat.md):
//   GET  /v1/vat_settings   country, default_vat_rate, prices_include_vat and the country's rates
//   POST /v1/vat_settings   any of the three; applies to invoices built from now on
import { area, route, secretKey } from '../../route';
import { dbOf, tenantOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { getVatSettings, updateVatSettings } from '../../../src/domain/vat/vat-settings';
import { presentVatSettings } from '../../../src/objects/vat-settings';
import { parseBody } from '../../validate';
import { updateVatSettingsSchema } from './schemas';

export const vatSettingsRoutes = area('vat-settings', [
  route({
    method: 'get',
    path: '/v1/vat_settings',
    operationId: 'retrieveVatSettings',
    tag: 'VAT',
    summary: 'VAT settings',
    description:
      "Returns the merchant's VAT settings in the key's mode: `country`, `default_vat_rate` (the rate of a line whose price and product name none) and `prices_include_vat`, with the country's rates in percent. A merchant that never saved settings gets the defaults (IS, standard, prices include VAT). Reads only.",
    response: 'VatSettings',
    ...secretKey(),
    handler: () => async (ctx) => {
      ctx.body = presentVatSettings(await getVatSettings(dbOf(ctx)));
    },
  }),
  route({
    method: 'post',
    path: '/v1/vat_settings',
    operationId: 'updateVatSettings',
    tag: 'VAT',
    summary: 'Update VAT settings',
    description:
      "Changes any of `country`, `default_vat_rate` and `prices_include_vat` in the key's mode (fields left out keep their value) and answers the settings with the country's rates. Applies to invoices built from now on; finalized invoices keep the VAT they have. Records no webhook event.",
    auth: 'secret',
    body: updateVatSettingsSchema,
    response: 'VatSettings',
    use: ({ auth, deps }) => [auth(), transactional(deps)],
    handler: () => async (ctx) => {
      const input = parseBody(updateVatSettingsSchema, ctx.state.body);
      ctx.body = presentVatSettings(await updateVatSettings(dbOf(ctx), tenantOf(ctx), input));
    },
  }),
]);
