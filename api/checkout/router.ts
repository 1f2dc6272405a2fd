// Checkout, served by the API process without API keys (docs/checkout.md):
//   GET  /checkout/embed.js                     the script merchants include to mount embedded checkout
//   GET  /checkout/assets/checkout.{js,css}     the pages' own script and style (the CSP allows only these)
//   GET  /checkout/embedded?parent_origin=…     the embedded element's page (inside the merchant's iframe)
//   GET  /checkout/:id                          the hosted checkout page (the session's `url`)
//   POST /checkout/api/sessions/:id/confirm     hosted: pay with card data → complete or declined
//   POST /checkout/api/embedded/session         embedded: the session's display data, by client secret
//   POST /checkout/api/embedded/confirm         embedded: pay, by client secret
// The hosted page's capability is the unguessable session id in its URL; the embedded page's is
// the client secret, which reaches it only by postMessage from the mounting script.
import { areaOf } from '../route';
import type { AppContext } from '../context';
import { errors } from '../../src/errors';
import { assertPageSameOrigin } from '../middleware/same-origin';
import { announceCheckoutPayment } from '../../src/domain/payment-sessions/announce-checkout-payment';
import { formatMoney } from '../../src/billing/currency';
import type { CardAcquirer } from '../../src/gateways';
import type { Mode } from '../../src/generated/prisma/client';
import { effectiveStatus } from '../../src/objects/payment-sessions';
import { findCheckoutSessionById, findCheckoutSessionBySecret, type SessionWithPayment } from '../../src/domain/payment-sessions/find-payment-session';
import { MAX_CHECKOUT_ATTEMPTS, payCheckoutSession } from '../../src/domain/payment-sessions/complete-checkout';
import { returnUrlWithSession } from '../../src/domain/payment-sessions/redirects';
import type { CheckoutMethod } from '../../src/domain/payment-sessions/create-payment-session';
import { parseBody } from '../validate';
import { MESSAGES, pickLocale, type CheckoutLocale } from './i18n';
import { embeddedCheckoutPage, hostedCheckoutPage, statusPage, type CheckoutView } from './html';
import { setApiHeaders, setAssetHeaders, setPageHeaders } from './security';
import { confirmBodySchema, embeddedConfirmSchema, embeddedSessionSchema, type ConfirmBody } from './schemas';
import { CHECKOUT_JS } from './assets/checkout-js';
import { CHECKOUT_CSS } from './assets/checkout-css';
import { EMBED_JS } from './assets/embed-js';

type CheckoutSession = SessionWithPayment & { merchantName: string };

export interface CheckoutOptions {
  /** The card acquirer of a mode; default: the simulator in test mode, the configured live adapter otherwise. */
  acquirerFor?: (mode: Mode) => CardAcquirer;
}

function amountLabel(s: CheckoutSession): string {
  return formatMoney(s.payment.amount, s.payment.currency);
}

/** Whether the session can still take a payment, and if not, which page to show. */
function payability(s: CheckoutSession, now: Date): 'open' | 'complete' | 'expired' | 'closed' {
  const status = effectiveStatus(s, now);
  if (status !== 'open') return status;
  const payable = s.payment.status === 'requires_payment_method' || s.payment.status === 'failed';
  return payable && s.payment.attemptCount < MAX_CHECKOUT_ATTEMPTS ? 'open' : 'closed';
}

function view(s: CheckoutSession, locale: CheckoutLocale): CheckoutView {
  const wallets = s.mode === 'test' ? s.enabledMethods.filter((m): m is 'apple_pay' | 'google_pay' => m === 'apple_pay' || m === 'google_pay') : [];
  return {
    locale,
    t: MESSAGES[locale],
    merchantName: s.merchantName,
    amountLabel: amountLabel(s),
    description: s.payment.description,
    testMode: s.mode === 'test',
    card: s.enabledMethods.includes('card'),
    wallets,
    customerEmail: s.customerEmail,
    offerSave: s.savePaymentMethod && s.customerId !== null,
    cancelUrl: s.cancelUrl,
  };
}

/** The page's JSON endpoints answer only the page itself (same origin), not other sites. */
function sameOriginOnly(ctx: AppContext): void {
  assertPageSameOrigin(ctx, 'Checkout endpoints serve the checkout pages only');
}

/** An origin as embed.js sends it (window.location.origin), normalised; null when it is not one. */
function parseParentOrigin(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 255) return null;
  try {
    const u = new URL(raw);
    if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== raw.replace(/\/$/, '')) return null;
    return u.origin;
  } catch {
    return null;
  }
}

