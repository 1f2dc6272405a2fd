import { answerPage, areaOf, secretKey } from '../../route';
import { dbOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { detachPaymentMethod, findPaymentMethod, listPaymentMethods, setDefaultPaymentMethod } from '../../../src/domain/payment-methods/manage-payment-methods';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listPaymentMethodsQuery } from './schemas';
import { presentPaymentMethod } from '../../../src/objects/payment-methods';

const { route, area } = areaOf(withTransaction);

export const paymentMethodsRoutes = area('payment-methods', [
  route({
    method: 'get',
    path: '/v1/payment_methods',
    operationId: 'listPaymentMethods',
    tag: 'Payments',
    summary: 'List payment methods',
    description:
      "Lists saved payment methods, one page at a time; `customer` restricts the list to one customer's methods (an unknown customer answers 404 resource_not_found). Detached methods are not listed. Only the card's brand, last four digits and expiry are shown, never the number. Reads only: records no event.",
    query: listPaymentMethodsQuery,
    list: 'PaymentMethod',
    ...secretKey(),
    handler: answerPage(
      (ctx) => {
        const q = parseQuery(listPaymentMethodsQuery, ctx.query);
        return listPaymentMethods(dbOf(ctx), { customerId: q.customer }, pageParams(ctx.query));
      },
      (v) => presentPaymentMethod(v.paymentMethod, v.isDefault),
    ),
  }),
  route({
    method: 'get',
    path: '/v1/payment_methods/:id',
    operationId: 'retrievePaymentMethod',
    tag: 'Payments',
    summary: 'Retrieve a payment method',
    description:
      "Retrieves one saved payment method by id, with `is_default` telling whether it is its customer's default. A detached method, or one of another merchant or mode, answers 404 resource_missing. Reads only: records no event.",
    response: 'PaymentMethod',
    ...secretKey(),
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
    description:
      "Detaches a saved payment method, irreversibly: it is no longer listed, retrievable or charged, though payments that used it keep referring to it. Detaching the customer's default leaves the customer without a default (no other card is promoted: the merchant decides which card renewals use). Answers `{ id, object, deleted: true }` and records no event.",
    response: 'DeletedObject',
    ...secretKey('tx'),
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
    description:
      "Makes a saved payment method its customer's default: the one subscriptions charge from then on. A detached method answers 404 resource_missing. Records no event.",
    response: 'PaymentMethod',
    ...secretKey('tx'),
    handler: () => async (ctx) => {
      const v = await setDefaultPaymentMethod(dbOf(ctx), pathId(ctx.params.id));
      ctx.body = presentPaymentMethod(v.paymentMethod, v.isDefault);
    },
  }),
]);
