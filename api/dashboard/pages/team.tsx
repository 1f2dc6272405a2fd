// Team (owners manage users and invitations; everyone sees who is on the team) and the audit log
// (owners only).
import type { AppContext, AppDeps } from '../../context';
import { errors } from '../../../src/errors';
import { pageParams, pathId } from '../../validate';
import { createInvitation, revokeInvitation } from '../../../src/domain/dashboard-users/invitations';
import { changeUserRole, removeUser } from '../../../src/domain/dashboard-users/manage-team';
import { pageOpenInvitations, pageTeamMembers } from '../../../src/domain/dashboard-users/page-team';
import { DASHBOARD_ROLES } from '../../../src/domain/dashboard-users/roles';
import { listAuditEntries } from '../../../src/domain/dashboard-audit/list-audit-entries';
import type { DashboardAuditEntry, DashboardInvitation, DashboardUser } from '../../../src/generated/prisma/client';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, assertPermission, type Dashboard } from '../session';
import { field, queryParams } from '../http';
import { actOnTeam } from '../actions';
import { isRefusal } from '../forms';
import { formStateFrom, redirectWithNotice, sendPage } from '../render';
import { ApiError } from '../../../src/errors';
import { ActionButton, Csrf, Field, FormErrors, Pager, Panel, roleWord, SecretOnce, Select, Status, statusWord, Table, when, type FormState } from '../views/ui';
import { fillText, type DashboardMessages } from '../i18n';
import { SETTINGS_MESSAGES } from '../messages-settings';
import { localState } from './l10n-settings';

const roleOptions = (t: DashboardMessages): Array<[string, string]> => DASHBOARD_ROLES.map((r) => [r, roleWord(r, t)]);

async function teamPage(ctx: AppContext, d: Dashboard, given: { state?: FormState; link?: string } = {}) {
  const now = new Date();
  const t = d.t;
  const extra = { ...given, state: localState(given.state, d.locale) };
  const ROLE_OPTIONS = roleOptions(t);
  // Two lists on one page, each with its own cursor.
  const q = queryParams(ctx, ['starting_after', 'invitations_after']);
  const owner = d.can('manage_team');
  const [users, invitations] = await Promise.all([
    pageTeamMembers(d.deps.db, d.merchant.id, pageParams({ starting_after: q.starting_after })),
    owner ? pageOpenInvitations(d.deps.db, d.merchant.id, now, pageParams({ starting_after: q.invitations_after })) : Promise.resolve({ data: [], hasMore: false }),
  ]);
  sendPage(ctx, d, {
    title: t.team_title,
    active: '/dashboard/team',
    body: (
      <>
        {extra.link ? <SecretOnce label={t.team_link} value={extra.link} id="invitation-link" /> : null}
        <Panel title={t.team_users} id="users">
          <FormErrors state={extra.state?.formError && !extra.state.errors ? extra.state : undefined} />
          <Table<DashboardUser>
            caption={t.team_users}
            rows={users.data}
            empty={t.team_no_users}
            columns={[
              { label: t.c_email, cell: (u) => u.email },
              { label: t.c_name, cell: (u) => u.name ?? '—' },
              {
                label: t.c_role,
                cell: (u) =>
                  owner && u.id !== d.user.id ? (
                    <form method="post" action={`/dashboard/team/users/${u.id}/role`} class="inline-row">
                      <Csrf token={d.csrf} />
                      <label class="skip" for={`role-${u.id}`}>
                        {fillText(t.team_role_of, { email: u.email })}
                      </label>
                      <select id={`role-${u.id}`} name="role">
                        {ROLE_OPTIONS.map(([v, l]) => (
                          <option value={v} selected={v === u.role}>
                            {l}
                          </option>
                        ))}
                      </select>{' '}
                      <button type="submit" class="secondary">
                        {t.team_change}
                      </button>
                    </form>
                  ) : (
                    <span data-role={u.role}>{roleWord(u.role, t)}</span>
                  ),
              },
              { label: t.team_two_step, cell: (u) => <Status value={u.totpEnabledAt ? 'on' : 'off'} /> },
              { label: t.team_since, nowrap: true, cell: (u) => when(u.createdAt, d.locale) },
              {
                label: t.c_actions,
                cell: (u) =>
                  owner && u.id !== d.user.id ? (
                    <ActionButton
                      action={`/dashboard/team/users/${u.id}/remove`}
                      csrf={d.csrf}
                      label={t.team_remove}
                      danger
                      confirm={fillText(t.team_remove_confirm, { email: u.email })}
                    />
                  ) : null,
              },
            ]}
          />
          <Pager basePath="/dashboard/team" query={q} hasMore={users.hasMore} lastId={users.data.at(-1)?.id} label={t.team_pages_users} />
        </Panel>
        {owner ? (
          <>
            <Panel title={t.team_invitations} id="invitations">
              <Table<DashboardInvitation>
                caption={t.team_invitations}
                rows={invitations.data}
                empty={t.team_no_invitations}
                columns={[
                  { label: t.c_email, cell: (i) => i.email },
                  { label: t.c_role, cell: (i) => <span data-role={i.role}>{roleWord(i.role, t)}</span> },
                  { label: t.team_expires, nowrap: true, cell: (i) => when(i.expiresAt, d.locale) },
                  {
                    label: t.c_actions,
                    cell: (i) => <ActionButton action={`/dashboard/team/invitations/${i.id}/revoke`} csrf={d.csrf} label={t.team_revoke} id={`revoke-invitation-${i.id}`} />,
                  },
                ]}
              />
              <Pager
                basePath="/dashboard/team"
                query={q}
                param="invitations_after"
                hasMore={invitations.hasMore}
                lastId={invitations.data.at(-1)?.id}
                label={t.team_pages_invitations}
              />
            </Panel>
            <Panel title={t.team_invite} id="invite">
              <form method="post" action="/dashboard/team/invitations" id="invite-form">
                <Csrf token={d.csrf} />
                <Field name="email" label={t.c_email} type="email" state={extra.state} input={{ required: true }} />
                <Select name="role" label={t.c_role} options={ROLE_OPTIONS} state={extra.state} value="read_only" hint={t.team_role_hint} />
                <button type="submit">{t.team_invite_button}</button>
              </form>
            </Panel>
          </>
        ) : null}
      </>
    ),
  });
}

