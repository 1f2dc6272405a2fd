// Charges a payment by card, inside the caller's transaction (the payment row is locked for it):
// attempt N = attempt_count + 1 goes to the acquirer with idempotency key `${paymentId}:attempt:N`,
// so a request that is retried after a crash or rollback (attempt_count rolled back too) asks
// the acquirer the same question and gets the original answer, never a second charge.
//
// Source: card data typed in checkout (optionally a wallet variant), or a saved payment method of
// the payment's customer. "Save this card" (saveForCustomerId) tokenizes the card after the
// charge succeeded and attaches it to the customer (the first one becomes the default); a
// declined payment saves nothing.
//
// A payment that is not `requires_payment_method` or `failed` (failed may be retried) answers
// invalid_state. The caller dispatches `events` after commit.
import { postInvoicePaid } from '../ledger/invoice-postings';
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Invoice, Payment, PaymentMethod } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { recordEvent } from '../../events';
import { gatewayErrorToApiError, GatewayIdempotencyKeyReusedError, type CardAcquirer, type ChargeResult, type Wallet } from '../../gateways';
import { presentPayment } from '../../objects/payments';
import { presentInvoice } from '../../objects/invoices';
import { findPaymentInvoice, paymentLineDescription } from '../invoices/payment-invoice';
import { lockPayment } from './lock-payment';
import { attachSavedCard } from '../payment-methods/attach-card';
import type { Event } from './create-payment';

export type CardPaymentSource =
  | {
      card: { number: string; expMonth: number; expYear: number; cvc: string; holderName?: string | null };
      wallet?: Wallet | null;
      paymentMethodId?: undefined;
    }
  | { paymentMethodId: string; card?: undefined };

export interface ConfirmCardPaymentInput {
  paymentId: string;
  source: CardPaymentSource;
  /** Save the card as a payment method of this customer (checkout "save this card"). */
  saveForCustomerId?: string | null;
}

export interface ConfirmCardPaymentResult {
  outcome: 'succeeded' | 'declined';
  payment: Payment;
  paymentMethod: PaymentMethod | null;
  declineCode?: string;
  declineMessage?: string;
  events: Event[];
}

/** The acquirer idempotency key of a payment's Nth charge attempt. */
export function chargeAttemptKey(paymentId: string, attempt: number): string {
  return `${paymentId}:attempt:${attempt}`;
}

const CONFIRMABLE = new Set<Payment['status']>(['requires_payment_method', 'failed']);
/**
 * A key is "reused with other parameters" only when an earlier attempt under it was rolled back
 * on our side (so attempt_count did not move) and the customer then typed other card data: that
 * attempt number is spent, take the next. Bounded, so a bug cannot loop.
 */
const MAX_SPENT_ATTEMPT_SKIPS = 5;

function rethrowGatewayError(err: unknown): never {
  throw gatewayErrorToApiError(err) ?? err;
}

