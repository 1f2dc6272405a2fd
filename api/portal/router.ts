// The customer portal (docs/portal.md), served by the API process without API keys:
//   GET  /portal/open/:token                  exchange a link for a session (cookie), then /portal
//   GET  /portal                              the portal page of the session's customer
//   GET  /portal/invoices/:id[/pdf]           an invoice document (HTML page, or PDF download)
//   GET  /portal/credit_notes/:id[/pdf]       a credit note document
//   GET  /portal/assets/portal.{js,css}       the page's own script and style
//   POST /portal/api/subscriptions/:id/cancel|uncancel
//   POST /portal/api/payment_methods          add a card (optionally the default)
//   POST /portal/api/payment_methods/:id/default|remove
//   POST /portal/api/billing_details          e-mail, billing address, VAT number
//   POST /portal/api/invoices/:id/pay         pay an open invoice now with the default card
//   POST /portal/api/sign_out
// Every action: same origin only, a live session (cookie), the session's CSRF token, the
// merchant's portal settings, then the same domain functions as the API in one transaction
// whose idempotency key is the form's one-time key (a double submit is answered once).
import { areaOf } from '../route';
import type { RouteDoc } from '../openapi/describe';
import { dispatchAfterCommit } from '../../src/domain/dispatch-after-commit';
import type { AppContext, AppState, Middleware } from '../context';
import { dbOf, tenantOf } from '../context';
import { stepwise, transactional } from '../middleware/transaction';
import { errors } from '../../src/errors';
import { assertPageSameOrigin } from '../middleware/same-origin';
import { scopedDb, type ScopedDb, type Tenant, type TenantDb } from '../../src/db/tenancy';
import { requestScope, type RequestScope } from '../../src/domain/request-scope';
import { openPortalLink } from '../../src/domain/customer-portals/open-portal-link';
import { endPortalSession, findPortalSession } from '../../src/domain/customer-portals/find-portal-session';
import { secretsEqual } from '../../src/domain/customer-portals/portal-tokens';
import { loadPortalOverview } from '../../src/domain/customer-portals/load-portal-overview';
import { getPortalSettings } from '../../src/domain/customer-portals/portal-settings';
import { assertPortalAllows, type PortalAction } from '../../src/domain/customer-portals/portal-permissions';
import { customerCreditNote, customerInvoice, customerPaymentMethod, customerSubscription } from '../../src/domain/customer-portals/customer-owned';
import { addCustomerCard } from '../../src/domain/customer-portals/add-customer-card';
import { removeCustomerCard } from '../../src/domain/customer-portals/remove-customer-card';
import { setDefaultPaymentMethod } from '../../src/domain/payment-methods/manage-payment-methods';
import { updateCustomer } from '../../src/domain/customers/update-customer';
import { runSubscriptionCommand } from '../../src/domain/subscriptions/run-subscription-command';
import { payInvoiceNow } from '../../src/domain/invoices/pay-invoice-now';
import { loadCreditNoteDocument, loadInvoiceDocument } from '../../src/documents';
import type { CustomerPortalLink, PortalSession } from '../../src/generated/prisma/client';
import { parseBody, pathId, yup } from '../validate';
import { text } from '../fields';
import { setApiHeaders, setAssetHeaders, setPageHeaders } from '../checkout/security';
import { sendDocument } from '../routes/documents/router';
import { pickPortalLocale, type PortalLocale } from './i18n';
import { portalPage, portalStatusPage, type PortalStatusKind } from './html';
import { PORTAL_OPEN_PREFIX } from './paths';
import { PORTAL_CSS } from './assets/portal-css';
import { PORTAL_JS } from './assets/portal-js';

export const PORTAL_COOKIE = 'billing_portal';

/** The portal session of a request, once checked (ctx.state.portal). */
interface PortalState {
  session: PortalSession;
  link: CustomerPortalLink;
  tenant: Tenant;
}

type PortalContext = AppContext & { state: AppState & { portal?: PortalState } };