async function teamForm<T>(ctx: AppContext, d: Dashboard, spec: Parameters<typeof actOnTeam<T>>[2], fields: string[], success: (r: T) => Promise<void> | void) {
  try {
    const r = await actOnTeam(ctx, d, spec);
    await success(r);
  } catch (err) {
    if (isRefusal(err) || !(err instanceof ApiError)) throw err;
    await teamPage(ctx, d, { state: formStateFrom(err, d.form, fields) });
    ctx.status = err.status;
  }
}

export function teamPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);
  router.get('/team', session, async (ctx) => teamPage(ctx, dash(ctx)));

  router.post('/team/invitations', session, async (ctx) => {
    const d = dash(ctx);
    await teamForm(
      ctx,
      d,
      {
        permission: 'manage_team',
        action: 'invitation.create',
        objectType: 'invitation',
        run: async (db) => createInvitation(db, { merchantId: d.merchant.id, email: field(d.form, 'email'), role: field(d.form, 'role'), invitedBy: d.user.id, now: new Date() }),
        resultId: (r) => r.invitation.id,
        detail: (r) => ({ email: r.invitation.email, role: r.invitation.role }),
      },
      ['email', 'role'],
      async (r) => {
        await teamPage(ctx, d, { link: `${d.deps.config.publicBaseUrl}/dashboard/invitations/${r.token}` });
      },
    );
  });

  router.post('/team/invitations/:id/revoke', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await teamForm(
      ctx,
      d,
      { permission: 'manage_team', action: 'invitation.revoke', objectType: 'invitation', objectId: id, run: async (db) => revokeInvitation(db, d.merchant.id, id, new Date()) },
      [],
      () => redirectWithNotice(ctx, '/dashboard/team', 'invitation_revoked'),
    );
  });

  router.post('/team/users/:id/role', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    const role = field(d.form, 'role');
    await teamForm(
      ctx,
      d,
      {
        permission: 'manage_team',
        action: 'user.change_role',
        objectType: 'user',
        objectId: id,
        detail: () => ({ role }),
        run: async (db) => {
          if (id === d.user.id) throw errors.invalidState(SETTINGS_MESSAGES.en.err_own_role, 'role');
          return changeUserRole(db, d.merchant.id, id, role);
        },
      },
      ['role'],
      () => redirectWithNotice(ctx, '/dashboard/team', 'role_changed'),
    );
  });

  router.post('/team/users/:id/remove', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await teamForm(
      ctx,
      d,
      {
        permission: 'manage_team',
        action: 'user.remove',
        objectType: 'user',
        objectId: id,
        run: async (db) => {
          if (id === d.user.id) throw errors.invalidState(SETTINGS_MESSAGES.en.err_remove_self);
          return removeUser(db, d.merchant.id, id, new Date());
        },
      },
      [],
      () => redirectWithNotice(ctx, '/dashboard/team', 'user_removed'),
    );
  });

  router.get('/audit', session, async (ctx) => {
    const d = dash(ctx);
    assertPermission(d, 'manage_team');
    const q = queryParams(ctx, ['starting_after']);
    const page = await listAuditEntries(d.deps.db, d.merchant.id, pageParams(q));
    const t = d.t;
    sendPage(ctx, d, {
      title: t.audit_title,
      active: '/dashboard/audit',
      body: (
        <Panel title={t.audit_heading} id="audit">
          <p class="muted">{t.audit_note}</p>
          <Table<DashboardAuditEntry>
            caption={t.audit_title}
            rows={page.data}
            empty={t.audit_none}
            columns={[
              { label: t.c_when, nowrap: true, cell: (e) => when(e.createdAt, d.locale) },
              { label: t.audit_who, cell: (e) => e.actorEmail },
              { label: t.audit_action, cell: (e) => <span class="mono">{e.action}</span> },
              { label: t.audit_outcome, cell: (e) => <Status value={e.outcome} /> },
              { label: t.audit_mode, cell: (e) => (e.objectMode ? <span data-mode={e.objectMode}>{statusWord(e.objectMode, t)}</span> : '—') },
              {
                label: t.audit_object,
                cell: (e) =>
                  e.objectType || e.objectId ? (
                    <>
                      <span class="muted">{e.objectType}</span> <span class="mono">{e.objectId}</span>
                    </>
                  ) : (
                    '—'
                  ),
              },
              { label: t.audit_detail, cell: (e) => <code class="mono detail">{JSON.stringify(e.detail)}</code> },
              { label: t.c_from, cell: (e) => <span class="mono">{e.ip ?? '—'}</span> },
            ]}
          />
          <Pager basePath="/dashboard/audit" query={q} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  });
}
