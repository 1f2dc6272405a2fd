// Creates a payment session (hosted or embedded) for a new payment or an existing unpaid one.
// Runs inside the request's transaction; the caller starts the expiry workflow and dispatches
// `events` after commit. Rules (docs/checkout.md):
//  - hosted: requires return_url, may have cancel_url, gets `url`; origin is not allowed;
//  - embedded: requires origin, gets a client secret (returned once); return_url/cancel_url are
//    not allowed (completion is reported to the origin with postMessage);
//  - `payment` attaches to an existing payment in requires_payment_method or failed (then
//    amount, currency and description come from it, and the session's metadata and
//    external_reference stay on the session); otherwise a new payment is created from amount
//    and currency, with metadata and external_reference copied to it;
//  - publishable keys: embedded only, only when the request's Origin header and the `origin`
//    parameter are both among the merchant's allowed origins, and never with `payment` or
//    `customer` (those would let anyone holding the public key act on the merchant's objects).
import type { Tenant, TenantDb } from '../../db/tenancy';
import type { Payment, PaymentSession } from '../../generated/prisma/client';
import { errors } from '../../errors';
import { newId } from '../../ids';
import { validateEmail } from '../../validation/email';
import { createPayment, type Event } from '../payments/create-payment';
import { checkAmount, checkCurrency, checkMetadata, checkText, DESCRIPTION_MAX, EXTERNAL_REFERENCE_MAX } from '../checks/payment-fields';
import { newClientSecret } from './client-secret';
import { checkRedirectUrl, normalizeOrigin } from './redirects';

export const CHECKOUT_METHODS = ['card', 'apple_pay', 'google_pay'] as const;
export type CheckoutMethod = (typeof CHECKOUT_METHODS)[number];
export const LOCALE_PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,4}$/;

export interface CreatePaymentSessionInput {
  uiMode: 'hosted' | 'embedded';
  paymentId?: string | null;
  amount?: number | null;
  currency?: string | null;
  description?: string | null;
  customerId?: string | null;
  customerEmail?: string | null;
  returnUrl?: string | null;
  cancelUrl?: string | null;
  origin?: string | null;
  enabledMethods?: string[] | null;
  locale?: string | null;
  savePaymentMethod?: boolean | null;
  externalReference?: string | null;
  metadata?: Record<string, unknown> | null;
}

export interface SessionCaller {
  now: Date;
  lifetimeSeconds: number;
  merchant: { defaultCurrency: string; allowedOrigins: readonly string[]; redirectDomains: readonly string[] };
  /** Set when the request was made with a publishable key: the request's Origin header ('' if none). */
  publishable: { requestOrigin: string } | null;
}

export interface CreatedPaymentSession {
  session: PaymentSession;
  payment: Payment;
  /** The embedded client secret, shown once; null for hosted sessions. */
  clientSecret: string | null;
  events: Event[];
}

const given = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

function notAllowed(param: string, why: string): never {
  throw errors.parameterNotAllowed(`${param} ${why}`, param);
}

function checkPublishable(input: CreatePaymentSessionInput, caller: SessionCaller, tenant: Tenant): void {
  if (!caller.publishable) return;
  if (input.uiMode !== 'embedded') {
    throw errors.secretKeyRequired('Publishable keys may only create embedded payment sessions (mode: embedded). Use a secret key for hosted sessions.', 'mode');
  }
  const allowed = new Set(caller.merchant.allowedOrigins);
  const header = caller.publishable.requestOrigin;
  let param = '';
  try {
    param = given(input.origin) ? normalizeOrigin(input.origin, 'origin', tenant.mode) : '';
  } catch {
    param = '';
  }
  if (header === '' || !allowed.has(header)) {
    throw errors.originNotAllowed(
      header === ''
        ? 'Publishable keys work only from a browser page on an allowed origin; this request had no Origin header.'
        : `The origin ${header} is not among the merchant's allowed origins.`,
      'Origin',
    );
  }
  if (param === '' || !allowed.has(param)) {
    throw errors.originNotAllowed("The origin parameter must be one of the merchant's allowed origins.", 'origin');
  }
  if (given(input.paymentId)) throw errors.secretKeyRequired('Attaching a session to an existing payment needs a secret key.', 'payment');
  if (given(input.customerId)) throw errors.secretKeyRequired('Naming a customer needs a secret key.', 'customer');
}

function checkEnabledMethods(methods: string[] | null | undefined): CheckoutMethod[] {
  if (!given(methods)) return [...CHECKOUT_METHODS];
  if (methods.length === 0) throw errors.validationFailed('enabled_methods must name at least one method (or be omitted for all)', 'enabled_methods');
  const out: CheckoutMethod[] = [];
  for (const m of methods) {
    if (!(CHECKOUT_METHODS as readonly string[]).includes(m)) {
      throw errors.validationFailed(`enabled_methods: '${String(m).slice(0, 40)}' is not a checkout method (${CHECKOUT_METHODS.join(', ')})`, 'enabled_methods');
    }
    if (!out.includes(m as CheckoutMethod)) out.push(m as CheckoutMethod);
  }
  return out;
}

