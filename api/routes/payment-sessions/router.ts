import cors from '@koa/cors';
import { areaOf, secretKey } from '../../route';
import { dispatchAfterCommit } from '../../../src/domain/dispatch-after-commit';
import type { Middleware } from '../../context';
import { dbOf, tenantOf, scopeOf } from '../../context';
import { transactional } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { createPaymentSession } from '../../../src/domain/payment-sessions/create-payment-session';
import { getPaymentSession } from '../../../src/domain/payment-sessions/find-payment-session';
import { parseBody, pathId } from '../../validate';
import { createPaymentSessionSchema } from './schemas';
import { presentPaymentSession } from '../../../src/objects/payment-sessions';

const CREATE_PATH = '/v1/payment_sessions';

/**
 * CORS for the one call browsers make (embedded sessions with a publishable key), by @koa/cors:
 * the requesting origin is echoed, without credentials (no cookies are involved; the key is the
 * credential), on every response, errors included, so the page can read them; a preflight
 * (OPTIONS with Access-Control-Request-Method) is answered 204 here. Whether the origin may create
 * a session is decided after authentication (allowed origins): a preflight carries no key, so it
 * cannot know the merchant. The error envelope keeps the headers already set, hence no copy onto
 * the error (keepHeadersOnError, which would also replace Vary).
 */
const corsForBrowsers = cors({
  origin: (ctx) => ctx.get('Origin'),
  allowMethods: 'POST',
  allowHeaders: 'Authorization, Content-Type, X-Merchant-Id, Idempotency-Key',
  exposeHeaders: 'X-Request-Id, Idempotent-Replayed',
  maxAge: 600,
  keepHeadersOnError: false,
}) as Middleware;

const { route, area } = areaOf((deps, auth) => {
  const tx = transactional(deps);
  // Publishable keys reach the handler only for this one call; the handler checks the rest.
  const publishableMayCreate = auth({ allowPublishable: (ctx) => ctx.method === 'POST' && ctx.path === CREATE_PATH });
  return { tx, publishableMayCreate };
});

export const paymentSessionsRoutes = area('payment-sessions', [
  route({
    method: 'post',
    path: CREATE_PATH,
    operationId: 'createPaymentSession',
    tag: 'Payment sessions',
    summary: 'Create a hosted or embedded payment session',
    description:
      "Creates a checkout session that collects one payment. `hosted` (the default) needs `return_url` and may have `cancel_url`, both on the merchant's redirect domains when it has any (url_not_allowed), and answers the checkout page's `url`; `embedded` needs `origin` and answers a `client_secret` for the embedded checkout, in this response only. With `payment` the session collects an existing payment that requires a payment method or has failed; otherwise `amount` and `currency` create a new payment with its invoice (recording `invoice.finalized`). A publishable key may create only embedded sessions, from a browser whose `Origin` and `origin` are both among the merchant's allowed origins (origin_not_allowed), and without `payment` or `customer`. An open session expires after the service's session lifetime.",
    auth: 'secret_or_publishable',
    body: createPaymentSessionSchema,
    status: 201,
    response: 'PaymentSession',
    errors: ['origin_not_allowed', 'url_not_allowed'],
    use: ({ publishableMayCreate, tx }) => [corsForBrowsers, publishableMayCreate, tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const b = parseBody(createPaymentSessionSchema, ctx.state.body);
        const tenant = tenantOf(ctx);
        const db = dbOf(ctx);
        const merchant = await db.merchant.findUnique({
          where: { id: tenant.merchantId },
          select: { defaultCurrency: true, allowedOrigins: true, redirectDomains: true },
        });
        if (!merchant) throw errors.unauthorized('Invalid API key.');
        const now = new Date();
        const created = await createPaymentSession(
          db,
          tenant,
          {
            uiMode: b.mode ?? 'hosted',
            paymentId: b.payment,
            amount: b.amount,
            currency: b.currency,
            description: b.description,
            customerId: b.customer,
            customerEmail: b.customer_email,
            returnUrl: b.return_url,
            cancelUrl: b.cancel_url,
            origin: b.origin,
            enabledMethods: b.enabled_methods as string[] | null | undefined,
            locale: b.locale,
            savePaymentMethod: b.save_payment_method,
            externalReference: b.external_reference,
            metadata: b.metadata,
          },
          {
            now,
            lifetimeSeconds: deps.config.paymentSessionLifetimeSeconds,
            merchant,
            publishable: ctx.state.auth?.keyType === 'publishable' ? { requestOrigin: ctx.get('Origin') } : null,
          },
        );
        const { session, events } = created;
        ctx.state.afterCommit.push(async () => void (await deps.workflows.paymentSession.start(session, new Date())));
        dispatchAfterCommit(deps, scopeOf(ctx), events);
        // The client secret is shown once: an Idempotency-Key replay returns null in its place.
        ctx.state.redactOnReplay = ['client_secret'];
        ctx.status = 201;
        ctx.body = presentPaymentSession(session, created.payment, { publicBaseUrl: deps.config.publicBaseUrl, clientSecret: created.clientSecret, now });
      },
  }),
  route({
    method: 'options',
    path: CREATE_PATH,
    operationId: 'preflightPaymentSession',
    tag: 'Payment sessions',
    summary: 'CORS preflight for browsers creating a session',
    description:
      "The CORS preflight a browser sends before creating an embedded payment session with a publishable key: answers 204, allowing POST with the `Authorization`, `Content-Type`, `X-Merchant-Id` and `Idempotency-Key` headers for the requesting `Origin` (cached for 10 minutes). Whether that origin may create a session is decided by the POST itself, against the merchant's allowed origins. No key needed; changes nothing.",
    auth: 'none',
    kind: 'none',
    status: 204,
    use: () => [corsForBrowsers],
    // corsForBrowsers answers a browser's preflight; an OPTIONS without Origin or
    // Access-Control-Request-Method is no preflight and gets an empty 204 without CORS headers.
    handler: () => async (ctx) => {
      ctx.status = 204;
    },
  }),
  route({
    method: 'get',
    path: '/v1/payment_sessions/:id',
    operationId: 'retrievePaymentSession',
    tag: 'Payment sessions',
    summary: 'Retrieve a payment session',
    description:
      'Returns a payment session: its status (an open session past `expires_at` reads `expired`), the payment it collects with amount and currency, and for a hosted session the checkout `url`. `client_secret` is null here: only the creation of an embedded session returns it. Secret key only; reads only.',
    response: 'PaymentSession',
    ...secretKey(),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const s = await getPaymentSession(dbOf(ctx), pathId(ctx.params.id));
        ctx.body = presentPaymentSession(s, s.payment, { publicBaseUrl: deps.config.publicBaseUrl });
      },
  }),
]);
