// The customer pays in checkout (hosted page or embedded element), in the three steps of
// confirmCardPayment, so no transaction is open while the acquirer works:
//   1. one transaction in the session's tenant: lock the session row → still open and before
//      expires_at? → the method enabled, the card data well-formed (server-side; the page checks
//      the same first) → the payment's charge attempt recorded (`processing`);
//   2. the acquirer charge, keyed `${paymentId}:attempt:${n}` (and the card tokenized when the
//      customer asked to save it and the session allows it);
//   3. one transaction: the outcome written (payment succeeded or failed; invoice paid; the card
//      saved) → on success the session becomes `complete`, even if its expiry ran while the
//      acquirer was answering (the customer paid while it was open; the expiry leaves a
//      `processing` payment alone).
// A decline commits too (the failed attempt is recorded) and the customer may try again; a
// second click while the first is in flight resumes the same attempt (same key, same answer).
// The caller dispatches `events` and signals the session's workflow after commit.
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Payment, PaymentSession } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { checkCardFormat, type CardAcquirer } from '../../gateways';
import { validateEmail } from '../../validation/email';
import { confirmCardPayment, type ConfirmCardPaymentResult, type ConfirmDeps } from '../payments/confirm-card-payment';
import type { Event } from '../payments/create-payment';
import { lockPaymentSession } from './expire-payment-session';
import { effectiveStatus } from '../../objects/payment-sessions';
import { returnUrlWithSession } from './redirects';
import type { CheckoutMethod } from './create-payment-session';

/** Card-testing brake: after this many charge attempts a payment takes no more from checkout. */
export const MAX_CHECKOUT_ATTEMPTS = 20;

export interface CheckoutPaymentInput {
  method: CheckoutMethod;
  card: { number: string; expMonth: number; expYear: number; cvc?: string | null; holderName?: string | null };
  email?: string | null;
  savePaymentMethod?: boolean;
}

export type CheckoutPaymentResult =
  | { outcome: 'succeeded'; session: PaymentSession; payment: Payment; redirectUrl: string | null; events: Event[] }
  | { outcome: 'declined'; declineCode: string; declineMessage: string; events: Event[] };

export interface CheckoutDeps extends ConfirmDeps {
  acquirerFor: (mode: Tenant['mode']) => CardAcquirer;
}

function cardParam(field: string): string {
  return `card.${field}`;
}

export async function payCheckoutSession(
  deps: CheckoutDeps,
  sessionRef: { id: string; merchantId: string; mode: Tenant['mode'] },
  input: CheckoutPaymentInput,
): Promise<CheckoutPaymentResult> {
  const tenant: Tenant = { merchantId: sessionRef.merchantId, mode: sessionRef.mode };
  const { now } = deps;
  const confirmed = await confirmCardPayment<{ sessionId: string; email: string; save: boolean }, PaymentSession | null>(
    { ...deps, acquirer: deps.acquirerFor(tenant.mode) },
    tenant,
    async (tx) => {
      if (!(await lockPaymentSession(tx, tenant, sessionRef.id))) throw errors.resourceMissing('No such checkout session', 'session');
      const session = await tx.paymentSession.findFirst({ where: { id: sessionRef.id }, include: { payment: true } });
      if (!session) throw errors.resourceMissing('No such checkout session', 'session');
      const status = effectiveStatus(session, now);
      if (status !== 'open') throw errors.invalidState(`This checkout session is ${status}.`, 'session');
      const payment = session.payment;
      // `processing`: an earlier click is still with the acquirer (or was cut off): this one resumes its attempt.
      if (payment.status !== 'requires_payment_method' && payment.status !== 'failed' && payment.status !== 'processing') {
        throw errors.invalidState(`The payment of this checkout session is ${payment.status}.`, 'payment');
      }
      if (payment.status !== 'processing' && payment.attemptCount >= MAX_CHECKOUT_ATTEMPTS) {
        throw errors.invalidState('Too many attempts for this payment; ask the merchant for a new checkout link.', 'payment');
      }
      if (!session.enabledMethods.includes(input.method)) throw errors.validationFailed(`${input.method} is not enabled for this checkout`, 'method');
      if (input.method !== 'card' && tenant.mode !== 'test') {
        throw errors.validationFailed("Wallet payments are simulated in test mode only; live wallets need the acquirer's wallet integration.", 'method');
      }
      let email: string | null = session.customerEmail;
      if (input.email !== undefined && input.email !== null && input.email !== '') {
        const e = validateEmail(input.email);
        if (!e.ok) throw errors.validationFailed(e.message, 'email');
        email = e.value;
      }
      if (email === null) throw errors.validationFailed('An e-mail address is required', 'email');

      const wallet = input.method === 'card' ? null : input.method;
      const cvc = input.card.cvc ?? undefined;
      const format = checkCardFormat(
        { number: input.card.number, expMonth: input.card.expMonth, expYear: input.card.expYear, cvc: cvc === '' ? undefined : cvc, wallet: wallet ?? undefined },
        now,
      );
      if (!format.ok) {
        const param = format.code === 'invalid_number' ? cardParam('number') : format.code === 'invalid_cvc' ? cardParam('cvc') : cardParam('expiry');
        throw errors.validationFailed(format.message, param);
      }

      const save = input.savePaymentMethod === true && session.savePaymentMethod && session.customerId !== null;
      return {
        paymentId: payment.id,
        source: {
          card: { number: format.number, expMonth: format.expMonth, expYear: format.expYear, cvc: cvc ?? '', holderName: input.card.holderName ?? null },
          wallet,
        },
        saveForCustomerId: save ? session.customerId : null,
        before: { sessionId: session.id, email, save },
      };
    },
    {
      // The session before the payment, as in the first transaction.
      lockFirst: async (tx, before) => void (await lockPaymentSession(tx, tenant, before!.sessionId)),
      inLast: (tx, result, before) => completeSession(tx, tenant, result, before!, now),
    },
  );
  if (confirmed.outcome === 'declined') {
    return {
      outcome: 'declined',
      declineCode: confirmed.declineCode ?? 'card_declined',
      declineMessage: confirmed.declineMessage ?? 'The card was declined.',
      events: confirmed.events,
    };
  }
  const completed = confirmed.last!;
  const redirectUrl = completed.uiMode === 'hosted' && completed.returnUrl ? returnUrlWithSession(completed.returnUrl, completed.id) : null;
  return { outcome: 'succeeded', session: completed, payment: confirmed.payment, redirectUrl, events: confirmed.events };
}

/** In the outcome's transaction (the session locked first): a paid session becomes `complete` (a second writer finds it so). */
async function completeSession(
  tx: TenantDb,
  tenant: Tenant,
  result: ConfirmCardPaymentResult,
  before: { sessionId: string; email: string; save: boolean },
  now: Date,
): Promise<PaymentSession | null> {
  if (result.outcome !== 'succeeded') return null;
  const session = await tx.paymentSession.findFirst({ where: { id: before.sessionId } });
  if (!session) throw errors.resourceMissing('No such checkout session', 'session');
  if (session.status === 'complete') return session;
  return tx.paymentSession.update({
    where: { id: session.id },
    data: {
      status: 'complete',
      completedAt: now,
      customerEmail: before.email,
      customerId: result.payment.customerId ?? session.customerId,
      savedPaymentMethodId: before.save ? (result.paymentMethod?.id ?? null) : null,
    },
  });
}
