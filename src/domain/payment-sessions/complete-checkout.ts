// The customer pays in checkout (hosted page or embedded element). One transaction in the
// session's tenant:
//   lock the session row → still open and before expires_at? → the method enabled, the card data
//   well-formed (server-side; the page checks the same first) → confirmCardPayment (the acquirer
//   charge, keyed `${paymentId}:attempt:${n}`; payment succeeded or failed; invoice paid; saving
//   the card when the customer asked and the session allows it) → on success the session becomes
//   `complete` in the same transaction.
// A decline commits too (the failed attempt is recorded) and the customer may try again. The
// caller dispatches `events` and signals the session's workflow after commit.
import type { Db } from '../../db/client';
import { scopedDb, type Tenant } from '../../db/tenancy';
import type { Payment, PaymentSession } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { checkCardFormat, type CardAcquirer } from '../../gateways';
import { validateEmail } from '../../validation/email';
import { confirmCardPayment } from '../payments/confirm-card-payment';
import type { Event } from '../payments/create-payment';
import { lockPaymentSession } from './expire-payment-session';
import { effectiveStatus } from '../../objects/payment-sessions';
import { returnUrlWithSession } from './redirects';
import type { CheckoutMethod } from './create-payment-session';

/** Card-testing brake: after this many charge attempts a payment takes no more from checkout. */
export const MAX_CHECKOUT_ATTEMPTS = 20;
/** The acquirer call happens inside the transaction (the slow test card answers after 35 s). */
const CHECKOUT_TX_TIMEOUT_MS = 120_000;

export interface CheckoutPaymentInput {
  method: CheckoutMethod;
  card: { number: string; expMonth: number; expYear: number; cvc?: string | null; holderName?: string | null };
  email?: string | null;
  savePaymentMethod?: boolean;
}

export type CheckoutPaymentResult =
  | { outcome: 'succeeded'; session: PaymentSession; payment: Payment; redirectUrl: string | null; events: Event[] }
  | { outcome: 'declined'; declineCode: string; declineMessage: string; events: Event[] };

export interface CheckoutDeps {
  db: Db;
  acquirerFor: (mode: Tenant['mode']) => CardAcquirer;
  now: Date;
}

function cardParam(field: string): string {
  return `card.${field}`;
}

export async function payCheckoutSession(deps: CheckoutDeps, sessionRef: { id: string; merchantId: string; mode: Tenant['mode'] }, input: CheckoutPaymentInput): Promise<CheckoutPaymentResult> {
  const tenant: Tenant = { merchantId: sessionRef.merchantId, mode: sessionRef.mode };
  const { now } = deps;
  return scopedDb(deps.db, tenant).$transaction(
    async (tx) => {
      if (!(await lockPaymentSession(tx, tenant, sessionRef.id))) throw errors.resourceMissing('No such checkout session', 'session');
      const session = await tx.paymentSession.findFirst({ where: { id: sessionRef.id }, include: { payment: true } });
      if (!session) throw errors.resourceMissing('No such checkout session', 'session');
      const status = effectiveStatus(session, now);
      if (status !== 'open') throw errors.invalidState(`This checkout session is ${status}.`, 'session');
      const payment = session.payment;
      if (payment.status !== 'requires_payment_method' && payment.status !== 'failed') {
        throw errors.invalidState(`The payment of this checkout session is ${payment.status}.`, 'payment');
      }
      if (payment.attemptCount >= MAX_CHECKOUT_ATTEMPTS) {
        throw errors.invalidState('Too many attempts for this payment; ask the merchant for a new checkout link.', 'payment');
      }
      if (!session.enabledMethods.includes(input.method)) throw errors.validationFailed(`${input.method} is not enabled for this checkout`, 'method');
      if (input.method !== 'card' && tenant.mode !== 'test') {
        throw errors.validationFailed('Wallet payments are simulated in test mode only; live wallets need the acquirer\'s wallet integration.', 'method');
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
      const format = checkCardFormat({ number: input.card.number, expMonth: input.card.expMonth, expYear: input.card.expYear, cvc: cvc === '' ? undefined : cvc, wallet: wallet ?? undefined }, now);
      if (!format.ok) {
        const param = format.code === 'invalid_number' ? cardParam('number') : format.code === 'invalid_cvc' ? cardParam('cvc') : cardParam('expiry');
        throw errors.validationFailed(format.message, param);
      }

      const save = input.savePaymentMethod === true && session.savePaymentMethod && session.customerId !== null;
      const result = await confirmCardPayment(
        { db: tx, acquirer: deps.acquirerFor(tenant.mode), now },
        tenant,
        {
          paymentId: payment.id,
          source: {
            card: { number: format.number, expMonth: format.expMonth, expYear: format.expYear, cvc: cvc ?? '', holderName: input.card.holderName ?? null },
            wallet,
          },
          saveForCustomerId: save ? session.customerId : null,
        },
      );
      if (result.outcome === 'declined') {
        return {
          outcome: 'declined' as const,
          declineCode: result.declineCode ?? 'card_declined',
          declineMessage: result.declineMessage ?? 'The card was declined.',
          events: result.events,
        };
      }
      const completed = await tx.paymentSession.update({
        where: { id: session.id },
        data: {
          status: 'complete',
          completedAt: now,
          customerEmail: email,
          customerId: result.payment.customerId ?? session.customerId,
          savedPaymentMethodId: save ? (result.paymentMethod?.id ?? null) : null,
        },
      });
      const redirectUrl = completed.uiMode === 'hosted' && completed.returnUrl ? returnUrlWithSession(completed.returnUrl, completed.id) : null;
      return { outcome: 'succeeded' as const, session: completed, payment: result.payment, redirectUrl, events: result.events };
    },
    { timeout: CHECKOUT_TX_TIMEOUT_MS, maxWait: 5_000 },
  );
}