export async function confirmCardPayment(
  deps: { db: TenantDb; acquirer: CardAcquirer; now: Date },
  tenant: Tenant,
  input: ConfirmCardPaymentInput,
): Promise<ConfirmCardPaymentResult> {
  const { db, acquirer, now } = deps;
  const payment = await lockPayment(db, tenant, input.paymentId);
  if (!payment) throw errors.resourceNotFound(`No such payment: '${input.paymentId}'`, 'payment');
  if (!CONFIRMABLE.has(payment.status)) {
    throw errors.invalidState(`The payment is ${payment.status}; only a payment that requires a payment method or has failed can be confirmed`, 'payment');
  }

  let customerId = payment.customerId;
  let savedMethod: PaymentMethod | null = null;
  if (input.source.paymentMethodId !== undefined) {
    const id = input.source.paymentMethodId;
    savedMethod = await db.paymentMethod.findFirst({ where: { id, detachedAt: null } });
    if (!savedMethod || (payment.customerId !== null && savedMethod.customerId !== payment.customerId)) {
      throw errors.resourceNotFound(`No such payment method${payment.customerId ? ` of customer '${payment.customerId}'` : ''}: '${id}'`, 'payment_method');
    }
    if (!savedMethod.acquirerToken) throw errors.invalidState(`Payment method '${id}' (${savedMethod.type}) cannot be charged by card`, 'payment_method');
    customerId = savedMethod.customerId;
  }
  let saveFor: string | null = null;
  if (input.saveForCustomerId && input.source.card !== undefined) {
    if (payment.customerId !== null && payment.customerId !== input.saveForCustomerId) {
      throw errors.validationFailed(`A card can be saved only for the payment's customer '${payment.customerId}'`, 'customer');
    }
    const customer = await db.customer.findFirst({ where: { id: input.saveForCustomerId }, select: { id: true } });
    if (!customer) throw errors.resourceNotFound(`No such customer: '${input.saveForCustomerId}'`, 'customer');
    saveFor = customer.id;
    customerId = customer.id;
  }

  const description = paymentLineDescription(payment).slice(0, 1000);
  let attempt = payment.attemptCount + 1;
  let result: ChargeResult;
  for (;;) {
    try {
      const common = { merchantId: tenant.merchantId, amount: Number(payment.amount), currency: payment.currency, description, idempotencyKey: chargeAttemptKey(payment.id, attempt) };
      result = savedMethod
        ? await acquirer.charge({ ...common, token: savedMethod.acquirerToken! })
        : await acquirer.charge({ ...common, card: cardDetails(input.source) });
      break;
    } catch (err) {
      if (err instanceof GatewayIdempotencyKeyReusedError && attempt < payment.attemptCount + MAX_SPENT_ATTEMPT_SKIPS) {
        attempt += 1;
        continue;
      }
      rethrowGatewayError(err);
    }
  }

  const invoiceFound = await findPaymentInvoice(db, payment.id);
  const events: Event[] = [];

  if (result.status === 'declined') {
    const updated = await db.payment.update({
      where: { id: payment.id },
      data: { status: 'failed', attemptCount: attempt, customerId, failureCode: result.code, failureMessage: result.message },
    });
    let invoice: Invoice | null = null;
    if (invoiceFound) {
      invoice = await db.invoice.update({ where: { id: invoiceFound.invoice.id }, data: { attemptCount: { increment: 1 }, customerId } });
    }
    events.push(await recordEvent(db, tenant, { type: 'payment.failed', data: presentPayment(updated, invoice?.id ?? null) }));
    if (invoice) events.push(await recordEvent(db, tenant, { type: 'invoice.payment_failed', data: presentInvoice(invoice, invoiceFound!.lines) }));
    return { outcome: 'declined', payment: updated, paymentMethod: null, declineCode: result.code, declineMessage: result.message, events };
  }

  let paymentMethod = savedMethod;
  if (saveFor !== null && input.source.card !== undefined) {
    const attached = await attachSavedCard(
      { db, acquirer },
      tenant,
      { customerId: saveFor, card: cardDetails(input.source), idempotencyKey: `${chargeAttemptKey(payment.id, attempt)}:save` },
    ).catch(rethrowGatewayError);
    // A card that was charged but cannot be saved: the payment stands, nothing is saved.
    if (attached.outcome === 'attached') {
      paymentMethod = attached.paymentMethod;
      events.push(...attached.events);
    }
  }

  const updated = await db.payment.update({
    where: { id: payment.id },
    data: {
      status: 'succeeded',
      attemptCount: attempt,
      customerId,
      paymentMethodId: paymentMethod?.id ?? null,
      acquirerChargeId: result.chargeId,
      failureCode: null,
      failureMessage: null,
      succeededAt: now,
    },
  });
  let invoice: Invoice | null = null;
  if (invoiceFound) {
    invoice = await db.invoice.update({
      where: { id: invoiceFound.invoice.id },
      data: { status: 'paid', amountPaid: invoiceFound.invoice.amountDue, paidAt: now, attemptCount: { increment: 1 }, customerId },
    });
    await postInvoicePaid(db, tenant, invoiceFound.invoice, { method: 'card', amount: invoiceFound.invoice.amountDue - invoiceFound.invoice.amountPaid, paymentId: updated.id, occurredAt: now });
  }
  events.push(await recordEvent(db, tenant, { type: 'payment.succeeded', data: presentPayment(updated, invoice?.id ?? null) }));
  if (invoice) events.push(await recordEvent(db, tenant, { type: 'invoice.paid', data: presentInvoice(invoice, invoiceFound!.lines) }));
  return { outcome: 'succeeded', payment: updated, paymentMethod, events };
}

function cardDetails(source: CardPaymentSource) {
  const c = source.card!;
  return {
    number: c.number,
    expMonth: c.expMonth,
    expYear: c.expYear,
    ...(c.cvc !== undefined && c.cvc !== null && c.cvc !== '' ? { cvc: c.cvc } : {}),
    ...(c.holderName ? { holderName: c.holderName } : {}),
    ...(source.card !== undefined && source.wallet ? { wallet: source.wallet } : {}),
  };
}
