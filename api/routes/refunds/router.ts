import Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { dispatchEvents } from '../../../src/events';
import { createRefund } from '../../../src/domain/refunds/create-refund';
import { findRefund, listRefunds } from '../../../src/domain/refunds/find-refunds';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createRefundSchema, listRefundsQuery } from './schemas';
import { presentRefund } from '../../../src/objects/refunds';

export function refundsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/refunds', auth(), tx, async (ctx) => {
    const input = parseBody(createRefundSchema, ctx.state.body);
    const tenant = tenantOf(ctx);
    const { refund, events } = await createRefund(dbOf(ctx), tenant, { paymentId: input.payment, amount: input.amount, reason: input.reason, metadata: input.metadata });
    ctx.state.afterCommit.push(async () => {
      await dispatchEvents(deps, events);
      // If this fails (Temporal down) the refund stays pending; docs/payments.md says how it is repaired.
      await deps.workflows.refund.start({ refundId: refund.id, merchantId: tenant.merchantId, mode: tenant.mode });
    });
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