function confirmInput(b: ConfirmBody) {
  return {
    method: b.method as CheckoutMethod,
    email: b.email ?? null,
    savePaymentMethod: b.save_payment_method === true,
    card: { number: b.card.number, expMonth: b.card.exp_month, expYear: b.card.exp_year, cvc: b.card.cvc ?? null, holderName: b.card.name ?? null },
  };
}

const { route, area } = areaOf((deps, _auth) => {
  const acquirerFor = (mode: Mode) => deps.gateways.cardAcquirer(mode);

  async function pay(ctx: AppContext, s: CheckoutSession, body: ConfirmBody): Promise<void> {
    const result = await payCheckoutSession({ db: deps.db, acquirerFor, now: new Date(), txMaxWaitMs: deps.config.transactionMaxWaitMs }, s, confirmInput(body));
    await announceCheckoutPayment(deps, s.id, result);
    setApiHeaders(ctx);
    ctx.body =
      result.outcome === 'succeeded'
        ? {
            outcome: 'succeeded',
            session_id: s.id,
            status: result.session.status,
            payment: result.payment.id,
            payment_status: result.payment.status,
            redirect_url: result.redirectUrl,
          }
        : { outcome: 'declined', decline_code: result.declineCode, message: result.declineMessage };
  }

  /** The session of a client secret, only for the origin it was created for. */
  async function embeddedSession(secret: string, parentOrigin: string): Promise<CheckoutSession> {
    const s = await findCheckoutSessionBySecret(deps.db, secret);
    if (!s) throw errors.resourceMissing('No such checkout session', 'client_secret');
    if (s.origin !== parseParentOrigin(parentOrigin)) {
      throw errors.originNotAllowed('This checkout session belongs to another origin', 'parent_origin');
    }
    return s;
  }
  return { acquirerFor, pay, embeddedSession };
});

