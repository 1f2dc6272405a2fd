// Signing in and out, the TOTP step, the test/live switch, and accepting an invitation.
import type { AppContext, AppDeps } from '../../context';
import { ApiError, errors } from '../../../src/errors';
import { signIn } from '../../../src/domain/dashboard-users/sign-in';
import { completeSecondFactor } from '../../../src/domain/dashboard-users/second-factor';
import { endAllSessionsOfUser, endDashboardSession, setSessionViewMode } from '../../../src/domain/dashboard-users/sessions';
import { acceptInvitation, findOpenInvitation } from '../../../src/domain/dashboard-users/invitations';
import { recordAuditEntry } from '../../../src/domain/dashboard-audit/record-audit-entry';
import { tokensEqual } from '../../../src/domain/dashboard-users/sessions';
import type { DashboardRouter } from '../router-types';
import { assertSameOrigin, clearSessionCookie, clientIp, field, preSessionToken, safeNext, setSessionCookie, userAgent } from '../http';
import { dash, loadDashboard, requireSession, sessionPolicy } from '../session';
import { actOnTeam } from '../actions';
import { formStateFrom } from '../render';
import { documentHtml } from '../views/layout';
import { Csrf, Field, FormErrors, LocaleContext, roleWord, type FormState } from '../views/ui';
import type { ComponentChildren } from 'preact';
import { DASHBOARD_MESSAGES, pickDashboardLocale, type DashboardLocale, type DashboardMessages } from '../i18n';
import { SETTINGS_MESSAGES } from '../messages-settings';
import { localState } from './l10n-settings';

/** A page without the frame (no session yet), in the chosen language, the language switch under its panel. */
function sendAuth(ctx: AppContext, locale: DashboardLocale, title: string, body: ComponentChildren, status = 200): void {
  const t = DASHBOARD_MESSAGES[locale];
  const other = locale === 'is' ? 'en' : 'is';
  const query = new URLSearchParams(ctx.querystring);
  query.set('lang', other);
  query.delete('notice');
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = documentHtml({
    title,
    lang: locale,
    suffix: t.title_suffix,
    // The shared views (views/ui.tsx) read the page's language from LocaleContext, as under sendPage.
    body: (
      <LocaleContext.Provider value={locale}>
        <main class="auth-page" id="content">
          {body}
          <p>
            <a href={`${ctx.path}?${query.toString()}`} id="lang-switch" lang={other} hreflang={other}>
              {t.other_language}
            </a>
          </p>
        </main>
      </LocaleContext.Provider>
    ),
  });
}

/** The heading and panel of a page before the session (the frame is sendAuth's). */
function AuthPage({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <>
      <h1>{title}</h1>
      <div class="panel">{children}</div>
    </>
  );
}

function SignInForm({
  t,
  locale,
  token,
  next,
  state: given,
  notice,
}: {
  t: DashboardMessages;
  locale: DashboardLocale;
  token: string;
  next: string;
  state?: FormState;
  notice?: string;
}) {
  const state = localState(given, locale);
  return (
    <AuthPage title={t.auth_sign_in_title}>
      {notice ? (
        <div class="notice" role="status" id="notice">
          {notice}
        </div>
      ) : null}
      <FormErrors state={state} />
      <form method="post" action="/dashboard/sign-in" id="sign-in-form">
        <Csrf token={token} />
        <input type="hidden" name="next" value={next} />
        <Field name="email" label={t.auth_email} type="email" state={state} input={{ autocomplete: 'username', required: true, autofocus: true }} />
        <Field name="password" label={t.auth_password} type="password" state={state} input={{ autocomplete: 'current-password', required: true }} />
        <button type="submit" id="sign-in-button">
          {t.auth_sign_in}
        </button>
      </form>
      <p class="muted">
        {t.auth_no_account} <code>npx billing users create</code>.
      </p>
    </AuthPage>
  );
}

function checkPreSession(ctx: AppContext): void {
  assertSameOrigin(ctx);
  const cookie = ctx.cookies.get('billing_dashboard_pre') ?? '';
  const given = field(ctx.state.dashboardForm ?? {}, '_csrf');
  if (cookie === '' || given === '' || !tokensEqual(cookie, given)) {
    throw errors.csrfTokenInvalid(SETTINGS_MESSAGES.en.err_sign_in_expired, '_csrf');
  }
}

