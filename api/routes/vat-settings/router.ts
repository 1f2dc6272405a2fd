// The merchant's VAT settings for the key's mode (docs/vat.md):
//   GET  /v1/vat_settings   country, default_vat_rate, prices_include_vat and the country's rates
//   POST /v1/vat_settings   any of the three; applies to invoices built from now on
import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { getVatSettings, updateVatSettings } from '../../../src/domain/vat/vat-settings';
import { presentVatSettings } from '../../../src/objects/vat-settings';
import { parseBody } from '../../validate';
import { updateVatSettingsSchema } from './schemas';

export function vatSettingsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  router.get('/v1/vat_settings', auth(), async (ctx) => {
    ctx.body = presentVatSettings(await getVatSettings(dbOf(ctx)));
  });

  router.post('/v1/vat_settings', auth(), transactional(deps), async (ctx) => {
    const input = parseBody(updateVatSettingsSchema, ctx.state.body);
    ctx.body = presentVatSettings(await updateVatSettings(dbOf(ctx), tenantOf(ctx), input));
  });
}
