// Your account: two-step sign-in (TOTP) set-up and removal, password change, open sessions and
// "sign out everywhere".
import type { AppContext, AppDeps } from '../../context';
import { ApiError } from '../../../src/errors';
import { beginTotpSetup, confirmTotpSetup, disableTotp, totpUri } from '../../../src/domain/dashboard-users/totp';
import { changePassword } from '../../../src/domain/dashboard-users/change-password';
import { listOpenSessionsOfUser } from '../../../src/domain/dashboard-users/sessions';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, type Dashboard } from '../session';
import { field } from '../http';
import { actOnTeam } from '../actions';
import { isRefusal } from '../forms';
import { formStateFrom, redirectWithNotice, sendPage } from '../render';
import { Csrf, Field, FormErrors, Panel, Table, when, type FormState } from '../views/ui';
import { fillText } from '../i18n';
import { localState } from './l10n-settings';

type Section = 'totp' | 'password';

async function accountPage(ctx: AppContext, d: Dashboard, failed?: { section: Section; state: FormState }) {
  const user = await d.deps.db.dashboardUser.findUniqueOrThrow({ where: { id: d.user.id } });
  const sessions = await listOpenSessionsOfUser(d.deps.db, user.id, new Date());
  const st = (s: Section) => (failed?.section === s ? localState(failed.state, d.locale) : undefined);
  const uri = !user.totpEnabledAt ? totpUri(user) : null;
  const t = d.t;
  sendPage(ctx, d, {
    title: t.me_title,
    active: '/dashboard/account',
    body: (
      <>
        <Panel title={t.me_totp} id="totp">
          {user.totpEnabledAt ? (
            <>
              <p id="totp-status">{fillText(t.me_totp_on, { date: when(user.totpEnabledAt, d.locale) })}</p>
              <form method="post" action="/dashboard/account/totp/disable" id="totp-disable-form">
                <Csrf token={d.csrf} />
                <FormErrors state={st('totp')} />
                <Field name="code" label={t.me_totp_off_code} state={st('totp')} input={{ inputmode: 'numeric', autocomplete: 'one-time-code', maxLength: 7 }} />
                <button type="submit" class="danger">
                  {t.me_turn_off}
                </button>
              </form>
            </>
          ) : uri ? (
            <>
              <p>{t.me_totp_add}</p>
              <p>
                {t.me_key}{' '}
                <span class="mono" id="totp-secret">
                  {user.totpSecret}
                </span>
              </p>
              <p class="mono" id="totp-uri">
                {uri}
              </p>
              <form method="post" action="/dashboard/account/totp/confirm" id="totp-confirm-form">
                <Csrf token={d.csrf} />
                <FormErrors state={st('totp')} />
                <Field name="code" label={t.me_code_from_app} state={st('totp')} input={{ inputmode: 'numeric', autocomplete: 'one-time-code', required: true, maxLength: 7 }} />
                <button type="submit">{t.me_turn_on}</button>
              </form>
            </>
          ) : (
            <>
              <p id="totp-status">{t.me_totp_off}</p>
              <form method="post" action="/dashboard/account/totp/setup">
                <Csrf token={d.csrf} />
                <button type="submit" id="totp-setup">
                  {t.me_totp_setup}
                </button>
              </form>
            </>
          )}
        </Panel>
        <Panel title={t.me_password} id="password">
          <form method="post" action="/dashboard/account/password" id="password-form">
            <Csrf token={d.csrf} />
            <FormErrors state={st('password')} />
            <input type="text" name="username" value={user.email} autocomplete="username" hidden />
            <Field name="current_password" label={t.me_current_password} type="password" state={st('password')} input={{ autocomplete: 'current-password', required: true }} />
            <Field name="new_password" label={t.me_new_password} type="password" state={st('password')} input={{ autocomplete: 'new-password', required: true, minLength: 10 }} />
            <button type="submit">{t.me_change_password}</button>
          </form>
        </Panel>
        <Panel title={t.me_sessions} id="sessions">
          <Table
            caption={t.me_open_sessions}
            rows={sessions}
            empty={t.me_no_sessions}
            columns={[
              { label: t.me_signed_in, nowrap: true, cell: (s) => when(s.createdAt, d.locale) },
              { label: t.me_last_used, nowrap: true, cell: (s) => when(s.lastSeenAt, d.locale) },
              { label: t.c_from, cell: (s) => <span class="mono">{s.ip ?? '—'}</span> },
              { label: t.me_browser, cell: (s) => (s.userAgent ?? '—').slice(0, 80) },
              { label: t.c_status, cell: (s) => (s.id === d.session.id ? t.me_this_one : '') },
            ]}
          />
          <form method="post" action="/dashboard/sign-out-everywhere" id="sign-out-everywhere-form">
            <Csrf token={d.csrf} />
            <button type="submit" class="danger" id="sign-out-everywhere">
              {t.me_sign_out_everywhere}
            </button>
          </form>
        </Panel>
      </>
    ),
  });
}

export function accountPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);
  router.get('/account', session, async (ctx) => accountPage(ctx, dash(ctx)));

  const post = (
    path: string,
    section: Section,
    action: string,
    run: (d: Dashboard) => (db: Dashboard['deps']['db']) => Promise<unknown>,
    notice?: 'totp_enabled' | 'totp_disabled' | 'password_changed',
  ) =>
    router.post(path, session, async (ctx) => {
      const d = dash(ctx);
      try {
        await actOnTeam(ctx, d, { permission: 'view', action, objectType: 'user', objectId: d.user.id, run: run(d) });
      } catch (err) {
        if (isRefusal(err) || !(err instanceof ApiError)) throw err;
        await accountPage(ctx, d, { section, state: formStateFrom(err, d.form, ['code', 'current_password', 'new_password']) });
        ctx.status = err.status;
        return;
      }
      if (notice) redirectWithNotice(ctx, '/dashboard/account', notice);
      else {
        ctx.status = 303;
        ctx.redirect('/dashboard/account');
        ctx.status = 303;
      }
    });

  post('/account/totp/setup', 'totp', 'user.totp_setup', (d) => async (db) => beginTotpSetup(db, await db.dashboardUser.findUniqueOrThrow({ where: { id: d.user.id } })));
  post(
    '/account/totp/confirm',
    'totp',
    'user.totp_enable',
    (d) => async (db) => confirmTotpSetup(db, await db.dashboardUser.findUniqueOrThrow({ where: { id: d.user.id } }), field(d.form, 'code'), new Date()),
    'totp_enabled',
  );
  post(
    '/account/totp/disable',
    'totp',
    'user.totp_disable',
    (d) => async (db) => disableTotp(db, await db.dashboardUser.findUniqueOrThrow({ where: { id: d.user.id } }), field(d.form, 'code'), new Date()),
    'totp_disabled',
  );
  post(
    '/account/password',
    'password',
    'user.change_password',
    (d) => async (db) =>
      changePassword(db, {
        user: await db.dashboardUser.findUniqueOrThrow({ where: { id: d.user.id } }),
        currentSessionId: d.session.id,
        current: field(d.form, 'current_password'),
        next: field(d.form, 'new_password'),
        now: new Date(),
      }),
    'password_changed',
  );
}