export const addCardSchema = yup.object({
  card: yup
    .object({
      number: text(40).required(),
      exp_month: yup.number().integer('${path} must be an integer').min(0).max(99).required(),
      exp_year: yup.number().integer('${path} must be an integer').min(0).max(9999).required(),
      cvc: text(8).nullable(),
      name: text(100).nullable(),
    })
    .required(),
  make_default: yup.boolean().nullable(),
});

export const billingDetailsSchema = yup.object({
  email: text(254).min(1, 'email must not be empty'),
  billing_address_line1: text(200).nullable(),
  billing_address_line2: text(200).nullable(),
  billing_city: text(100).nullable(),
  billing_postal_code: text(20).nullable(),
  billing_country: text(2).nullable(),
  vat_number: text(40).nullable(),
});

/** Same rule as the checkout endpoints: the portal's JSON endpoints answer the portal page only. */
function sameOriginOnly(ctx: AppContext): void {
  assertPageSameOrigin(ctx, 'Portal endpoints serve the portal page only');
}

function portalOf(ctx: AppContext): PortalState {
  const p = (ctx as PortalContext).state.portal;
  if (!p) throw new Error('portal route used without a portal session');
  return p;
}

/** The documents a customer may open from the portal: the customer's own, by id. */
const PORTAL_DOCUMENTS = [
  {
    path: 'invoices',
    operation: 'Invoice',
    noun: 'invoices',
    load: async (db: TenantDb, tenant: Tenant, customerId: string, id: string) => loadInvoiceDocument(db, tenant, (await customerInvoice(db, customerId, id)).id),
  },
  {
    path: 'credit_notes',
    operation: 'CreditNote',
    noun: 'credit notes',
    load: async (db: TenantDb, tenant: Tenant, customerId: string, id: string) => loadCreditNoteDocument(db, tenant, (await customerCreditNote(db, customerId, id)).id),
  },
];

