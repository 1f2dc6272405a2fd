// Settings that the contract says are managed in the merchant dashboard and that have no API-key
// route: allowed redirect domains, embedded-checkout origins, bank-invoice settings, going live
// and the merchant's profile. With any API key they answer 403 wrong_auth_method (a request with
// an invalid key gets 401 first). With a dashboard session cookie they work as JSON routes for the
// dashboard's own pages and scripts: writes need the session's CSRF token in X-CSRF-Token and a
// role that allows them, and are written to the audit log (api/dashboard/actions.ts). The list of
// these routes is read from their declarations (`auth: 'dashboard'`): DASHBOARD_ONLY_ROUTES in
// api/areas.ts.
import { areaOf } from '../route';
import type { ErrorCode } from '../openapi/describe';
import { arrayOf, object, str } from '../../src/objects/json-schema';
import type { AppContext, AppDeps, Middleware } from '../context';
import type { Auth } from '../middleware/auth';
import { errors } from '../../src/errors';
import type { Db } from '../../src/db/client';
import type { Merchant } from '../../src/generated/prisma/client';
import { loadDashboard, dash } from '../dashboard/session';
import { act, merchantAction } from '../dashboard/actions';
import { setRedirectDomains } from '../../src/domain/merchant-settings/redirect-domains';
import { setAllowedOrigins } from '../../src/domain/merchant-settings/allowed-origins';
import { updateMerchantProfile } from '../../src/domain/merchant-settings/update-merchant-profile';
import { bankInvoiceSettings, refuseBankInvoiceSettingsChange } from '../../src/domain/merchant-settings/bank-invoice-settings';
import { markMerchantLive } from '../../src/domain/merchants/create-merchant';
import { iso } from '../../src/objects/iso';

function presentMerchant(m: Merchant) {
  return { id: m.id, object: 'merchant', name: m.name, default_currency: m.defaultCurrency, live_enabled_at: iso(m.liveEnabledAt), created_at: iso(m.createdAt) };
}

