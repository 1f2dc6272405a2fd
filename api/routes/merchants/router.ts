import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import type { Auth } from '../../middleware/auth';
import { iso } from '../../../src/objects/iso';

export function merchantsRoutes(router: Router<AppState>, _deps: AppDeps, auth: Auth): void {
  router.get('/v1/merchants/current', auth({ merchantHeaderOptional: true, allowPublishable: () => false }), async (ctx) => {
    // Served from the authenticated key's merchant row (same lookup, cached with it).
    const a = ctx.state.auth!;
    ctx.body = { id: a.merchantId, name: a.merchantName, created_at: iso(a.merchantCreatedAt) };
  });
}