/** The mode-specific parameters: a hosted session's return and cancel URLs, an embedded session's origin. */
function modeParameters(input: CreatePaymentSessionInput, tenant: Tenant, caller: SessionCaller): { returnUrl: string | null; cancelUrl: string | null; origin: string | null } {
  if (input.uiMode === 'hosted') {
    if (given(input.origin)) notAllowed('origin', 'is only for embedded sessions (mode: embedded)');
    if (!given(input.returnUrl)) throw errors.validationFailed('return_url is required for hosted sessions', 'return_url');
    const domains = { mode: tenant.mode, redirectDomains: caller.merchant.redirectDomains };
    const returnUrl = checkRedirectUrl(input.returnUrl, 'return_url', domains);
    return { returnUrl, cancelUrl: given(input.cancelUrl) ? checkRedirectUrl(input.cancelUrl, 'cancel_url', domains) : null, origin: null };
  }
  if (given(input.returnUrl)) notAllowed('return_url', 'is only for hosted sessions: an embedded session reports completion to its origin');
  if (given(input.cancelUrl)) notAllowed('cancel_url', 'is only for hosted sessions');
  if (!given(input.origin)) throw errors.validationFailed('origin is required for embedded sessions', 'origin');
  return { returnUrl: null, cancelUrl: null, origin: normalizeOrigin(input.origin, 'origin', tenant.mode) };
}

export async function createPaymentSession(db: TenantDb, tenant: Tenant, input: CreatePaymentSessionInput, caller: SessionCaller): Promise<CreatedPaymentSession> {
  checkPublishable(input, caller, tenant);
  const hosted = input.uiMode === 'hosted';
  const { returnUrl, cancelUrl, origin } = modeParameters(input, tenant, caller);

  const enabledMethods = checkEnabledMethods(input.enabledMethods);
  if (given(input.locale) && !LOCALE_PATTERN.test(input.locale)) throw errors.validationFailed('locale must be a BCP 47 language tag such as is, en or en-GB', 'locale');
  let customerEmail: string | null = null;
  if (given(input.customerEmail)) {
    const e = validateEmail(input.customerEmail);
    if (!e.ok) throw errors.validationFailed(`customer_email: ${e.message}`, 'customer_email');
    customerEmail = e.value;
  }
  checkText(input.externalReference, EXTERNAL_REFERENCE_MAX, 'external_reference');
  checkText(input.description, DESCRIPTION_MAX, 'description');
  const metadata = checkMetadata(input.metadata);

  // The customer (optional): must exist in this merchant and mode.
  let customer: { id: string; email: string } | null = null;
  if (given(input.customerId)) {
    customer = await db.customer.findFirst({ where: { id: input.customerId }, select: { id: true, email: true } });
    if (!customer) throw errors.resourceNotFound(`No such customer: '${input.customerId}'`, 'customer');
  }

  // The payment: an existing unpaid one, or a new one.
  let payment: Payment;
  const events: Event[] = [];
  if (given(input.paymentId)) {
    for (const [param, v] of [
      ['amount', input.amount],
      ['currency', input.currency],
      ['description', input.description],
    ] as const) {
      if (given(v)) notAllowed(param, 'comes from the payment when `payment` is given');
    }
    const existing = await db.payment.findFirst({ where: { id: input.paymentId } });
    if (!existing) throw errors.resourceNotFound(`No such payment: '${input.paymentId}'`, 'payment');
    if (existing.status !== 'requires_payment_method' && existing.status !== 'failed') {
      throw errors.invalidState(`The payment is ${existing.status}; a session can be attached only to a payment that requires a payment method or has failed`, 'payment');
    }
    if (customer && existing.customerId !== null && existing.customerId !== customer.id) {
      throw errors.validationFailed(`customer must be the payment's customer ('${existing.customerId}')`, 'customer');
    }
    if (!customer && existing.customerId !== null) {
      customer = await db.customer.findFirst({ where: { id: existing.customerId }, select: { id: true, email: true } });
    }
    payment = existing;
  } else {
    if (!given(input.amount)) throw errors.validationFailed('amount is required when payment is omitted', 'amount');
    checkAmount(input.amount);
    const currency = input.currency ?? caller.merchant.defaultCurrency;
    checkCurrency(currency);
    const created = await createPayment(db, tenant, {
      amount: input.amount,
      currency,
      description: input.description ?? null,
      customerId: customer?.id ?? null,
      externalReference: input.externalReference ?? null,
      metadata,
      now: caller.now,
    });
    payment = created.payment;
    events.push(...created.events);
  }

  const savePaymentMethod = input.savePaymentMethod === true;
  if (savePaymentMethod && !customer) {
    throw errors.validationFailed('save_payment_method needs a customer: payment methods are saved to a customer', 'save_payment_method');
  }

  const secret = hosted ? null : newClientSecret();
  const session = await db.paymentSession.create({
    data: {
      id: newId('paymentSession', caller.now.getTime()),
      merchantId: tenant.merchantId,
      mode: tenant.mode,
      paymentId: payment.id,
      uiMode: input.uiMode,
      status: 'open',
      customerId: customer?.id ?? null,
      customerEmail: customerEmail ?? customer?.email ?? null,
      returnUrl,
      cancelUrl,
      origin,
      enabledMethods,
      locale: input.locale ?? null,
      savePaymentMethod,
      clientSecretHash: secret?.hash ?? null,
      externalReference: input.externalReference ?? null,
      metadata,
      expiresAt: new Date(caller.now.getTime() + caller.lifetimeSeconds * 1000),
      createdAt: caller.now,
    },
  });
  return { session, payment, clientSecret: secret?.secret ?? null, events };
}