const { route, area } = areaOf((deps, _auth) => {
  const cookieOptions = (ctx: AppContext, expires: Date) => ({ httpOnly: true, sameSite: 'strict' as const, secure: ctx.secure, path: '/portal', expires, overwrite: true });
  const clearCookie = (ctx: AppContext) => ctx.cookies.set(PORTAL_COOKIE, '', { ...cookieOptions(ctx, new Date(0)), maxAge: 0 });

  async function merchantName(merchantId: string): Promise<string | null> {
    const [m, d] = await Promise.all([
      deps.db.merchant.findUnique({ where: { id: merchantId }, select: { name: true } }),
      deps.db.merchantBusinessDetails.findUnique({ where: { merchantId }, select: { legalName: true } }),
    ]);
    return d?.legalName ?? m?.name ?? null;
  }

  function statusPage(ctx: AppContext, status: number, kind: PortalStatusKind, locale: PortalLocale, merchant: string | null = null): void {
    setPageHeaders(ctx, { frameAncestors: "'none'" });
    ctx.status = status;
    ctx.body = portalStatusPage(kind, locale, merchant);
  }

  /**
   * The session behind the cookie, checked on every request. For pages, a missing or ended
   * session renders the page that says so (and the right status); for actions it is an error.
   */
  function withSession(kind: 'page' | 'action'): Middleware {
    return async (ctx, next) => {
      const found = await findPortalSession(deps.db, ctx.cookies.get(PORTAL_COOKIE), new Date());
      if (found.outcome !== 'active') {
        // The cookie is kept: its session row goes on answering why it ended (revoked, expired).
        if (kind === 'action') throw errors.unauthorized('Your portal session has ended; open a new portal link', undefined);
        const locale = pickPortalLocale(ctx.query.lang, found.outcome === 'none' ? null : found.session.locale, ctx);
        if (found.outcome === 'none') return statusPage(ctx, 401, 'no_session', locale);
        return statusPage(ctx, 410, found.outcome, locale, await merchantName(found.session.merchantId));
      }
      (ctx as PortalContext).state.portal = { session: found.session, link: found.link, tenant: found.tenant };
      ctx.state.tenant = found.tenant;
      ctx.state.db = scopedDb(deps.db, found.tenant);
      return next();
    };
  }

  /** The session's CSRF token must come back in X-CSRF-Token (constant-time comparison). */
  const csrf: Middleware = async (ctx, next) => {
    const sent = ctx.get('X-CSRF-Token');
    if (!sent || !secretsEqual(sent, portalOf(ctx).session.csrfToken)) {
      throw errors.csrfTokenInvalid('The portal action lacks a valid CSRF token; reload the page', 'X-CSRF-Token');
    }
    return next();
  };

  const portalKey = { idempotencyKey: (ctx: AppContext, header: string) => `portal:${portalOf(ctx).session.id}:${header}` };
  const tx = transactional(deps, portalKey);
  // Actions that call the acquirer run their own short transactions around the call.
  const steps = stepwise(deps, portalKey);

  const apiGuard: Middleware = async (ctx, next) => {
    setApiHeaders(ctx);
    sameOriginOnly(ctx);
    return next();
  };
  const action = [apiGuard, withSession('action'), csrf, tx];
  const outsideAction = [apiGuard, withSession('action'), csrf, steps];

  /** The request as the domain's command path sees it (docs/architecture.md). */
  function scopeOf(ctx: AppContext): RequestScope {
    const key = ctx.get('Idempotency-Key');
    return requestScope({
      tenant: tenantOf(ctx),
      db: dbOf(ctx),
      // After a failed update under the key, a resend names the next attempt.
      key: { prefix: 'portal', key: key ? `${portalOf(ctx).session.id}:${key}` : null, failedAttempts: ctx.state.updateAttempt, requestId: ctx.state.requestId },
      afterCommit: ctx.state.afterCommit,
      updateFailed: () => void (ctx.state.updateFailed = true),
    });
  }

  async function allowed(ctx: AppContext, what: PortalAction): Promise<void> {
    assertPortalAllows(await getPortalSettings(deps.db, tenantOf(ctx).merchantId), what);
  }

  function done(ctx: AppContext, notice: string): void {
    ctx.body = { ok: true, notice };
  }
  return { cookieOptions, clearCookie, merchantName, statusPage, withSession, csrf, portalKey, tx, steps, apiGuard, action, outsideAction, scopeOf, allowed, done };
});

type PortalRoute = Parameters<typeof route>[0];
type PortalKit = Parameters<Extract<PortalRoute, { handler: unknown }>['handler']>[0];

/**
 * A portal action, a JSON POST from the portal page: same origin, a live session, its CSRF token,
 * in the request transaction (`outside`: step-wise, for actions that call the acquirer); then the
 * merchant's portal settings must allow `permission`, and `run` answers the notice the page shows.
 */
function portalAction(d: {
  path: string;
  operationId: string;
  summary: string;
  body?: RouteDoc['body'];
  errors?: NonNullable<RouteDoc['errors']>;
  outside?: boolean;
  permission: PortalAction;
  run: (kit: PortalKit, ctx: AppContext) => Promise<string>;
}): PortalRoute {
  return route({
    method: 'post',
    path: d.path,
    operationId: d.operationId,
    tag: 'Customer portal page',
    summary: d.summary,
    auth: 'portal',
    ...(d.body ? { body: d.body } : {}),
    response: 'PortalActionResult',
    errors: ['portal_action_not_allowed', 'csrf_token_invalid', ...(d.errors ?? [])],
    use: ({ action, outsideAction }) => [...(d.outside ? outsideAction : action)],
    handler: (kit) => async (ctx) => {
      await kit.allowed(ctx, d.permission);
      kit.done(ctx, await d.run(kit, ctx));
    },
  });
}

