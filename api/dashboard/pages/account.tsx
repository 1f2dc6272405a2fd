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

type Section = 'totp' | 'password';

async function accountPage(ctx: AppContext, d: Dashboard, failed?: { section: Section; state: FormState }) {
  const user = await d.deps.db.dashboardUser.findUniqueOrThrow({ where: { id: d.user.id } });
  const sessions = await listOpenSessionsOfUser(d.deps.db, user.id, new Date());
  const st = (s: Section) => (failed?.section === s ? failed.state : undefined);
  const uri = !user.totpEnabledAt ? totpUri(user) : null;
  sendPage(ctx, d, {
    title: 'Your account',
    active: '/dashboard/account',
    body: (
      <>
        <Panel title="Two-step sign-in" id="totp">
          {user.totpEnabledAt ? (
            <>
              <p id="totp-status">On since {when(user.totpEnabledAt)}. Every sign-in asks for a code from your authenticator app.</p>
              <form method="post" action="/dashboard/account/totp/disable" id="totp-disable-form">
                <Csrf token={d.csrf} />
                <FormErrors state={st('totp')} />
                <Field name="code" label="A current code, to turn it off" state={st('totp')} input={{ inputmode: 'numeric', autocomplete: 'one-time-code', maxLength: 7 }} />
                <button type="submit" class="danger">
                  Turn off
                </button>
              </form>
            </>
          ) : uri ? (
            <>
              <p>Add this account to your authenticator app with the key below (or the otpauth link), then enter the code it shows.</p>
              <p>
                Key:{' '}
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
                <Field name="code" label="Code from the app" state={st('totp')} input={{ inputmode: 'numeric', autocomplete: 'one-time-code', required: true, maxLength: 7 }} />
                <button type="submit">Turn on</button>
              </form>
            </>
          ) : (
            <>
              <p id="totp-status">Off. Turn it on to ask for a code from an authenticator app at every sign-in.</p>
              <form method="post" action="/dashboard/account/totp/setup">
                <Csrf token={d.csrf} />
                <button type="submit" id="totp-setup">
                  Set up two-step sign-in
                </button>
              </form>
            </>
          )}
        </Panel>
        <Panel title="Password" id="password">
          <form method="post" action="/dashboard/account/password" id="password-form">
            <Csrf token={d.csrf} />
            <FormErrors state={st('password')} />
            <input type="text" name="username" value={user.email} autocomplete="username" hidden />
            <Field name="current_password" label="Current password" type="password" state={st('password')} input={{ autocomplete: 'current-password', required: true }} />
            <Field
              name="new_password"
              label="New password (at least 10 characters)"
              type="password"
              state={st('password')}
              input={{ autocomplete: 'new-password', required: true, minLength: 10 }}
            />
            <button type="submit">Change password</button>
          </form>
        </Panel>
        <Panel title="Sessions" id="sessions">
          <Table
            caption="Open sessions"
            rows={sessions}
            empty="No open sessions."
            columns={[
              { label: 'Signed in', nowrap: true, cell: (s) => when(s.createdAt) },
              { label: 'Last used', nowrap: true, cell: (s) => when(s.lastSeenAt) },
              { label: 'From', cell: (s) => <span class="mono">{s.ip ?? '—'}</span> },
              { label: 'Browser', cell: (s) => (s.userAgent ?? '—').slice(0, 80) },
              { label: '', cell: (s) => (s.id === d.session.id ? 'this one' : '') },
            ]}
          />
          <form method="post" action="/dashboard/sign-out-everywhere" id="sign-out-everywhere-form">
            <Csrf token={d.csrf} />
            <button type="submit" class="danger" id="sign-out-everywhere">
              Sign out everywhere
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