export function authPages(router: DashboardRouter, deps: AppDeps): void {
  router.get('/sign-in', async (ctx) => {
    if (await loadDashboard(ctx, deps)) return ctx.redirect(safeNext(ctx.query.next));
    const locale = pickDashboardLocale(ctx);
    const t = DASHBOARD_MESSAGES[locale];
    const notice =
      ctx.query.expired === '1'
        ? t.auth_expired
        : ctx.query.notice === 'signed_out'
          ? t.auth_signed_out
          : ctx.query.notice === 'signed_out_everywhere'
            ? t.auth_signed_out_everywhere
            : ctx.query.notice === 'welcome'
              ? t.auth_welcome
              : undefined;
    sendAuth(ctx, locale, t.auth_sign_in, <SignInForm t={t} locale={locale} token={preSessionToken(ctx)} next={safeNext(ctx.query.next)} notice={notice} />);
  });

  router.post('/sign-in', async (ctx) => {
    const form = ctx.state.dashboardForm ?? {};
    const next = safeNext(field(form, 'next'));
    const now = new Date();
    try {
      checkPreSession(ctx);
      const r = await signIn(deps.db, {
        email: field(form, 'email'),
        password: field(form, 'password'),
        ip: clientIp(ctx),
        userAgent: userAgent(ctx),
        now,
        policy: sessionPolicy(deps),
      });
      await recordAuditEntry(deps.db, {
        merchantId: r.user.merchantId,
        objectMode: null,
        actorUserId: r.user.id,
        actorEmail: r.user.email,
        action: 'session.sign_in',
        objectType: 'user',
        objectId: r.user.id,
        outcome: 'succeeded',
        detail: r.secondFactorPending ? { second_factor: 'pending' } : {},
        ip: clientIp(ctx),
        userAgent: userAgent(ctx),
      });
      setSessionCookie(ctx, r.token, sessionPolicy(deps).lifetimeMs);
      ctx.status = 303;
      ctx.redirect(r.secondFactorPending ? `/dashboard/sign-in/two-step?next=${encodeURIComponent(next)}` : next);
      ctx.status = 303;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // A failed sign-in of a known user is audited for their merchant (unknown e-mails have none).
      const email = field(form, 'email').trim().toLowerCase();
      const user = email ? await deps.db.dashboardUser.findUnique({ where: { email } }) : null;
      if (user) {
        await recordAuditEntry(deps.db, {
          merchantId: user.merchantId,
          objectMode: null,
          actorUserId: null,
          actorEmail: email,
          action: 'session.sign_in',
          objectType: 'user',
          objectId: user.id,
          outcome: err.code === 'sign_in_locked' ? 'denied' : 'failed',
          detail: { code: err.code },
          ip: clientIp(ctx),
          userAgent: userAgent(ctx),
        });
      }
      const state = formStateFrom(err, form, ['email', 'password']);
      for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      const locale = pickDashboardLocale(ctx);
      const t = DASHBOARD_MESSAGES[locale];
      sendAuth(ctx, locale, t.auth_sign_in, <SignInForm t={t} locale={locale} token={preSessionToken(ctx)} next={next} state={state} />, err.status);
    }
  });

  const pending = requireSession(deps, { allowSecondFactorPending: true });

  const twoStepForm = (t: DashboardMessages, locale: DashboardLocale, token: string, next: string, given?: FormState) => {
    const state = localState(given, locale);
    return (
      <AuthPage title={t.auth_two_step}>
        <FormErrors state={state} />
        <form method="post" action="/dashboard/sign-in/two-step" id="two-step-form">
          <Csrf token={token} />
          <input type="hidden" name="next" value={next} />
          <Field name="code" label={t.auth_code} state={state} input={{ inputmode: 'numeric', autocomplete: 'one-time-code', required: true, autofocus: true, maxLength: 7 }} />
          <button type="submit" id="two-step-button">
            {t.auth_continue}
          </button>
        </form>
      </AuthPage>
    );
  };

  router.get('/sign-in/two-step', pending, async (ctx) => {
    const d = dash(ctx);
    if (!d.session.secondFactorPending) return ctx.redirect(safeNext(ctx.query.next));
    sendAuth(ctx, d.locale, d.t.auth_two_step, twoStepForm(d.t, d.locale, d.csrf, safeNext(ctx.query.next)));
  });

  router.post('/sign-in/two-step', pending, async (ctx) => {
    const d = dash(ctx);
    const next = safeNext(field(d.form, 'next'));
    try {
      assertSameOrigin(ctx);
      if (!tokensEqual(field(d.form, '_csrf') || '-', d.csrf)) throw errors.csrfTokenInvalid(SETTINGS_MESSAGES.en.err_form_expired, '_csrf');
      await completeSecondFactor(deps.db, d.session, field(d.form, 'code'), d.ip, new Date());
      await recordAuditEntry(deps.db, {
        merchantId: d.merchant.id,
        objectMode: null,
        actorUserId: d.user.id,
        actorEmail: d.user.email,
        action: 'session.second_factor',
        objectType: 'user',
        objectId: d.user.id,
        outcome: 'succeeded',
        ip: d.ip,
        userAgent: d.userAgent,
      });
      ctx.status = 303;
      ctx.redirect(next);
      ctx.status = 303;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      await recordAuditEntry(deps.db, {
        merchantId: d.merchant.id,
        objectMode: null,
        actorUserId: d.user.id,
        actorEmail: d.user.email,
        action: 'session.second_factor',
        objectType: 'user',
        objectId: d.user.id,
        outcome: 'failed',
        detail: { code: err.code },
        ip: d.ip,
        userAgent: d.userAgent,
      });
      sendAuth(ctx, d.locale, d.t.auth_two_step, twoStepForm(d.t, d.locale, d.csrf, next, formStateFrom(err, d.form, ['code'])), err.status);
    }
  });

  router.post('/sign-out', pending, async (ctx) => {
    const d = dash(ctx);
    await actOnTeam(ctx, d, { permission: 'view', action: 'session.sign_out', objectType: 'session', run: async (db) => endDashboardSession(db, d.session.id, new Date()) });
    clearSessionCookie(ctx);
    ctx.status = 303;
    ctx.redirect('/dashboard/sign-in?notice=signed_out');
    ctx.status = 303;
  });

  router.post('/sign-out-everywhere', requireSession(deps), async (ctx) => {
    const d = dash(ctx);
    await actOnTeam(ctx, d, {
      permission: 'view',
      action: 'session.sign_out_everywhere',
      objectType: 'user',
      objectId: d.user.id,
      run: async (db) => endAllSessionsOfUser(db, d.user.id, new Date()),
      detail: (n) => ({ sessions_ended: n }),
    });
    clearSessionCookie(ctx);
    ctx.status = 303;
    ctx.redirect('/dashboard/sign-in?notice=signed_out_everywhere');
    ctx.status = 303;
  });

  router.post('/mode', requireSession(deps), async (ctx) => {
    const d = dash(ctx);
    const mode = field(d.form, 'mode');
    await actOnTeam(ctx, d, {
      permission: 'view',
      action: 'session.switch_mode',
      objectType: 'session',
      detail: () => ({ mode }),
      run: async (db) => {
        if (mode !== 'test' && mode !== 'live') throw errors.validationFailed('mode must be test or live', 'mode');
        if (mode === 'live' && !d.merchant.liveEnabledAt)
          throw errors.liveModeNotEnabled('Live data is available once the business has gone live (Settings → Going live).', 'mode');
        await setSessionViewMode(db, d.session.id, mode);
      },
    });
    const back = safeNext(field(d.form, 'next'));
    ctx.status = 303;
    ctx.redirect(back);
    ctx.status = 303;
  });

  const invitationForm = (locale: DashboardLocale, token: string, pre: string, email: string, role: string, given?: FormState) => {
    const t = DASHBOARD_MESSAGES[locale];
    const state = localState(given, locale);
    return (
      <AuthPage title={t.auth_join}>
        <p>
          {t.auth_invited_as} <strong>{role}</strong> {t.auth_invited_with} <strong id="invited-email">{email}</strong>. {t.auth_choose_password}
        </p>
        <FormErrors state={state} />
        <form method="post" action={`/dashboard/invitations/${token}`} id="invitation-form">
          <Csrf token={pre} />
          <Field name="name" label={t.auth_your_name} state={state} input={{ autocomplete: 'name', maxLength: 200 }} />
          <Field name="password" label={t.auth_password} type="password" state={state} input={{ autocomplete: 'new-password', required: true, minLength: 10 }} />
          <button type="submit">{t.auth_create_account}</button>
        </form>
      </AuthPage>
    );
  };

  router.get('/invitations/:token', async (ctx) => {
    const inv = await findOpenInvitation(deps.db, ctx.params.token ?? '', new Date());
    if (!inv) throw errors.resourceMissing('This invitation link is unknown, used or expired; ask an owner for a new one.');
    const locale = pickDashboardLocale(ctx);
    const t = DASHBOARD_MESSAGES[locale];
    sendAuth(ctx, locale, t.auth_invitation, invitationForm(locale, ctx.params.token!, preSessionToken(ctx), inv.email, roleWord(inv.role, t)));
  });

  router.post('/invitations/:token', async (ctx) => {
    const form = ctx.state.dashboardForm ?? {};
    const token = ctx.params.token ?? '';
    const inv = await findOpenInvitation(deps.db, token, new Date());
    if (!inv) throw errors.resourceMissing('This invitation link is unknown, used or expired; ask an owner for a new one.');
    try {
      checkPreSession(ctx);
      const user = await acceptInvitation(deps.db, { token, password: field(form, 'password'), name: field(form, 'name') || null, now: new Date() });
      await recordAuditEntry(deps.db, {
        merchantId: user.merchantId,
        objectMode: null,
        actorUserId: user.id,
        actorEmail: user.email,
        action: 'invitation.accept',
        objectType: 'invitation',
        objectId: inv.id,
        outcome: 'succeeded',
        detail: { role: user.role },
        ip: clientIp(ctx),
        userAgent: userAgent(ctx),
      });
      ctx.status = 303;
      ctx.redirect('/dashboard/sign-in?notice=welcome');
      ctx.status = 303;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const locale = pickDashboardLocale(ctx);
      const t = DASHBOARD_MESSAGES[locale];
      sendAuth(
        ctx,
        locale,
        t.auth_invitation,
        invitationForm(locale, token, preSessionToken(ctx), inv.email, roleWord(inv.role, t), formStateFrom(err, form, ['password', 'name'])),
        err.status,
      );
    }
  });
}
