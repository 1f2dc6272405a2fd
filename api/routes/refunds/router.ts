import { areaOf } from '../../route';
import { dbOf, scopeOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { refundPayment } from '../../../src/domain/refunds/refund-payment';
import { findRefund, listRefunds } from '../../../src/domain/refunds/find-refunds';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { createRefundSchema, listRefundsQuery } from './schemas';
import { presentRefund } from '../../../src/objects/refunds';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const refundsRoutes = area('refunds', [
  route({
    method: 'post',
    path: '/v1/refunds',
    operationId: 'createRefund',
    tag: 'Payments',
    summary: 'Refund a payment (in full or in part)',
    auth: 'secret',
    body: createRefundSchema,
    status: 201,
    response: 'Refund',
    errors: ['invalid_state'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(createRefundSchema, ctx.state.body);
        const refund = await refundPayment(deps, scopeOf(ctx), { paymentId: input.payment, amount: input.amount, reason: input.reason, metadata: input.metadata });
        ctx.status = 201;
        ctx.body = presentRefund(refund);
      },
  }),
  route({
    method: 'get',
    path: '/v1/refunds',
    operationId: 'listRefunds',
    tag: 'Payments',
    summary: 'List refunds',
    auth: 'secret',
    query: listRefundsQuery,
    list: 'Refund',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listRefundsQuery, ctx.query);
      const page = await listRefunds(dbOf(ctx), { paymentId: q.payment }, pageParams(ctx.query));
      ctx.body = { data: page.data.map(presentRefund), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/refunds/:id',
    operationId: 'retrieveRefund',
    tag: 'Payments',
    summary: 'Retrieve a refund',
    auth: 'secret',
    response: 'Refund',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentRefund(await findRefund(dbOf(ctx), pathId(ctx.params.id)));
    },
  }),
]);
