// Finance actions on subscription invoices (docs/subscriptions.md "Paying and voiding by hand"):
//   POST /v1/invoices/{id}/pay   retry collection now: a charge attempt with the default payment
//                                method (charge_automatically) or a read of the bank claim
//                                (send_invoice); a paid invoice is returned unchanged.
//   POST /v1/invoices/{id}/void  open, draft or uncollectible → void (its bank claim is
//                                cancelled, dunning stops); a void invoice is returned unchanged.
//   POST /v1/test_helpers/invoices/{id}/pay_bank_claim   test mode: the customer pays the
//                                invoice's bank claim in their bank (at the clock's time).
// Both finance actions go through the subscription's workflow (the same lock as its billing
// steps), or straight to the database when the workflow has finished. Mounted separately from
// the invoices router (GET routes), which belongs to the payments area.
import Router from '@koa/router';
import type { AppContext, AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../app';
import { transactional } from '../../middleware/transaction';
import { testModeOnly } from '../test-helpers/router';
import { errors } from '../../../src/errors';
import type { Invoice } from '../../../src/generated/prisma/client';
import { findInvoice } from '../../../src/domain/invoices/find-invoices';
import { applySubscriptionCommand } from '../../../src/domain/subscriptions/apply-command';
import { cancelInvoiceBankClaim, chargeSubscriptionInvoice, checkInvoiceBankClaim } from '../../../src/domain/subscriptions/collect-invoice';
import { signalSubscriptionRefresh } from '../../../src/domain/subscriptions/workflow-control';
import { dispatchEvents } from '../../../src/events';
import { createBankClaims } from '../../../src/gateways';
import { gatewayConfig } from '../../../src/domain/payments/acquirer';
import { parseBody, pathId, yup } from '../../validate';
import { presentInvoice } from '../invoices/presenter';
import { sendSubscriptionCommand, SubscriptionWorkflowEnded, updateIdOf, workflowTarget } from './run-command';

const payBankClaimSchema = yup.object({
  amount: yup.number().integer('${path} must be an integer').min(1, '${path} must be at least 1').max(Number.MAX_SAFE_INTEGER, '${path} is too large'),
});

async function subscriptionInvoice(ctx: AppContext, id: string): Promise<Invoice> {
  const { invoice } = await findInvoice(dbOf(ctx), id);
  if (!invoice.subscriptionId) throw errors.invalidState('Only subscription invoices are collected here; a payment invoice follows its payment', 'id');
  return invoice;
}

/** The subscription's time: its test clock's frozen time, or now. */
async function subscriptionNow(ctx: AppContext, subscriptionId: string): Promise<Date> {
  const sub = await dbOf(ctx).subscription.findFirst({ where: { id: subscriptionId }, include: { testClock: true } });
  return sub?.testClock?.frozenTime ?? new Date();
}

async function present(ctx: AppContext, id: string): Promise<void> {
  const { invoice, lines } = await findInvoice(dbOf(ctx), id);
  ctx.body = presentInvoice(invoice, lines);
}

export function subscriptionInvoiceActionsRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.post('/v1/invoices/:id/pay', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const inv = await subscriptionInvoice(ctx, id);
    if (inv.status === 'paid') return present(ctx, id);
    if (inv.status === 'void') throw errors.invalidState('A void invoice cannot be paid', 'id');
    if (inv.status === 'draft') throw errors.invalidState('The invoice is not finalized yet; it is collected as soon as it is', 'id');
    const tenant = tenantOf(ctx);
    const sub = await dbOf(ctx).subscription.findFirstOrThrow({ where: { id: inv.subscriptionId! } });
    try {
      await sendSubscriptionCommand(ctx, deps, sub, { kind: 'pay_invoice', invoiceId: id });
    } catch (err) {
      if (!(err instanceof SubscriptionWorkflowEnded)) throw err;
      const now = (await subscriptionNow(ctx, sub.id)).toISOString();
      const ref = { subscriptionId: sub.id, merchantId: tenant.merchantId, mode: tenant.mode, invoiceId: id, now };
      const r = inv.collectionMethod === 'send_invoice'
        ? await checkInvoiceBankClaim(deps.db, { ...ref, force: true })
        : await chargeSubscriptionInvoice(deps.db, { ...ref, attempt: inv.attemptCount + 1, manual: true });
      ctx.state.afterCommit.push(async () => void (await dispatchEvents(deps, r.events)));
    }
    await present(ctx, id);
  });

  router.post('/v1/invoices/:id/void', auth(), tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const inv = await subscriptionInvoice(ctx, id);
    if (inv.status === 'void') return present(ctx, id);
    if (inv.status === 'paid') throw errors.invalidState('A paid invoice cannot be voided (refund its payment instead)', 'id');
    const tenant = tenantOf(ctx);
    const sub = await dbOf(ctx).subscription.findFirstOrThrow({ where: { id: inv.subscriptionId! } });
    try {
      await sendSubscriptionCommand(ctx, deps, sub, { kind: 'void_invoice', invoiceId: id });
    } catch (err) {
      if (!(err instanceof SubscriptionWorkflowEnded)) throw err;
      const now = (await subscriptionNow(ctx, sub.id)).toISOString();
      const ref = { subscriptionId: sub.id, merchantId: tenant.merchantId, mode: tenant.mode };
      const outcome = await applySubscriptionCommand(deps.db, { ...ref, commandId: `${sub.id}:${updateIdOf(ctx)}`, now, command: { kind: 'void_invoice', invoiceId: id } });
      if (outcome.claimToCancel) await cancelInvoiceBankClaim(deps.db, { ...ref, invoiceId: id, claimId: outcome.claimToCancel.claimId, now });
      ctx.state.afterCommit.push(async () => void (await dispatchEvents(deps, outcome.events)));
    }
    await present(ctx, id);
  });

  router.post('/v1/test_helpers/invoices/:id/pay_bank_claim', auth(), testModeOnly, tx, async (ctx) => {
    const id = pathId(ctx.params.id);
    const input = parseBody(payBankClaimSchema, ctx.state.body);
    const inv = await subscriptionInvoice(ctx, id);
    const claim = await dbOf(ctx).invoiceBankClaim.findFirst({ where: { invoiceId: id } });
    if (!claim) throw errors.invalidState('The invoice has no bank claim (it is not a send_invoice invoice, or its claim is not issued yet)', 'id');
    const tenant = tenantOf(ctx);
    const now = await subscriptionNow(ctx, inv.subscriptionId!);
    const bank = createBankClaims({ mode: 'test', db: deps.db, config: gatewayConfig() });
    try {
      await bank.payClaim({ merchantId: tenant.merchantId, claimId: claim.claimId, at: now, ...(input.amount ? { amount: input.amount } : {}) });
    } catch (err) {
      throw errors.invalidState(`The bank claim cannot be paid: ${(err as Error).message}`, 'id');
    }
    // Read the claim now (as the workflow would on its next check), then let the workflow reload.
    const r = await checkInvoiceBankClaim(deps.db, { subscriptionId: inv.subscriptionId!, merchantId: tenant.merchantId, mode: tenant.mode, invoiceId: id, now: now.toISOString(), force: true });
    ctx.state.afterCommit.push(async () => void (await dispatchEvents(deps, r.events)));
    ctx.state.afterCommit.push(async () => signalSubscriptionRefresh(await workflowTarget(deps), inv.subscriptionId!));
    await present(ctx, id);
  });
}
