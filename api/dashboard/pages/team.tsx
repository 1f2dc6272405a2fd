// Team (owners manage users and invitations; everyone sees who is on the team) and the audit log
// (owners only).
import type { AppContext, AppDeps } from '../../context';
import { errors } from '../../../src/errors';
import { pageParams, pathId } from '../../validate';
import { createInvitation, revokeInvitation } from '../../../src/domain/dashboard-users/invitations';
import { changeUserRole, removeUser } from '../../../src/domain/dashboard-users/manage-team';
import { pageOpenInvitations, pageTeamMembers } from '../../../src/domain/dashboard-users/page-team';
import { DASHBOARD_ROLES, ROLE_LABELS } from '../../../src/domain/dashboard-users/roles';
import { listAuditEntries } from '../../../src/domain/dashboard-audit/list-audit-entries';
import type { DashboardAuditEntry, DashboardInvitation, DashboardUser } from '../../../src/generated/prisma/client';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, assertPermission, type Dashboard } from '../session';
import { field, queryParams } from '../http';
import { actOnTeam } from '../actions';
import { isRefusal } from '../forms';
import { formStateFrom, redirectWithNotice, sendPage } from '../render';
import { ApiError } from '../../../src/errors';
import { ActionButton, Csrf, Field, FormErrors, Pager, Panel, SecretOnce, Select, Status, Table, when, type FormState } from '../views/ui';

const ROLE_OPTIONS: Array<[string, string]> = DASHBOARD_ROLES.map((r) => [r, ROLE_LABELS[r]]);

async function teamPage(ctx: AppContext, d: Dashboard, extra: { state?: FormState; link?: string } = {}) {
  const now = new Date();
  // Two lists on one page, each with its own cursor.
  const q = queryParams(ctx, ['starting_after', 'invitations_after']);
  const owner = d.can('manage_team');
  const [users, invitations] = await Promise.all([
    pageTeamMembers(d.deps.db, d.merchant.id, pageParams({ starting_after: q.starting_after })),
    owner ? pageOpenInvitations(d.deps.db, d.merchant.id, now, pageParams({ starting_after: q.invitations_after })) : Promise.resolve({ data: [], hasMore: false }),
  ]);
  sendPage(ctx, d, {
    title: 'Team',
    active: '/dashboard/team',
    body: (
      <>
        {extra.link ? <SecretOnce label="Invitation link: send it to the person you invited (valid 7 days, works once)" value={extra.link} id="invitation-link" /> : null}
        <Panel title="Users" id="users">
          <FormErrors state={extra.state?.formError && !extra.state.errors ? extra.state : undefined} />
          <Table<DashboardUser>
            caption="Users"
            rows={users.data}
            empty="No users."
            columns={[
              { label: 'E-mail', cell: (u) => u.email },
              { label: 'Name', cell: (u) => u.name ?? '—' },
              {
                label: 'Role',
                cell: (u) =>
                  owner && u.id !== d.user.id ? (
                    <form method="post" action={`/dashboard/team/users/${u.id}/role`} class="inline-row">
                      <Csrf token={d.csrf} />
                      <label class="skip" for={`role-${u.id}`}>
                        Role of {u.email}
                      </label>
                      <select id={`role-${u.id}`} name="role">
                        {ROLE_OPTIONS.map(([v, l]) => (
                          <option value={v} selected={v === u.role}>
                            {l}
                          </option>
                        ))}
                      </select>{' '}
                      <button type="submit" class="secondary">
                        Change
                      </button>
                    </form>
                  ) : (
                    ROLE_LABELS[u.role]
                  ),
              },
              { label: 'Two-step', cell: (u) => (u.totpEnabledAt ? 'on' : 'off') },
              { label: 'Since', nowrap: true, cell: (u) => when(u.createdAt) },
              {
                label: '',
                cell: (u) =>
                  owner && u.id !== d.user.id ? (
                    <ActionButton action={`/dashboard/team/users/${u.id}/remove`} csrf={d.csrf} label="Remove" danger confirm={`Remove ${u.email}? Their sessions end at once.`} />
                  ) : null,
              },
            ]}
          />
          <Pager basePath="/dashboard/team" query={q} hasMore={users.hasMore} lastId={users.data.at(-1)?.id} label="Pages of users" />
        </Panel>
        {owner ? (
          <>
            <Panel title="Open invitations" id="invitations">
              <Table<DashboardInvitation>
                caption="Open invitations"
                rows={invitations.data}
                empty="No open invitations."
                columns={[
                  { label: 'E-mail', cell: (i) => i.email },
                  { label: 'Role', cell: (i) => ROLE_LABELS[i.role] },
                  { label: 'Expires', nowrap: true, cell: (i) => when(i.expiresAt) },
                  { label: '', cell: (i) => <ActionButton action={`/dashboard/team/invitations/${i.id}/revoke`} csrf={d.csrf} label="Revoke" id={`revoke-invitation-${i.id}`} /> },
                ]}
              />
              <Pager
                basePath="/dashboard/team"
                query={q}
                param="invitations_after"
                hasMore={invitations.hasMore}
                lastId={invitations.data.at(-1)?.id}
                label="Pages of invitations"
              />
            </Panel>
            <Panel title="Invite someone" id="invite">
              <form method="post" action="/dashboard/team/invitations" id="invite-form">
                <Csrf token={d.csrf} />
                <Field name="email" label="E-mail" type="email" state={extra.state} input={{ required: true }} />
                <Select
                  name="role"
                  label="Role"
                  options={ROLE_OPTIONS}
                  state={extra.state}
                  value="read_only"
                  hint="Owner: everything. Developer: keys, webhooks, origins, domains. Finance: invoices, payments, refunds, customers, accounting. Read-only: looks only."
                />
                <button type="submit">Create invitation link</button>
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
          if (id === d.user.id) throw errors.invalidState('You cannot change your own role; ask another owner', 'role');
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
          if (id === d.user.id) throw errors.invalidState('You cannot remove yourself; ask another owner');
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
    sendPage(ctx, d, {
      title: 'Audit log',
      active: '/dashboard/audit',
      body: (
        <Panel title="Every dashboard action, newest first" id="audit">
          <p class="muted">Entries are never changed or removed (the database refuses it).</p>
          <Table<DashboardAuditEntry>
            caption="Audit log"
            rows={page.data}
            empty="No actions yet."
            columns={[
              { label: 'When', nowrap: true, cell: (e) => when(e.createdAt) },
              { label: 'Who', cell: (e) => e.actorEmail },
              { label: 'Action', cell: (e) => <span class="mono">{e.action}</span> },
              { label: 'Outcome', cell: (e) => <Status value={e.outcome} /> },
              { label: 'Mode', cell: (e) => e.objectMode ?? '—' },
              {
                label: 'Object',
                cell: (e) =>
                  e.objectType || e.objectId ? (
                    <>
                      <span class="muted">{e.objectType}</span> <span class="mono">{e.objectId}</span>
                    </>
                  ) : (
                    '—'
                  ),
              },
              { label: 'Detail', cell: (e) => <code class="mono detail">{JSON.stringify(e.detail)}</code> },
              { label: 'From', cell: (e) => <span class="mono">{e.ip ?? '—'}</span> },
            ]}
          />
          <Pager basePath="/dashboard/audit" query={q} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  });
}