/** API keys are refused; a dashboard session (with the second factor done) is required. */
function sessionOnly(deps: AppDeps, auth: Auth): Middleware {
  const keyRefusal = auth({ dashboardOnly: true, merchantHeaderOptional: true });
  return async (ctx, next) => {
    if (ctx.get('Authorization') !== '') return keyRefusal(ctx, next);
    const d = await loadDashboard(ctx, deps);
    if (!d || d.session.secondFactorPending) {
      throw errors.unauthorized('This route is managed in the merchant dashboard: sign in at /dashboard (API keys are not accepted here).');
    }
    ctx.state.dashboard = d;
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}

function listField(ctx: AppContext, name: string): unknown {
  const v = ctx.state.body[name];
  if (v === undefined) throw errors.validationFailed(`${name} is a required field`, name);
  return v;
}

const { route, area } = areaOf((deps, auth) => {
  const session = sessionOnly(deps, auth);
  const merchantRow = (ctx: AppContext) => deps.db.merchant.findUniqueOrThrow({ where: { id: dash(ctx).merchant.id } });
  return { session, merchantRow };
});

const ONLY_DASHBOARD: ErrorCode[] = ['wrong_auth_method'];
const DASHBOARD_WRITE: ErrorCode[] = ['wrong_auth_method', 'csrf_token_invalid', 'role_not_allowed'];

export const dashboardOnlyRoutes = area('dashboard-only', [
  // Two lists edited whole: read, and replace with the dashboard's own checks.
  ...[
    {
      path: '/v1/redirect_domains',
      object: 'redirect_domains',
      field: 'domains',
      schema: 'RedirectDomains',
      ids: { list: 'listRedirectDomains', replace: 'replaceRedirectDomains' },
      what: 'Allowed redirect domains (dashboard)',
      replace: 'Replace the allowed redirect domains (dashboard)',
      readDescription:
        'Returns the domains that hosted-checkout `return_url` and `cancel_url` must be on (or a subdomain of) while the list is not empty. Dashboard session only: any API key is refused with 403 wrong_auth_method. Reads only.',
      replaceDescription:
        'Replaces the whole list of redirect domains (at most 50; lower-cased, duplicates dropped; `localhost` allowed) and answers the stored list; an empty list lifts the restriction. Needs a dashboard session, its CSRF token and a role that may manage developer settings; the change is written to the audit log. API keys are refused with 403 wrong_auth_method.',
      read: (m: Merchant) => m.redirectDomains,
      write: setRedirectDomains,
    },
    {
      path: '/v1/allowed_origins',
      object: 'allowed_origins',
      field: 'origins',
      schema: 'AllowedOrigins',
      ids: { list: 'listAllowedOrigins', replace: 'replaceAllowedOrigins' },
      what: 'Allowed embedded-checkout origins (dashboard)',
      replace: 'Replace the allowed embedded-checkout origins (dashboard)',
      readDescription:
        'Returns the browser origins from which a publishable key may create embedded payment sessions (POST /v1/payment_sessions). Dashboard session only: any API key is refused with 403 wrong_auth_method. Reads only.',
      replaceDescription:
        'Replaces the whole list of allowed embedded-checkout origins (at most 50; scheme, host and optional port only, such as `https://shop.example.is`; duplicates dropped) and answers the stored list. Needs a dashboard session, its CSRF token and a role that may manage developer settings; the change is written to the audit log. API keys are refused with 403 wrong_auth_method.',
      read: (m: Merchant) => m.allowedOrigins,
      write: setAllowedOrigins,
    },
  ].flatMap((list) => [
    route({
      method: 'get',
      path: list.path,
      operationId: list.ids.list,
      tag: 'Merchant',
      summary: list.what,
      description: list.readDescription,
      auth: 'dashboard',
      response: list.schema,
      errors: ONLY_DASHBOARD,
      use: ({ session }) => [session],
      handler:
        ({ merchantRow }) =>
        async (ctx) => {
          ctx.body = { object: list.object, [list.field]: list.read(await merchantRow(ctx)) };
        },
    }),
    route({
      method: 'put',
      path: list.path,
      operationId: list.ids.replace,
      tag: 'Merchant',
      summary: list.replace,
      description: list.replaceDescription,
      auth: 'dashboard',
      bodyJson: object({ [list.field]: arrayOf(str) }),
      response: list.schema,
      errors: [...DASHBOARD_WRITE, 'validation_failed'],
      use: ({ session }) => [session],
      handler: () => async (ctx) => {
        const d = dash(ctx);
        const values = await act(ctx, d, {
          ...merchantAction(d, 'manage_developers', `${list.object}.update`),
          run: async (tx) => list.write(tx as unknown as Db, d.merchant.id, listField(ctx, list.field)),
          detail: (l) => ({ [list.field]: l }),
        });
        ctx.body = { object: list.object, [list.field]: values };
      },
    }),
  ]),
  route({
    method: 'get',
    path: '/v1/bank_invoice_settings',
    operationId: 'retrieveBankInvoiceSettings',
    tag: 'Merchant',
    summary: 'Bank-invoice settings (dashboard)',
    description:
      'Returns the bank-invoice (bank claim) settings that apply to the merchant: the days until an invoice is due when a subscription does not say, the days after the due date until an unpaid claim expires, and the days between re-checks of an unpaid claim. In this version they are service-wide (`editable: false`). Dashboard session only: any API key is refused with 403 wrong_auth_method. Reads only.',
    auth: 'dashboard',
    response: 'BankInvoiceSettings',
    errors: ONLY_DASHBOARD,
    use: ({ session }) => [session],
    handler: () => async (ctx) => {
      const s = bankInvoiceSettings();
      ctx.body = {
        object: 'bank_invoice_settings',
        default_days_until_due: s.defaultDaysUntilDue,
        claim_expiry_days: s.claimExpiryDays,
        claim_recheck_days: s.claimRecheckDays,
        editable: s.editable,
      };
    },
  }),
  route({
    method: 'put',
    path: '/v1/bank_invoice_settings',
    operationId: 'updateBankInvoiceSettings',
    tag: 'Merchant',
    summary: 'Change bank-invoice settings (dashboard; service-wide in this version: always 409)',
    description:
      'Would change the bank-invoice settings, but they are service-wide in this version: a call by a permitted dashboard user answers 409 invalid_state and changes nothing. Needs a dashboard session, its CSRF token and a role that may manage accounting settings; API keys are refused with 403 wrong_auth_method.',
    auth: 'dashboard',
    kind: 'none',
    status: 204,
    errors: [...DASHBOARD_WRITE, 'invalid_state'],
    use: ({ session }) => [session],
    handler: () => async (ctx) => {
      const d = dash(ctx);
      await act(ctx, d, { ...merchantAction(d, 'manage_accounting', 'bank_invoice_settings.update'), run: async () => refuseBankInvoiceSettingsChange() });
    },
  }),
  route({
    method: 'post',
    path: '/v1/merchants/current/go_live',
    operationId: 'enableLiveMode',
    tag: 'Merchant',
    summary: 'Enable live mode (dashboard)',
    description:
      'Enables live mode for the merchant: sets `live_enabled_at` and answers the merchant; once enabled, calling it again changes nothing. Needs a dashboard session, its CSRF token and a role that may manage the business; the action is written to the audit log. API keys are refused with 403 wrong_auth_method.',
    auth: 'dashboard',
    response: 'DashboardMerchant',
    errors: DASHBOARD_WRITE,
    use: ({ session }) => [session],
    handler: () => async (ctx) => {
      const d = dash(ctx);
      const m = await act(ctx, d, {
        ...merchantAction(d, 'manage_business', 'merchant.go_live'),
        run: async (tx) => markMerchantLive(tx as unknown as Db, d.merchant.id, new Date()),
      });
      ctx.body = presentMerchant(m);
    },
  }),
  route({
    method: 'patch',
    path: '/v1/merchants/current',
    operationId: 'updateCurrentMerchant',
    tag: 'Merchant',
    summary: "Update the merchant's profile (dashboard)",
    description:
      "Changes the merchant's `name` (1 to 200 characters, trimmed) and/or `default_currency` (a supported currency) and answers the merchant; a field left out is unchanged. Needs a dashboard session, its CSRF token and a role that may manage the business; the change is written to the audit log. API keys are refused with 403 wrong_auth_method.",
    auth: 'dashboard',
    bodyJson: object({ name: str, default_currency: str }, { optional: ['name', 'default_currency'] }),
    response: 'DashboardMerchant',
    errors: DASHBOARD_WRITE,
    use: ({ session }) => [session],
    handler: () => async (ctx) => {
      const d = dash(ctx);
      const body = ctx.state.body;
      const m = await act(ctx, d, {
        ...merchantAction(d, 'manage_business', 'merchant.update'),
        run: async (tx) => updateMerchantProfile(tx as unknown as Db, d.merchant.id, { name: body.name, default_currency: body.default_currency }),
        detail: (r) => ({ name: r.name, default_currency: r.defaultCurrency }),
      });
      ctx.body = presentMerchant(m);
    },
  }),
]);
