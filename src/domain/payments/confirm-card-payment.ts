// Charges a payment by card in three steps, so the acquirer is never called inside one of our
// transactions (docs/payments.md "Confirming: three steps"):
//
//   1. beginCardAttempt (in the caller's transaction, which commits before the charge): lock the
//      payment, check it, record attempt N = attempt_count + 1 and set it `processing`.
//   2. chargeCardAttempt (no transaction open): the acquirer charges with idempotency key
//      `${paymentId}:attempt:N`; "save this card" tokenizes after a success.
//   3. recordCardAttempt (in a second transaction): the outcome is written only if the payment is
//      still `processing` at attempt N; otherwise another request already wrote it and the
//      payment is answered as it stands.
//
// Safe to retry and to run twice. Step 1 holds the attempt for its request for
// CHARGE_ATTEMPT_LEASE_MS (`attempt_held_until`): a concurrent confirm meanwhile answers
// invalid_state, as it did when it waited for the row lock. A payment found `processing` and not
// held (its request crashed between the charge and step 3, or answered 503 because the acquirer
// did not answer and released it) is resumed at its recorded attempt by the next confirm: the
// same key asks the acquirer the same question and gets the original answer, never a second
// charge. A resume with other card data than the attempt's is refused by the acquirer (key
// reused): answered invalid_state until a confirm with the attempt's own source resolves it.
// When the acquirer refuses the request without charging (a caller bug, live mode without an
// adapter) the attempt is undone (status and attempt_count as before), as the
// single-transaction version's rollback did.
//
// Source: card data typed in checkout (optionally a wallet variant), or a saved payment method of
// the payment's customer. "Save this card" (saveForCustomerId) tokenizes the card after the
// charge succeeded and attaches it to the customer (the first one becomes the default); a
// declined payment saves nothing.
//
// A payment that is not `requires_payment_method`, `failed` (failed may be retried) or
// `processing` answers invalid_state. The caller dispatches `events` after commit.
import { postInvoicePaid } from '../ledger/invoice-postings';
import type { Db } from '../../db/client';
import { scopedDb, type Tenant, type TenantDb } from '../../db/tenancy';
import type { Invoice, Payment, PaymentMethod } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { datingEventsAt, recordEvent } from '../../events';
import { customerClockTime } from '../test-clocks/customer-clock-time';
import {
  AdapterNotConfiguredError,
  gatewayErrorToApiError,
  GatewayInvalidRequestError,
  GatewayIdempotencyKeyReusedError,
  GatewayUnavailableError,
  type CardAcquirer,
  type CardDetails,
  type ChargeResult,
  type TokenizeCardResult,
  type Wallet,
} from '../../gateways';
import { presentPayment } from '../../objects/payments';
import { presentInvoice } from '../../objects/invoices';
import { findPaymentInvoice, paymentLineDescription } from '../invoices/payment-invoice';
import { lockPayment } from './lock-payment';
import { recordSavedCard } from '../payment-methods/attach-card';
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

/** A charge attempt recorded by beginCardAttempt and committed before the acquirer is asked. */
export interface CardAttempt {
  paymentId: string;
  /** The attempt recorded on the payment (attempt_count while it is `processing`). */
  attempt: number;
  /** The payment was already `processing`: this request resumes that attempt. */
  resumed: boolean;
  /** The status to restore when the attempt never reached the acquirer (fresh attempts only). */
  previousStatus: Payment['status'];
  amount: number;
  currency: string;
  description: string;
  customerId: string | null;
  savedMethod: PaymentMethod | null;
  saveFor: string | null;
  source: CardPaymentSource;
}

/** What the acquirer answered for an attempt (step 2), for recordCardAttempt. */
export interface CardAttemptAnswer {
  /** The attempt number the charge was made under (a spent number is skipped: see below). */
  attempt: number;
  result: ChargeResult;
  /** The card tokenized for "save this card" after a success (null: not asked for). */
  saved: TokenizeCardResult | null;
}

/** The acquirer idempotency key of a payment's Nth charge attempt. */
export function chargeAttemptKey(paymentId: string, attempt: number): string {
  return `${paymentId}:attempt:${attempt}`;
}

