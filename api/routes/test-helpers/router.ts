// Test-mode-only helpers (docs/architecture.md), all under /v1/test_helpers/. Live keys are refused
// with 403 test_mode_only before anything else is looked at.
import { areaOf, secretKey } from '../../route';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import { TEST_MODE_ONLY } from '../../openapi/describe';
import type { Middleware } from '../../context';
import { dbOf, scopeOf, tenantOf } from '../../context';
import { stepwise } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { attachTestCard } from '../../../src/domain/payment-methods/attach-test-card';
import { payTestBankClaim } from '../../../src/domain/invoices/pay-test-bank-claim';
import { parseBody, pathId } from '../../validate';
import { presentPaymentMethod } from '../../../src/objects/payment-methods';
import { findInvoice } from '../../../src/domain/invoices/find-invoices';
import { presentInvoice } from '../../../src/objects/invoices';
import { attachTestCardSchema, payBankClaimSchema } from './schemas';

/** After auth(): refuses live keys. For every route under /v1/test_helpers/. */
export const testModeOnly: Middleware = async (ctx, next) => {
  if (tenantOf(ctx).mode !== 'test') throw errors.testModeOnly('Test helpers are available only with test keys (sk_test_…)');
  await next();
};

const { route, area } = areaOf((deps) => {
  // Both call an outside system (acquirer, bank): no request transaction around them.
  const steps = stepwise(deps);
  return { steps };
});

export const testHelpersRoutes = area('test-helpers', [
  route({
    method: 'post',
    path: '/v1/test_helpers/customers/:id/payment_methods',
    operationId: 'attachTestPaymentMethod',
    tag: 'Test helpers',
    summary: 'Attach a test card to a customer',
    description: TEST_MODE_ONLY,
    body: attachTestCardSchema,
    status: 201,
    response: 'PaymentMethod',
    errors: ['test_mode_only', 'card_declined'],
    ...secretKey(testModeOnly, 'steps'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const customerId = pathId(ctx.params.id);
        const input = parseBody(attachTestCardSchema, ctx.state.body);
        const result = await attachTestCard({ db: deps.db, gateways: deps.gateways, txMaxWaitMs: deps.config.transactionMaxWaitMs }, tenantOf(ctx), {
          customerId,
          cardNumber: input.card_number,
          expMonth: input.exp_month,
          expYear: input.exp_year,
          cvc: input.cvc,
          holderName: input.cardholder_name,
          wallet: input.wallet,
        });
        dispatchAfterCommit(deps, scopeOf(ctx), result.events);
        ctx.status = 201;
        ctx.body = presentPaymentMethod(result.paymentMethod, result.isDefault);
      },
  }),
  // The customer pays a subscription invoice's bank claim in their bank (at the clock's time).
  route({
    method: 'post',
    path: '/v1/test_helpers/invoices/:id/pay_bank_claim',
    operationId: 'payTestBankClaim',
    tag: 'Test helpers',
    summary: "Simulate the bank paying an invoice's claim",
    description: TEST_MODE_ONLY,
    body: payBankClaimSchema,
    response: 'Invoice',
    errors: ['test_mode_only', 'invalid_state'],
    ...secretKey(testModeOnly, 'steps'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const id = pathId(ctx.params.id);
        const input = parseBody(payBankClaimSchema, ctx.state.body);
        await payTestBankClaim(deps, scopeOf(ctx), id, input.amount);
        const { invoice, lines } = await findInvoice(dbOf(ctx), id);
        ctx.body = presentInvoice(invoice, lines);
      },
  }),
]);