export const portalRoutes = area('portal', [
  // ---- assets ----
  route({
    method: 'get',
    path: '/portal/assets/portal.js',
    operationId: 'retrievePortalScript',
    tag: 'Customer portal page',
    summary: "The portal page's script",
    auth: 'none',
    kind: 'javascript',
    handler: () => async (ctx) => {
      setAssetHeaders(ctx, 'application/javascript; charset=utf-8');
      ctx.body = PORTAL_JS;
    },
  }),
  route({
    method: 'get',
    path: '/portal/assets/portal.css',
    operationId: 'retrievePortalStyles',
    tag: 'Customer portal page',
    summary: "The portal page's styles",
    auth: 'none',
    kind: 'css',
    handler: () => async (ctx) => {
      setAssetHeaders(ctx, 'text/css; charset=utf-8');
      ctx.body = PORTAL_CSS;
    },
  }),
  // ---- opening a link ----
  route({
    method: 'get',
    path: `${PORTAL_OPEN_PREFIX}:token`,
    operationId: 'openPortalLink',
    tag: 'Customer portal page',
    summary: 'Open a portal link: starts a portal session (cookie) and a page that goes on to /portal',
    auth: 'none',
    kind: 'html',
    also: [
      { status: 404, description: 'A page saying the link is unknown', kind: 'html' },
      { status: 410, description: 'A page saying the link expired, was revoked or was used', kind: 'html' },
    ],
    handler:
      ({ deps, statusPage, merchantName, cookieOptions }) =>
      async (ctx) => {
        const token = ctx.params.token ?? '';
        const now = new Date();
        const queryLocale = ctx.query.lang;
        const acceptLocale = pickPortalLocale(queryLocale, null, ctx);
        const opened = await openPortalLink(deps.db, token, now, { locale: acceptLocale });
        if (opened.outcome === 'unknown') return statusPage(ctx, 404, 'unknown', acceptLocale);
        if (opened.outcome !== 'opened') return statusPage(ctx, 410, opened.outcome, acceptLocale, await merchantName(opened.link.merchantId));
        ctx.cookies.set(PORTAL_COOKIE, opened.sessionToken, cookieOptions(ctx, opened.session.expiresAt));
        // A page, not a redirect: after a cross-site click (the link in an e-mail), a redirect would
        // still count as cross-site and the SameSite=Strict cookie would not be sent with it; this
        // page's own navigation to /portal is same-site.
        statusPage(ctx, 200, 'opening', acceptLocale, await merchantName(opened.link.merchantId));
      },
  }),
  // ---- pages ----
  route({
    method: 'get',
    path: '/portal',
    operationId: 'retrievePortalPage',
    tag: 'Customer portal page',
    summary: 'The portal page',
    auth: 'portal',
    kind: 'html',
    also: [{ status: 401, description: 'A page saying the session ended', kind: 'html' }],
    use: ({ withSession }) => [withSession('page')],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const p = portalOf(ctx);
        const locale = pickPortalLocale(ctx.query.lang, p.session.locale, ctx);
        if (ctx.query.lang !== undefined && ctx.query.lang !== p.session.locale && (ctx.query.lang === 'is' || ctx.query.lang === 'en')) {
          await deps.db.portalSession.updateMany({ where: { id: p.session.id }, data: { locale: ctx.query.lang } });
        }
        // A GET runs outside any transaction: ctx.state.db is the scoped client itself.
        const overview = await loadPortalOverview(dbOf(ctx) as ScopedDb, p.tenant, p.session.customerId);
        const notice = typeof ctx.query.notice === 'string' ? noticeText(ctx.query.notice, locale) : null;
        setPageHeaders(ctx, { frameAncestors: "'none'" });
        ctx.body = portalPage(overview, { locale, csrfToken: p.session.csrfToken, testMode: p.tenant.mode === 'test', notice });
      },
  }),
  // ---- documents ----
  ...(['html', 'pdf'] as const).flatMap((format) => {
    const suffix = format === 'pdf' ? '/pdf' : '';
    const what = format === 'pdf' ? 'PDF' : 'HTML';
    const ended = [{ status: 401, description: 'A page saying the session ended', kind: 'html' as const }];
    return PORTAL_DOCUMENTS.map((doc) =>
      route({
        method: 'get',
        path: `/portal/${doc.path}/:id${suffix}`,
        operationId: `retrievePortal${doc.operation}${what === 'PDF' ? 'Pdf' : 'Html'}`,
        tag: 'Customer portal page',
        summary: `One of the customer's ${doc.noun} as ${what}`,
        auth: 'portal',
        kind: format,
        also: ended,
        use: ({ withSession }) => [withSession('page')],
        handler:
          ({ allowed }) =>
          async (ctx) => {
            const p = portalOf(ctx);
            await allowed(ctx, 'view_documents');
            const loaded = await doc.load(dbOf(ctx), p.tenant, p.session.customerId, pathId(ctx.params.id));
            await sendDocument(ctx, loaded, format, pickPortalLocale(ctx.query.lang, p.session.locale, ctx));
          },
      }),
    );
  }),
  // ---- actions ----
  portalAction({
    path: '/portal/api/subscriptions/:id/cancel',
    operationId: 'cancelPortalSubscription',
    summary: 'Cancel a subscription at period end',
    errors: ['invalid_state'],
    outside: true,
    permission: 'cancel',
    run: async ({ deps, scopeOf }, ctx) => {
      const sub = await customerSubscription(dbOf(ctx), portalOf(ctx).session.customerId, pathId(ctx.params.id));
      // Pending already (a second click): nothing to change. Canceled: refused by the command path.
      if (!sub.cancelAtPeriodEnd) await runSubscriptionCommand(deps, scopeOf(ctx), sub, { kind: 'cancel', atPeriodEnd: true });
      return 'canceled';
    },
  }),
  portalAction({
    path: '/portal/api/subscriptions/:id/uncancel',
    operationId: 'uncancelPortalSubscription',
    summary: 'Undo a pending cancellation',
    errors: ['cannot_uncancel'],
    outside: true,
    permission: 'uncancel',
    run: async ({ deps, scopeOf }, ctx) => {
      const sub = await customerSubscription(dbOf(ctx), portalOf(ctx).session.customerId, pathId(ctx.params.id));
      // No cancellation pending (already undone by a first click): nothing to change.
      if (sub.cancelAtPeriodEnd) await runSubscriptionCommand(deps, scopeOf(ctx), sub, { kind: 'uncancel' });
      return 'uncanceled';
    },
  }),
  portalAction({
    path: '/portal/api/payment_methods',
    operationId: 'createPortalPaymentMethod',
    summary: 'Add a card',
    body: addCardSchema,
    errors: ['card_declined'],
    outside: true,
    permission: 'add_card',
    run: async ({ deps, scopeOf }, ctx) => {
      const b = parseBody(addCardSchema, ctx.state.body);
      const p = portalOf(ctx);
      const tenant = tenantOf(ctx);
      const r = await addCustomerCard(
        { db: deps.db, acquirer: deps.gateways.cardAcquirer(tenant.mode), txMaxWaitMs: deps.config.transactionMaxWaitMs },
        tenant,
        {
          customerId: p.session.customerId,
          card: { number: b.card.number, expMonth: b.card.exp_month, expYear: b.card.exp_year, cvc: b.card.cvc ?? null, holderName: b.card.name ?? null },
          makeDefault: b.make_default !== false,
          idempotencyKey: `portal:${p.session.id}:${ctx.get('Idempotency-Key') || ctx.state.requestId}:tokenize`,
        },
        new Date(),
      );
      dispatchAfterCommit(deps, scopeOf(ctx), r.events);
      return 'card_added';
    },
  }),
  portalAction({
    path: '/portal/api/payment_methods/:id/default',
    operationId: 'setDefaultPortalPaymentMethod',
    summary: 'Make a card the default',
    permission: 'set_default_card',
    run: async (_kit, ctx) => {
      const pm = await customerPaymentMethod(dbOf(ctx), portalOf(ctx).session.customerId, pathId(ctx.params.id));
      await setDefaultPaymentMethod(dbOf(ctx), pm.id);
      return 'default_set';
    },
  }),
  portalAction({
    path: '/portal/api/payment_methods/:id/remove',
    operationId: 'removePortalPaymentMethod',
    summary: 'Remove a card',
    errors: ['invalid_state'],
    permission: 'remove_card',
    run: async (_kit, ctx) => {
      await removeCustomerCard(dbOf(ctx), portalOf(ctx).session.customerId, pathId(ctx.params.id), new Date());
      return 'card_removed';
    },
  }),
  portalAction({
    path: '/portal/api/billing_details',
    operationId: 'updatePortalBillingDetails',
    summary: 'Update billing details',
    body: billingDetailsSchema,
    permission: 'update_billing_details',
    run: async ({ deps, scopeOf }, ctx) => {
      const b = parseBody(billingDetailsSchema, ctx.state.body);
      const input = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
      // updateCustomer records customer.updated (when something changed) as the API's PATCH does.
      const changed = await updateCustomer(dbOf(ctx), tenantOf(ctx), portalOf(ctx).session.customerId, input);
      dispatchAfterCommit(deps, scopeOf(ctx), changed.events);
      return 'saved';
    },
  }),
  portalAction({
    path: '/portal/api/invoices/:id/pay',
    operationId: 'payPortalInvoice',
    summary: 'Pay an open invoice',
    errors: ['invalid_state'],
    outside: true,
    permission: 'pay_invoice',
    run: async ({ deps, scopeOf }, ctx) => {
      const inv = await customerInvoice(dbOf(ctx), portalOf(ctx).session.customerId, pathId(ctx.params.id));
      if (inv.status !== 'paid') await payInvoiceNow(deps, scopeOf(ctx), inv.id);
      const after = await dbOf(ctx).invoice.findFirstOrThrow({ where: { id: inv.id }, select: { status: true } });
      return after.status === 'paid' ? 'paid' : 'payment_failed';
    },
  }),
  route({
    method: 'post',
    path: '/portal/api/sign_out',
    operationId: 'signOutPortal',
    tag: 'Customer portal page',
    summary: 'End the portal session',
    auth: 'portal',
    response: 'PortalSignOut',
    errors: ['csrf_token_invalid'],
    use: ({ apiGuard, withSession, csrf }) => [apiGuard, withSession('action'), csrf],
    handler:
      ({ deps, clearCookie }) =>
      async (ctx) => {
        await endPortalSession(deps.db, portalOf(ctx).session.id);
        clearCookie(ctx);
        ctx.body = { ok: true, redirect: '/portal/signed_out' };
      },
  }),
  route({
    method: 'get',
    path: '/portal/signed_out',
    operationId: 'retrievePortalSignedOutPage',
    tag: 'Customer portal page',
    summary: 'The page after signing out',
    auth: 'none',
    kind: 'html',
    handler:
      ({ statusPage }) =>
      async (ctx) => {
        statusPage(ctx, 200, 'signed_out', pickPortalLocale(ctx.query.lang, null, ctx));
      },
  }),
]);

const NOTICES: Record<string, { en: string; is: string }> = {
  canceled: { en: 'Your subscription will end at the end of the current period.', is: 'Áskriftinni lýkur í lok núverandi tímabils.' },
  uncanceled: { en: 'Your subscription will continue.', is: 'Áskriftin heldur áfram.' },
  card_added: { en: 'Your card was saved.', is: 'Kortið var vistað.' },
  default_set: { en: 'Your default card was changed.', is: 'Sjálfgefnu korti var breytt.' },
  card_removed: { en: 'The card was removed.', is: 'Kortið var fjarlægt.' },
  saved: { en: 'Your billing details were saved.', is: 'Greiðsluupplýsingar voru vistaðar.' },
  paid: { en: 'Thank you, the invoice is paid.', is: 'Takk, reikningurinn er greiddur.' },
  payment_failed: { en: 'The payment did not go through. Check your card or add another one.', is: 'Greiðslan tókst ekki. Athugaðu kortið eða bættu við öðru.' },
};

function noticeText(key: string, locale: PortalLocale): string | null {
  return NOTICES[key]?.[locale] ?? null;
}
