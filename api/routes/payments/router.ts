import { areaOf } from '../../route';
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
    auth: 'secret',
    body: createPaymentSchema,
    status: 201,
    response: 'Payment',
    errors: ['card_declined'],
    use: ({ auth, steps }) => [auth(), steps],
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
    auth: 'secret',
    query: listPaymentsQuery,
    list: 'Payment',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listPaymentsQuery, ctx.query);
      const page = await listPayments(dbOf(ctx), { status: q.status, customerId: q.customer }, pageParams(ctx.query));
      ctx.body = { data: page.data.map((p) => presentPayment(p.payment, p.invoiceId)), has_more: page.hasMore };
    },
  }),
  route({
    method: 'get',
    path: '/v1/payments/:id',
    operationId: 'retrievePayment',
    tag: 'Payments',
    summary: 'Retrieve a payment',
    auth: 'secret',
    response: 'Payment',
    use: ({ auth }) => [auth()],
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
    auth: 'secret',
    body: confirmPaymentSchema,
    response: 'Payment',
    errors: ['card_declined', 'invalid_state'],
    use: ({ auth, steps }) => [auth(), steps],
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
    auth: 'secret',
    response: 'Payment',
    errors: ['invalid_state'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const result = await cancelPayment(dbOf(ctx), tenantOf(ctx), { paymentId: pathId(ctx.params.id), now: new Date() });
        dispatchAfterCommit(deps, scopeOf(ctx), result.events);
        ctx.body = presentPayment(result.payment, result.invoice?.id ?? null);
      },
  }),
]);
