import Router from '@koa/router';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import type { AppDeps, AppState } from '../../context';
import { dbOf, tenantOf, scopeOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { stepwise, transactional } from '../../middleware/transaction';
import { submitPayment, confirmPaymentWithMethod } from '../../../src/domain/payments/submit-payment';
import { cancelPayment } from '../../../src/domain/payments/cancel-payment';
import { findPayment, listPayments } from '../../../src/domain/payments/find-payments';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { confirmPaymentSchema, createPaymentSchema, listPaymentsQuery } from './schemas';
import { presentPayment } from '../../../src/objects/payments';

export function paymentsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);
  // Creating with confirm and confirming call the acquirer: no request transaction around them.
  const steps = stepwise(deps);

  router.post('/v1/payments', auth(), steps, async (ctx) => {
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
  });

  router.get('/v1/payments', auth(), async (ctx) => {
    const q = parseQuery(listPaymentsQuery, ctx.query);
    const page = await listPayments(dbOf(ctx), { status: q.status, customerId: q.customer }, pageParams(ctx.query));
    ctx.body = { data: page.data.map((p) => presentPayment(p.payment, p.invoiceId)), has_more: page.hasMore };
  });

  router.get('/v1/payments/:id', auth(), async (ctx) => {
    const found = await findPayment(dbOf(ctx), pathId(ctx.params.id));
    ctx.body = presentPayment(found.payment, found.invoiceId);
  });

  router.post('/v1/payments/:id/confirm', auth(), steps, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(confirmPaymentSchema, ctx.state.body);
    const result = await confirmPaymentWithMethod({ db: deps.db, gateways: deps.gateways, now: new Date(), txMaxWaitMs: deps.config.transactionMaxWaitMs }, tenantOf(ctx), {
      paymentId: id,
      paymentMethodId: input.payment_method,
    });
    dispatchAfterCommit(deps, scopeOf(ctx), result.events);
    ctx.body = presentPayment(result.payment, result.invoiceId);
  });

  router.post('/v1/payments/:id/cancel', auth(), tx, async (ctx) => {
    const result = await cancelPayment(dbOf(ctx), tenantOf(ctx), { paymentId: pathId(ctx.params.id), now: new Date() });
    dispatchAfterCommit(deps, scopeOf(ctx), result.events);
    ctx.body = presentPayment(result.payment, result.invoice?.id ?? null);
  });
}
