import { answerPage, areaOf, secretKey } from '../../route';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import { dbOf, tenantOf, scopeOf } from '../../context';
import { stepwise, transactional } from '../../middleware/transaction';
import { submitPayment, confirmPaymentWithMethod } from '../../../src/domain/payments/submit-payment';
import { cancelPayment } from '../../../src/domain/payments/cancel-payment';
import { findPayment, listPayments } from '../../../src/domain/payments/find-payments';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { confirmPaymentSchema, createPaymentSchema, listPaymentsQuery } from './schemas';
import { presentPayment } from '../../../src/objects/payments';

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  // Creating with confirm and confirming call the acquirer: no request transaction around them.
  const steps = stepwise(deps);
  return { tx, steps };
});

export const paymentsRoutes = area('payments', [
  route({
    method: 'post',
    path: '/v1/payments',
    operationId: 'createPayment',
    tag: 'Payments',
    summary: 'Create a payment',
    description:
      'Creates a one-off payment of `amount` (minor units) with its invoice, which is finalized and numbered at once (`invoice.finalized`). With a `payment_method` of the customer the card is charged right away (`confirm` defaults to true then); without one the payment waits in `requires_payment_method` for a payment session or a confirm. A decline is not an HTTP error: the payment is created with `status: failed` and `failure_code`, and `payment.failed` and `invoice.payment_failed` are recorded; a success records `payment.succeeded` and `invoice.paid`. Retry with the same Idempotency-Key after a 503: the card is never charged twice.',
    body: createPaymentSchema,
    status: 201,
    response: 'Payment',
    errors: ['card_declined'],
    ...secretKey('steps'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(createPaymentSchema, ctx.state.body);
        const result = await submitPayment({ db: deps.db, gateways: deps.gateways, now: new Date(), txMaxWaitMs: deps.config.transactionMaxWaitMs }, tenantOf(ctx), {
          amount: input.amount,
          currency: input.currency,
          description: input.description,
          customerId: input.customer,
          paymentMethodId: input.payment_method,
          confirm: input.confirm,
          externalReference: input.external_reference,
          metadata: input.metadata,
          idempotencyKey: ctx.get('Idempotency-Key') || null,
        });
        dispatchAfterCommit(deps, scopeOf(ctx), result.events);
        ctx.status = 201;
        ctx.body = presentPayment(result.payment, result.invoiceId);
      },
  }),
  route({
    method: 'get',
    path: '/v1/payments',
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments',
    description: "Lists the merchant's payments in the key's mode, newest first, one page at a time; `status` and `customer` filter the list. Reads only: records no event.",
    query: listPaymentsQuery,
    list: 'Payment',
    ...secretKey(),
    handler: answerPage(
      (ctx) => {
        const q = parseQuery(listPaymentsQuery, ctx.query);
        return listPayments(dbOf(ctx), { status: q.status, customerId: q.customer }, pageParams(ctx.query));
      },
      (p) => presentPayment(p.payment, p.invoiceId),
    ),
  }),
  route({
    method: 'get',
    path: '/v1/payments/:id',
    operationId: 'retrievePayment',
    tag: 'Payments',
    summary: 'Retrieve a payment',
    description:
      'Retrieves one payment by id with its status, amount refunded, payment method, invoice and last failure. An id of another merchant or mode answers 404 resource_missing. Reads only: records no event.',
    response: 'Payment',
    ...secretKey(),
    handler: () => async (ctx) => {
      const found = await findPayment(dbOf(ctx), pathId(ctx.params.id));
      ctx.body = presentPayment(found.payment, found.invoiceId);
    },
  }),
  route({
    method: 'post',
    path: '/v1/payments/:id/confirm',
    operationId: 'confirmPayment',
    tag: 'Payments',
    summary: 'Confirm a payment with a payment method',
    description:
      'Charges a payment in `requires_payment_method` or `failed` with `payment_method` (default: the one given at creation). A payment in another state, or one another request is charging, answers 409 invalid_state; when the acquirer does not answer the payment stays `processing` (503) and the next confirm resumes the same attempt. A decline answers 200 with `status: failed` and records `payment.failed` and `invoice.payment_failed`; a success records `payment.succeeded` and `invoice.paid`.',
    body: confirmPaymentSchema,
    response: 'Payment',
    errors: ['card_declined', 'invalid_state'],
    ...secretKey('steps'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(confirmPaymentSchema, ctx.state.body);
        const result = await confirmPaymentWithMethod({ db: deps.db, gateways: deps.gateways, now: new Date(), txMaxWaitMs: deps.config.transactionMaxWaitMs }, tenantOf(ctx), {
          paymentId: id,
          paymentMethodId: input.payment_method,
        });
        dispatchAfterCommit(deps, scopeOf(ctx), result.events);
        ctx.body = presentPayment(result.payment, result.invoiceId);
      },
  }),
  route({
    method: 'post',
    path: '/v1/payments/:id/cancel',
    operationId: 'cancelPayment',
    tag: 'Payments',
    summary: 'Cancel a payment',
    description:
      'Cancels a payment that was never paid (`requires_payment_method` or `failed`): it becomes `canceled` and its invoice `void`, keeping its number. Repeating the call on a canceled payment returns it unchanged; any other state answers 409 invalid_state (refund a paid payment instead). Records `payment.canceled` and `invoice.voided`.',
    response: 'Payment',
    errors: ['invalid_state'],
    ...secretKey('tx'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const result = await cancelPayment(dbOf(ctx), tenantOf(ctx), { paymentId: pathId(ctx.params.id), now: new Date() });
        dispatchAfterCommit(deps, scopeOf(ctx), result.events);
        ctx.body = presentPayment(result.payment, result.invoice?.id ?? null);
      },
  }),
]);