const CONFIRMABLE = new Set<Payment['status']>(['requires_payment_method', 'failed']);
/** How long a request holds its attempt: longer than the slowest acquirer answer we wait for (the slow test card: 35 s). */
export const CHARGE_ATTEMPT_LEASE_MS = 120_000;
/**
 * A key is "reused with other parameters" for a fresh attempt only when an earlier attempt under
 * it was made and never recorded (a payment confirmed before confirms had steps): that attempt
 * number is spent, take the next. Bounded, so a bug cannot loop.
 */
const MAX_SPENT_ATTEMPT_SKIPS = 5;

export function rethrowGatewayError(err: unknown): never {
  const e = err instanceof ChargedError ? err.cause : err;
  throw gatewayErrorToApiError(e) ?? e;
}

/** Step 1, inside the caller's transaction: checks, then the payment becomes `processing` at its attempt. */
export async function beginCardAttempt(db: TenantDb, tenant: Tenant, input: ConfirmCardPaymentInput, now: Date): Promise<CardAttempt> {
  const payment = await lockPayment(db, tenant, input.paymentId);
  if (!payment) throw errors.resourceNotFound(`No such payment: '${input.paymentId}'`, 'payment');
  const resumed = payment.status === 'processing';
  if (resumed && payment.attemptHeldUntil !== null && payment.attemptHeldUntil > now) {
    throw errors.invalidState('The payment is processing: another request is charging it', 'payment');
  }
  if (!resumed && !CONFIRMABLE.has(payment.status)) {
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

  const attempt = resumed ? payment.attemptCount : payment.attemptCount + 1;
  const attemptHeldUntil = new Date(now.getTime() + CHARGE_ATTEMPT_LEASE_MS);
  await db.payment.update({ where: { id: payment.id }, data: resumed ? { attemptHeldUntil } : { status: 'processing', attemptCount: attempt, attemptHeldUntil } });
  return {
    paymentId: payment.id,
    attempt,
    resumed,
    previousStatus: payment.status,
    amount: Number(payment.amount),
    currency: payment.currency,
    description: paymentLineDescription(payment).slice(0, 1000),
    customerId,
    savedMethod,
    saveFor,
    source: input.source,
  };
}

/**
 * Step 2, with no transaction open: the charge under the attempt's key and, after a success with
 * "save this card", the tokenization (key `${attemptKey}:save`). Throws the gateway's error; the
 * caller undoes a fresh attempt that never reached the acquirer (undoCardAttempt).
 */
export async function chargeCardAttempt(acquirer: CardAcquirer, tenant: Tenant, a: CardAttempt): Promise<CardAttemptAnswer> {
  let attempt = a.attempt;
  let result: ChargeResult;
  for (;;) {
    try {
      const common = { merchantId: tenant.merchantId, amount: a.amount, currency: a.currency, description: a.description, idempotencyKey: chargeAttemptKey(a.paymentId, attempt) };
      result = a.savedMethod ? await acquirer.charge({ ...common, token: a.savedMethod.acquirerToken! }) : await acquirer.charge({ ...common, card: cardDetails(a.source) });
      break;
    } catch (err) {
      if (err instanceof GatewayIdempotencyKeyReusedError && !a.resumed && attempt < a.attempt + MAX_SPENT_ATTEMPT_SKIPS - 1) {
        attempt += 1;
        continue;
      }
      if (err instanceof GatewayIdempotencyKeyReusedError && a.resumed) {
        throw errors.invalidState('The payment is processing a charge attempt made with another card; try again once it has finished', 'payment');
      }
      throw err;
    }
  }
  let saved: TokenizeCardResult | null = null;
  if (result.status === 'succeeded' && a.saveFor !== null && a.source.card !== undefined) {
    try {
      saved = await acquirer.tokenizeCard({ ...cardDetails(a.source), merchantId: tenant.merchantId, idempotencyKey: `${chargeAttemptKey(a.paymentId, attempt)}:save` });
    } catch (err) {
      // The money moved: only transient trouble is thrown (the attempt stays `processing` and a
      // retry resumes it: the same charge answer, the same tokenization); a refusal saves nothing.
      if (err instanceof GatewayUnavailableError) throw new ChargedError(err);
      saved = null;
    }
  }
  return { attempt, result, saved };
}

/** Transient trouble after the charge succeeded (tokenizing the card to save): never undone. */
class ChargedError extends Error {
  constructor(override readonly cause: GatewayUnavailableError) {
    super(cause.message);
  }
}

/**
 * After a failed charge call: a fresh attempt the acquirer refused without charging (a caller
 * bug, key reused, live mode without an adapter) is undone. Anything else (transient trouble, an
 * unknown failure: the charge may have happened) leaves it `processing`, to be resumed.
 */
export async function undoCardAttempt(db: Db, tenant: Tenant, a: CardAttempt, err: unknown): Promise<void> {
  const where = { id: a.paymentId, status: 'processing' as const, attemptCount: a.attempt };
  if (!a.resumed && (err instanceof GatewayInvalidRequestError || err instanceof AdapterNotConfiguredError)) {
    await scopedDb(db, tenant).payment.updateMany({ where, data: { status: a.previousStatus, attemptCount: a.attempt - 1, attemptHeldUntil: null } });
    return;
  }
  // This request is done with the attempt: the next confirm may resume it at once.
  await scopedDb(db, tenant).payment.updateMany({ where, data: { attemptHeldUntil: null } });
}

/**
 * Step 3, inside the caller's (second) transaction: writes the outcome if the payment is still
 * `processing` at the attempt; else answers the payment as another request recorded it.
 */
export async function recordCardAttempt(db: TenantDb, tenant: Tenant, a: CardAttempt, answer: CardAttemptAnswer, now: Date): Promise<ConfirmCardPaymentResult> {
  const payment = await lockPayment(db, tenant, a.paymentId);
  if (!payment) throw errors.resourceNotFound(`No such payment: '${a.paymentId}'`, 'payment');
  if (payment.status !== 'processing' || payment.attemptCount !== a.attempt) return recordedElsewhere(db, payment);
  const { result, attempt } = answer;
  const { customerId } = a;
  const invoiceFound = await findPaymentInvoice(db, payment.id);
  const events: Event[] = [];

  if (result.status === 'declined') {
    const updated = await db.payment.update({
      where: { id: payment.id },
      data: { status: 'failed', attemptCount: attempt, attemptHeldUntil: null, customerId, failureCode: result.code, failureMessage: result.message },
    });
    let invoice: Invoice | null = null;
    if (invoiceFound) {
      invoice = await db.invoice.update({ where: { id: invoiceFound.invoice.id }, data: { attemptCount: { increment: 1 }, customerId } });
    }
    events.push(await recordEvent(db, tenant, { type: 'payment.failed', data: presentPayment(updated, invoice?.id ?? null) }));
    if (invoice) events.push(await recordEvent(db, tenant, { type: 'invoice.payment_failed', data: presentInvoice(invoice, invoiceFound!.lines) }));
    return { outcome: 'declined', payment: updated, paymentMethod: null, declineCode: result.code, declineMessage: result.message, events };
  }

  let paymentMethod = a.savedMethod;
  // A card that was charged but cannot be saved (declined when tokenized): the payment stands, nothing is saved.
  if (a.saveFor !== null && answer.saved?.status === 'succeeded') {
    const attached = await recordSavedCard(db, tenant, { customerId: a.saveFor, saved: answer.saved });
    paymentMethod = attached.paymentMethod;
    events.push(...attached.events);
  }

  const updated = await db.payment.update({
    where: { id: payment.id },
    data: {
      status: 'succeeded',
      attemptCount: attempt,
      attemptHeldUntil: null,
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
    await postInvoicePaid(db, tenant, invoiceFound.invoice, {
      method: 'card',
      amount: invoiceFound.invoice.amountDue - invoiceFound.invoice.amountPaid,
      paymentId: updated.id,
      occurredAt: now,
    });
  }
  events.push(await recordEvent(db, tenant, { type: 'payment.succeeded', data: presentPayment(updated, invoice?.id ?? null) }));
  if (invoice) events.push(await recordEvent(db, tenant, { type: 'invoice.paid', data: presentInvoice(invoice, invoiceFound!.lines) }));
  return { outcome: 'succeeded', payment: updated, paymentMethod, events };
}

/** The outcome another request recorded for the same attempt (its events are its own). */
async function recordedElsewhere(db: TenantDb, payment: Payment): Promise<ConfirmCardPaymentResult> {
  if (payment.status === 'failed') {
    return {
      outcome: 'declined',
      payment,
      paymentMethod: null,
      declineCode: payment.failureCode ?? 'card_declined',
      declineMessage: payment.failureMessage ?? 'The card was declined.',
      events: [],
    };
  }
  if (payment.status === 'succeeded' || payment.status === 'partially_refunded' || payment.status === 'refunded') {
    const paymentMethod = payment.paymentMethodId ? await db.paymentMethod.findFirst({ where: { id: payment.paymentMethodId } }) : null;
    return { outcome: 'succeeded', payment, paymentMethod, events: [] };
  }
  throw errors.invalidState(`The payment is ${payment.status}`, 'payment');
}

/** The root client (no transaction may be open: the use case runs its own), the clock, how long to wait for a connection. */
export interface ConfirmDeps {
  db: Db;
  now: Date;
  /** How long each transaction waits for a pooled connection (the API passes DB_TX_MAX_WAIT_MS). */
  txMaxWaitMs?: number;
}

/** Neither transaction waits for an outside system, so each is short. */
const CONFIRM_TX_TIMEOUT_MS = 30_000;

/**
 * The three steps for a caller with nothing else to do in them: begin (own transaction, committed),
 * charge (no transaction), record (own transaction). `inFirst`/`inLast` add the caller's own work
 * to the two transactions (creating the payment, completing a checkout session).
 */
export async function confirmCardPayment<B = void, L = void>(
  deps: ConfirmDeps & { acquirer: CardAcquirer },
  tenant: Tenant,
  input: ConfirmCardPaymentInput | ((tx: TenantDb) => Promise<ConfirmCardPaymentInput & { before?: B }>),
  opts: {
    /** Runs first in the outcome's transaction: rows the caller locks before the payment, in the order of its first transaction (no deadlock). */
    lockFirst?: (tx: TenantDb, before: B | undefined) => Promise<void>;
    inLast?: (tx: TenantDb, result: ConfirmCardPaymentResult, before: B | undefined) => Promise<L>;
  } = {},
): Promise<ConfirmCardPaymentResult & { before: B | undefined; last: L | undefined }> {
  const scoped = scopedDb(deps.db, tenant);
  const txOptions = { timeout: CONFIRM_TX_TIMEOUT_MS, maxWait: deps.txMaxWaitMs ?? 10_000 };
  const begun = await scoped.$transaction(async (tx) => {
    const i = typeof input === 'function' ? await input(tx) : input;
    const attempt = await beginCardAttempt(tx, tenant, i, deps.now);
    // Live mode without an acquirer: refused after the checks, and nothing is kept (this rolls back).
    if (deps.acquirer.kind === 'unconfigured') throw new AdapterNotConfiguredError('card_acquirer');
    return { attempt, before: (i as { before?: B }).before };
  }, txOptions);
  let answer: CardAttemptAnswer;
  try {
    answer = await chargeCardAttempt(deps.acquirer, tenant, begun.attempt);
  } catch (err) {
    // A failure to undo or release leaves the hold to expire; the answer is the charge's error.
    await undoCardAttempt(deps.db, tenant, begun.attempt, err).catch(() => undefined);
    rethrowGatewayError(err);
  }
  return scoped.$transaction(async (tx) => {
    if (opts.lockFirst) await opts.lockFirst(tx, begun.before);
    // A test-clock customer's outcome (succeeded_at, the invoice's paid_at, the ledger posting,
    // the events) is dated at the clock's time (docs/test-clocks.md "Timestamps"); the attempt's
    // hold (step 1) stays in wall time, so it expires while the clock stands still.
    const clockTime = await customerClockTime(tx, begun.attempt.customerId);
    const record = async () => {
      const result = await recordCardAttempt(tx, tenant, begun.attempt, answer, clockTime ?? deps.now);
      const last = opts.inLast ? await opts.inLast(tx, result, begun.before) : undefined;
      return { ...result, before: begun.before, last };
    };
    return clockTime ? datingEventsAt(clockTime, record) : record();
  }, txOptions);
}

function cardDetails(source: CardPaymentSource): CardDetails {
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
