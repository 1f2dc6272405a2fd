import { areaOf } from '../../route';
import { dbOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { detachPaymentMethod, findPaymentMethod, listPaymentMethods, setDefaultPaymentMethod } from '../../../src/domain/payment-methods/manage-payment-methods';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listPaymentMethodsQuery } from './schemas';
import { presentPaymentMethod } from '../../../src/objects/payment-methods';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  return { tx };
});

export const paymentMethodsRoutes = area('payment-methods', [
  route({
    method: 'get',
    path: '/v1/payment_methods',
    operationId: 'listPaymentMethods',
    tag: 'Payments',
    summary: 'List payment methods',
    auth: 'secret',
    query: listPaymentMethodsQuery,
    list: 'PaymentMethod',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listPaymentMethodsQuery, ctx.query);
      const page = await listPaymentMethods(dbOf(ctx), { customerId: q.customer }, pageParams(ctx.query));
      ctx.body = { data: page.data.map((v) => presentPaymentMethod(v.paymentMethod, v.isDefault)), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/payment_methods/:id',
    operationId: 'retrievePaymentMethod',
    tag: 'Payments',
    summary: 'Retrieve a payment method',
    auth: 'secret',
    response: 'PaymentMethod',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const v = await findPaymentMethod(dbOf(ctx), pathId(ctx.params.id));
      ctx.body = presentPaymentMethod(v.paymentMethod, v.isDefault);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/payment_methods/:id',
    operationId: 'detachPaymentMethod',
    tag: 'Payments',
    summary: 'Detach a payment method',
    auth: 'secret',
    response: 'DeletedObject',
    errors: ['invalid_state'],
    use: ({ auth, tx }) => [auth(), tx],
    handler: () => async (ctx) => {
      const { id } = await detachPaymentMethod(dbOf(ctx), pathId(ctx.params.id), new Date());
      ctx.body = { id, object: 'payment_method', deleted: true };
    },
  }),
  route({
    method: 'post',
    path: '/v1/payment_methods/:id/set_default',
    operationId: 'setDefaultPaymentMethod',
    tag: 'Payments',
    summary: "Make a payment method its customer's default",
    auth: 'secret',
    response: 'PaymentMethod',
    use: ({ auth, tx }) => [auth(), tx],
    handler: () => async (ctx) => {
      const v = await setDefaultPaymentMethod(dbOf(ctx), pathId(ctx.params.id));
      ctx.body = presentPaymentMethod(v.paymentMethod, v.isDefault);
    },
  }),
]);