export const checkoutRoutes = area('checkout', [
  route({
    method: 'get',
    path: '/checkout/embed.js',
    operationId: 'retrieveCheckoutEmbedScript',
    tag: 'Checkout page',
    summary: 'The script a merchant page includes to embed checkout',
    auth: 'none',
    kind: 'javascript',
    handler: () => async (ctx) => {
      setAssetHeaders(ctx, 'application/javascript; charset=utf-8', { crossOrigin: true });
      ctx.body = EMBED_JS;
    },
  }),
  route({
    method: 'get',
    path: '/checkout/assets/checkout.js',
    operationId: 'retrieveCheckoutScript',
    tag: 'Checkout page',
    summary: "The checkout page's script",
    auth: 'none',
    kind: 'javascript',
    handler: () => async (ctx) => {
      setAssetHeaders(ctx, 'application/javascript; charset=utf-8');
      ctx.body = CHECKOUT_JS;
    },
  }),
  route({
    method: 'get',
    path: '/checkout/assets/checkout.css',
    operationId: 'retrieveCheckoutStyles',
    tag: 'Checkout page',
    summary: "The checkout page's styles",
    auth: 'none',
    kind: 'css',
    handler: () => async (ctx) => {
      setAssetHeaders(ctx, 'text/css; charset=utf-8');
      ctx.body = CHECKOUT_CSS;
    },
  }),
  route({
    method: 'get',
    path: '/checkout/embedded',
    operationId: 'retrieveEmbeddedCheckoutPage',
    tag: 'Checkout page',
    summary: 'The embedded checkout page (in an iframe)',
    auth: 'checkout',
    kind: 'html',
    also: [{ status: 400, description: 'A page saying the session was not found', kind: 'html' }],
    handler: () => async (ctx) => {
      const locale = pickLocale(null, ctx);
      const t = MESSAGES[locale];
      const parentOrigin = parseParentOrigin(ctx.query.parent_origin);
      if (!parentOrigin) {
        setPageHeaders(ctx, { frameAncestors: "'none'" });
        ctx.status = 400;
        ctx.body = statusPage({ locale, t, kind: 'not_found' });
        return;
      }
      setPageHeaders(ctx, { frameAncestors: parentOrigin });
      const blank: CheckoutView = {
        locale,
        t,
        merchantName: '',
        amountLabel: '',
        description: null,
        testMode: false,
        card: true,
        wallets: [],
        customerEmail: null,
        offerSave: false,
        cancelUrl: null,
      };
      ctx.body = embeddedCheckoutPage(blank, { mode: 'embedded', locale, messages: t, parentOrigin, confirmUrl: '/checkout/api/embedded/confirm' });
    },
  }),
  route({
    method: 'get',
    path: '/checkout/:id',
    operationId: 'retrieveHostedCheckoutPage',
    tag: 'Checkout page',
    summary: 'The hosted checkout page of a session',
    auth: 'checkout',
    kind: 'html',
    also: [
      { status: 404, description: 'A page saying the session does not exist', kind: 'html' },
      { status: 410, description: 'A page saying the session expired or was canceled', kind: 'html' },
    ],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const s = await findCheckoutSessionById(deps.db, ctx.params.id ?? '');
        const locale = pickLocale(s?.locale, ctx);
        const t = MESSAGES[locale];
        setPageHeaders(ctx, { frameAncestors: "'none'" });
        if (!s || s.uiMode !== 'hosted') {
          ctx.status = 404;
          ctx.body = statusPage({ locale, t, kind: 'not_found' });
          return;
        }
        const state = payability(s, new Date());
        if (state === 'complete') {
          ctx.body = statusPage({
            locale,
            t,
            kind: 'complete',
            merchantName: s.merchantName,
            link: s.returnUrl ? { href: returnUrlWithSession(s.returnUrl, s.id), label: t.continue } : null,
          });
          return;
        }
        if (state === 'expired' || state === 'closed') {
          ctx.status = 410;
          ctx.body = statusPage({ locale, t, kind: state, merchantName: s.merchantName, link: s.cancelUrl ? { href: s.cancelUrl, label: t.cancel } : null });
          return;
        }
        ctx.body = hostedCheckoutPage(view(s, locale), { mode: 'hosted', locale, messages: t, confirmUrl: `/checkout/api/sessions/${s.id}/confirm` });
      },
  }),
  route({
    method: 'post',
    path: '/checkout/api/sessions/:id/confirm',
    operationId: 'confirmHostedCheckout',
    tag: 'Checkout page',
    summary: 'Pay a hosted session (called by the page)',
    auth: 'checkout',
    body: confirmBodySchema,
    response: 'CheckoutPaymentResult',
    errors: ['origin_not_allowed', 'invalid_state'],
    handler:
      ({ deps, pay }) =>
      async (ctx) => {
        sameOriginOnly(ctx);
        const s = await findCheckoutSessionById(deps.db, ctx.params.id ?? '');
        if (!s || s.uiMode !== 'hosted') throw errors.resourceMissing('No such checkout session', 'session');
        await pay(ctx, s, parseBody(confirmBodySchema, ctx.state.body));
      },
  }),
  route({
    method: 'post',
    path: '/checkout/api/embedded/session',
    operationId: 'retrieveEmbeddedCheckoutSession',
    tag: 'Checkout page',
    summary: 'The embedded session of a client secret (called by the page)',
    auth: 'checkout',
    body: embeddedSessionSchema,
    response: 'EmbeddedCheckoutSession',
    errors: ['origin_not_allowed'],
    handler:
      ({ embeddedSession }) =>
      async (ctx) => {
        sameOriginOnly(ctx);
        const b = parseBody(embeddedSessionSchema, ctx.state.body);
        const s = await embeddedSession(b.client_secret, b.parent_origin);
        const locale = pickLocale(s.locale, ctx);
        const v = view(s, locale);
        setApiHeaders(ctx);
        ctx.body = {
          session_id: s.id,
          status: payability(s, new Date()),
          origin: s.origin,
          merchant_name: v.merchantName,
          amount_label: v.amountLabel,
          description: v.description,
          test_mode: v.testMode,
          enabled_methods: s.enabledMethods,
          customer_email: s.customerEmail,
          save_payment_method: v.offerSave,
          locale,
          messages: v.t,
        };
      },
  }),
  route({
    method: 'post',
    path: '/checkout/api/embedded/confirm',
    operationId: 'confirmEmbeddedCheckout',
    tag: 'Checkout page',
    summary: 'Pay an embedded session (called by the page)',
    auth: 'checkout',
    body: embeddedConfirmSchema,
    response: 'CheckoutPaymentResult',
    errors: ['origin_not_allowed', 'invalid_state'],
    handler:
      ({ embeddedSession, pay }) =>
      async (ctx) => {
        sameOriginOnly(ctx);
        const b = parseBody(embeddedConfirmSchema, ctx.state.body);
        const s = await embeddedSession(b.client_secret, b.parent_origin);
        await pay(ctx, s, b);
      },
  }),
]);
