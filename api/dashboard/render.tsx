// Rendering helpers shared by the page modules: a page in the frame, a form's state from an API
// error, the fixed notices shown after a redirect (looked up by key, never reflected from the URL).
import type { ComponentChildren } from 'preact';
import type { AppContext } from '../context';
import { ApiError } from '../../src/errors';
import { documentHtml, Page } from './views/layout';
import { LocaleContext, type FormState } from './views/ui';
import { DASHBOARD_MESSAGES, type DashboardLocale, type DashboardMessages } from './i18n';
import type { Dashboard } from './session';
import type { FormBody } from './http';

export const NOTICES: Record<string, string> = {
  signed_out_everywhere: 'Every session of yours has ended, this one too. Sign in again.',
  mode_switched: 'Switched.',
  key_revoked: 'The key was revoked. It stops working at once.',
  endpoint_updated: 'The webhook endpoint was saved.',
  endpoint_deleted: 'The webhook endpoint was deleted.',
  delivery_retried: 'A new delivery attempt was started. Its result appears below within seconds.',
  invoice_paid: 'Payment attempted: see the invoice status.',
  invoice_voided: 'The invoice was voided.',
  subscription_changed: 'The subscription was changed.',
  refund_created: 'The refund was created. It is pending until the card network confirms it.',
  settings_saved: 'Saved.',
  accounting_connected: 'The accounting software is connected. What the ledger posts from now on is sent there; the progress shows below.',
  accounting_disconnected: 'The accounting software is disconnected. Nothing more is sent; what is already there stays.',
  accounting_resynced: 'The record is waiting to be sent again.',
  went_live: 'Live mode is on. Create live keys under Developers → API keys with the live data switch.',
  invitation_revoked: 'The invitation was revoked.',
  role_changed: 'The role was changed.',
  user_removed: 'The user was removed and signed out everywhere.',
  totp_enabled: 'Two-step sign-in is on. You will be asked for a code at every sign-in.',
  totp_disabled: 'Two-step sign-in is off.',
  password_changed: 'Your password was changed. Your other sessions have ended.',
};

/** The notice a redirect named, in the page's language (the texts: messages-billing.ts `n_…`). */
export function noticeOf(ctx: AppContext, locale: DashboardLocale = 'en'): string | null {
  const key = ctx.query.notice;
  if (typeof key !== 'string' || !Object.hasOwn(NOTICES, key)) return null;
  const t = DASHBOARD_MESSAGES[locale];
  const k = `n_${key}` as keyof DashboardMessages;
  return k in t ? t[k] : NOTICES[key]!;
}

export function sendPage(
  ctx: AppContext,
  d: Dashboard,
  opts: { title: string; active: string; body: ComponentChildren; status?: number; charts?: boolean; notice?: string | null },
): void {
  ctx.status = opts.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  const notice = opts.notice === undefined ? noticeOf(ctx, d.locale) : opts.notice;
  ctx.body = documentHtml({
    title: opts.title,
    charts: opts.charts,
    lang: d.locale,
    suffix: d.t.title_suffix,
    body: (
      <LocaleContext.Provider value={d.locale}>
        <Page d={d} title={opts.title} active={opts.active} notice={notice}>
          {opts.body}
        </Page>
      </LocaleContext.Provider>
    ),
  });
}

export function sendBare(ctx: AppContext, title: string, body: ComponentChildren, status = 200, lang?: DashboardLocale): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = documentHtml({ title, body, lang, suffix: lang ? DASHBOARD_MESSAGES[lang].title_suffix : undefined });
}

/** The form re-rendered after an API error: the message beside the field its `param` names. */
export function formStateFrom(err: ApiError, form: FormBody, fields: readonly string[]): FormState {
  const values: FormState['values'] = {};
  for (const [k, v] of Object.entries(form)) if (k !== '_csrf' && k !== 'code' && !/password|secret|token/.test(k)) values[k] = v;
  // The field the param names: itself (`credentials.api_token`), else its first segment (`items[0].price` → `items`).
  const param = err.param && fields.includes(err.param) ? err.param : err.param?.split(/[.[]/)[0];
  if (param && fields.includes(param)) return { values, errors: { [param]: err.message } };
  return { values, formError: err.message };
}

export function redirectWithNotice(ctx: AppContext, path: string, notice: keyof typeof NOTICES): void {
  ctx.status = 303;
  ctx.redirect(`${path}${path.includes('?') ? '&' : '?'}notice=${notice}`);
  ctx.status = 303;
}

/** Status code for an error page: the API's own. */
export function statusOf(err: ApiError): number {
  return err.status;
}
