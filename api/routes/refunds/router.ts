import { answerPage, areaOf, retrieveById, secretKey } from '../../route';
import { dbOf, scopeOf } from '../../context';
import { withTransaction } from '../../middleware/transaction';
import { refundPayment } from '../../../src/domain/refunds/refund-payment';
import { findRefund, listRefunds } from '../../../src/domain/refunds/find-refunds';
import { pageParams, parseBody, parseQuery } from '../../validate';
import { createRefundSchema, listRefundsQuery } from './schemas';
import { presentRefund } from '../../../src/objects/refunds';

const { route, area } = areaOf(withTransaction);

export const refundsRoutes = area('refunds', [
  route({
    method: 'post',
    path: '/v1/refunds',
    operationId: 'createRefund',
    tag: 'Payments',
    summary: 'Refund a payment (in full or in part)',
    description:
      'Refunds a `succeeded` or `partially_refunded` payment, in full (the default `amount` is the remainder) or in part; more than the remainder left after pending and succeeded refunds answers 400 validation_failed, and a payment in another state or with nothing left answers 409 invalid_state. The payment row is locked, so concurrent refunds never exceed the charge. The refund answers 201 as `pending` and records `refund.created`; a workflow then asks the acquirer and records `refund.succeeded` with a credit note (`credit_note.created`) or `refund.failed`.',
    body: createRefundSchema,
    status: 201,
    response: 'Refund',
    errors: ['invalid_state'],
    ...secretKey('tx'),
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
    description:
      "Lists the merchant's refunds in the key's mode, newest first, one page at a time; `payment` restricts the list to one payment's refunds (an unknown payment answers 404 resource_not_found). Reads only: records no event.",
    query: listRefundsQuery,
    list: 'Refund',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const q = parseQuery(listRefundsQuery, ctx.query);
      return listRefunds(dbOf(ctx), { paymentId: q.payment }, pageParams(ctx.query));
    }, presentRefund),
  }),
  route({
    method: 'get',
    path: '/v1/refunds/:id',
    operationId: 'retrieveRefund',
    tag: 'Payments',
    summary: 'Retrieve a refund',
    description:
      'Retrieves one refund by id with its status (`pending`, `succeeded` or `failed`), amount, reason and failure code. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'Refund',
    ...secretKey(),
    handler: retrieveById(findRefund, presentRefund),
  }),
]);
