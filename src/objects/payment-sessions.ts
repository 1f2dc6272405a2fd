// The payment session as the API returns it. `client_secret` is present only in the create
// response of an embedded session (it is stored hashed); `status` is the effective status: an
// open session past expires_at reads `expired` (effectiveStatus below).
import type { Payment, PaymentSession } from '../generated/prisma/client';
import { iso } from './iso';

/**
 * The status a reader sees: an open session whose expires_at has passed is `expired` even if its
 * expiry workflow has not run yet (it cannot complete any more; the workflow catches up).
 */
export function effectiveStatus(s: Pick<PaymentSession, 'status' | 'expiresAt'>, now: Date): PaymentSession['status'] {
  return s.status === 'open' && s.expiresAt.getTime() <= now.getTime() ? 'expired' : s.status;
}

export function checkoutUrl(publicBaseUrl: string, sessionId: string): string {
  return `${publicBaseUrl}/checkout/${sessionId}`;
}

export function presentPaymentSession(s: PaymentSession, payment: Pick<Payment, 'amount' | 'currency'>, opts: { publicBaseUrl: string; clientSecret?: string | null; now?: Date }) {
  return {
    id: s.id,
    object: 'payment_session',
    mode: s.uiMode,
    status: effectiveStatus(s, opts.now ?? new Date()),
    url: s.uiMode === 'hosted' ? checkoutUrl(opts.publicBaseUrl, s.id) : null,
    client_secret: s.uiMode === 'embedded' ? (opts.clientSecret ?? null) : null,
    payment: s.paymentId,
    amount: Number(payment.amount),
    currency: payment.currency,
    customer: s.customerId,
    customer_email: s.customerEmail,
    return_url: s.returnUrl,
    cancel_url: s.cancelUrl,
    origin: s.origin,
    enabled_methods: s.enabledMethods,
    locale: s.locale,
    save_payment_method: s.savePaymentMethod,
    payment_method: s.savedPaymentMethodId,
    external_reference: s.externalReference,
    metadata: (s.metadata ?? {}) as Record<string, string>,
    expires_at: iso(s.expiresAt),
    completed_at: iso(s.completedAt),
    created_at: iso(s.createdAt),
  };
}
