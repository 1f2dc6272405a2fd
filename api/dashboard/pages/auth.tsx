// Signing in and out, the TOTP step, the test/live switch, and accepting an invitation.
import type { AppContext, AppDeps } from '../../context';
import { ApiError, errors } from '../../../src/errors';
import { signIn } from '../../../src/domain/dashboard-users/sign-in';
import { completeSecondFactor } from '../../../src/domain/dashboard-users/second-factor';
import { endAllSessionsOfUser, endDashboardSession, setSessionViewMode } from '../../../src/domain/dashboard-users/sessions';
import { acceptInvitation, findOpenInvitation } from '../../../src/domain/dashboard-users/invitations';
import { ROLE_LABELS } from '../../../src/domain/dashboard-users/roles';
import { recordAuditEntry } from '../../../src/domain/dashboard-audit/record-audit-entry';
import { tokensEqual } from '../../../src/domain/dashboard-users/sessions';
import type { DashboardRouter } from '../router-types';
import { assertSameOrigin, clearSessionCookie, clientIp, field, preSessionToken, safeNext, setSessionCookie, userAgent } from '../http';
import { dash, loadDashboard, requireSession, sessionPolicy } from '../session';
import { actOnTeam } from '../actions';
import { formStateFrom, sendBare } from '../render';
import { AuthPage } from '../views/layout';
import { Csrf, Field, FormErrors, type FormState } from '../views/ui';

function SignInForm({ token, next, state, notice }: { token: string; next: string; state?: FormState; notice?: string }) {
  return (
    <AuthPage title="Sign in to the billing dashboard">
      {notice ? (
        <div class="notice" role="status" id="notice">
          {notice}
        </div>
      ) : null}
      <FormErrors state={state} />
      <form method="post" action="/dashboard/sign-in" id="sign-in-form">
        <Csrf token={token} />
        <input type="hidden" name="next" value={next} />
        <Field name="email" label="E-mail" type="email" state={state} input={{ autocomplete: 'username', required: true, autofocus: true }} />
        <Field name="password" label="Password" type="password" state={state} input={{ autocomplete: 'current-password', required: true }} />
        <button type="submit" id="sign-in-button">
          Sign in
        </button>
      </form>
      <p class="muted">
        No account? An owner of your company invites you from the dashboard's Team page, or an operator creates the first user with{' '}
        <span class="mono">npx billing users create</span>.
      </p>
    </AuthPage>
  );
}

function checkPreSession(ctx: AppContext): void {
  assertSameOrigin(ctx);
  const cookie = ctx.cookies.get('billing_dashboard_pre') ?? '';
  const given = field(ctx.state.dashboardForm ?? {}, '_csrf');
  if (cookie === '' || given === '' || !tokensEqual(cookie, given)) {
    throw errors.csrfTokenInvalid('The sign-in form expired or did not come from this site; reload the page and try again', '_csrf');
  }
}

export function authPages(router: DashboardRouter, deps: AppDeps): void {
  router.get('/sign-in', async (ctx) => {
    if (await loadDashboard(ctx, deps)) return ctx.redirect(safeNext(ctx.query.next));
    const notice =
      ctx.query.expired === '1'
        ? 'Your session has ended. Sign in again.'
        : ctx.query.notice === 'signed_out'
          ? 'You are signed out.'
          : ctx.query.notice === 'signed_out_everywhere'
            ? 'Every session of yours has ended. Sign in again.'
            : ctx.query.notice === 'welcome'
              ? 'Your account is ready. Sign in with your e-mail and new password.'
              : undefined;
    sendBare(ctx, 'Sign in', <SignInForm token={preSessionToken(ctx)} next={safeNext(ctx.query.next)} notice={notice} />);
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
      sendBare(ctx, 'Sign in', <SignInForm token={preSessionToken(ctx)} next={next} state={state} />, err.status);
    }
  });

  const pending = requireSession(deps, { allowSecondFactorPending: true });

  const twoStepForm = (token: string, next: string, state?: FormState) => (
    <AuthPage title="Two-step sign-in">
      <FormErrors state={state} />
      <form method="post" action="/dashboard/sign-in/two-step" id="two-step-form">
        <Csrf token={token} />
        <input type="hidden" name="next" value={next} />
        <Field
          name="code"
          label="Code from your authenticator app"
          state={state}
          input={{ inputmode: 'numeric', autocomplete: 'one-time-code', required: true, autofocus: true, maxLength: 7 }}
        />
        <button type="submit" id="two-step-button">
          Continue
        </button>
      </form>
    </AuthPage>
  );

  router.get('/sign-in/two-step', pending, async (ctx) => {
    const d = dash(ctx);
    if (!d.session.secondFactorPending) return ctx.redirect(safeNext(ctx.query.next));
    sendBare(ctx, 'Two-step sign-in', twoStepForm(d.csrf, safeNext(ctx.query.next)));
  });

  router.post('/sign-in/two-step', pending, async (ctx) => {
    const d = dash(ctx);
    const next = safeNext(field(d.form, 'next'));
    try {
      assertSameOrigin(ctx);
      if (!tokensEqual(field(d.form, '_csrf') || '-', d.csrf)) throw errors.csrfTokenInvalid('The form expired; reload the page', '_csrf');
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
      sendBare(ctx, 'Two-step sign-in', twoStepForm(d.csrf, next, formStateFrom(err, d.form, ['code'])), err.status);
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

  const invitationForm = (token: string, pre: string, email: string, role: string, state?: FormState) => (
    <AuthPage title="Join the billing dashboard">
      <p>
        You are invited as <strong>{role}</strong> with the e-mail <strong id="invited-email">{email}</strong>. Choose a password (at least 10 characters).
      </p>
      <FormErrors state={state} />
      <form method="post" action={`/dashboard/invitations/${token}`} id="invitation-form">
        <Csrf token={pre} />
        <Field name="name" label="Your name (optional)" state={state} input={{ autocomplete: 'name', maxLength: 200 }} />
        <Field name="password" label="Password" type="password" state={state} input={{ autocomplete: 'new-password', required: true, minLength: 10 }} />
        <button type="submit">Create my account</button>
      </form>
    </AuthPage>
  );

  router.get('/invitations/:token', async (ctx) => {
    const inv = await findOpenInvitation(deps.db, ctx.params.token ?? '', new Date());
    if (!inv) throw errors.resourceMissing('This invitation link is unknown, used or expired; ask an owner for a new one.');
    sendBare(ctx, 'Invitation', invitationForm(ctx.params.token!, preSessionToken(ctx), inv.email, ROLE_LABELS[inv.role]));
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
      sendBare(ctx, 'Invitation', invitationForm(token, preSessionToken(ctx), inv.email, ROLE_LABELS[inv.role], formStateFrom(err, form, ['password', 'name'])), err.status);
    }
  });
}
