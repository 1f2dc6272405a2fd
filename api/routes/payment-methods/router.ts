import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { detachPaymentMethod, findPaymentMethod, listPaymentMethods, setDefaultPaymentMethod } from '../../../src/domain/payment-methods/manage-payment-methods';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listPaymentMethodsQuery } from './schemas';
import { presentPaymentMethod } from '../../../src/objects/payment-methods';

export function paymentMethodsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.get('/v1/payment_methods', auth(), async (ctx) => {
    const q = parseQuery(listPaymentMethodsQuery, ctx.query);
    const page = await listPaymentMethods(dbOf(ctx), { customerId: q.customer }, pageParams(ctx.query));
    ctx.body = { data: page.data.map((v) => presentPaymentMethod(v.paymentMethod, v.isDefault)), has_more: page.hasMore };
  });

  router.get('/v1/payment_methods/:id', auth(), async (ctx) => {
    const v = await findPaymentMethod(dbOf(ctx), pathId(ctx.params.id));
    ctx.body = presentPaymentMethod(v.paymentMethod, v.isDefault);
  });

  router.delete('/v1/payment_methods/:id', auth(), tx, async (ctx) => {
    const { id } = await detachPaymentMethod(dbOf(ctx), pathId(ctx.params.id), new Date());
    ctx.body = { id, object: 'payment_method', deleted: true };
  });

  router.post('/v1/payment_methods/:id/set_default', auth(), tx, async (ctx) => {
    const v = await setDefaultPaymentMethod(dbOf(ctx), pathId(ctx.params.id));
    ctx.body = presentPaymentMethod(v.paymentMethod, v.isDefault);
  });
}
