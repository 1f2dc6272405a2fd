import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, scopeOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { refundPayment } from '../../../src/domain/refunds/refund-payment';
import { findRefund, listRefunds } from '../../../src/domain/refunds/find-refunds';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createRefundSchema, listRefundsQuery } from './schemas';
import { presentRefund } from '../../../src/objects/refunds';

export function refundsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/refunds', auth(), tx, async (ctx) => {
    const input = parseBody(createRefundSchema, ctx.state.body);
    const refund = await refundPayment(deps, scopeOf(ctx), { paymentId: input.payment, amount: input.amount, reason: input.reason, metadata: input.metadata });
    ctx.status = 201;
    ctx.body = presentRefund(refund);
  });

  router.get('/v1/refunds', auth(), async (ctx) => {
    const q = parseQuery(listRefundsQuery, ctx.query);
    const page = await listRefunds(dbOf(ctx), { paymentId: q.payment }, pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentRefund), has_more: page.hasMore };
  });

  router.get('/v1/refunds/:id', auth(), async (ctx) => {
    ctx.body = presentRefund(await findRefund(dbOf(ctx), pathId(ctx.params.id)));
  });
}
