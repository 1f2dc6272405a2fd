// Settings → Accounting connection: the link of the mode shown (provider, status, why it is in
// error, the sync's progress and lag, failed records), and connect / reconnect / disconnect /
// re-sync for roles with manage_accounting. Every action is the API's own domain call
// (src/domain/accounting/*, docs/accounting.md) with the same sync-workflow moves after commit.
import type { ComponentChildren } from 'preact';
import type { AppContext, AppDeps } from '../../context';
import type { AccountingLink } from '../../../src/generated/prisma/client';
import { PROVIDERS, providerInfo } from '../../../src/gateways/accounting/providers';
import { connectAccountingLink } from '../../../src/domain/accounting/connect-accounting-link';
import { completeAccountingLink } from '../../../src/domain/accounting/complete-accounting-link';
import { disconnectAccountingLink } from '../../../src/domain/accounting/disconnect-accounting-link';
import { listSyncRecords, type SyncRecordView } from '../../../src/domain/accounting/sync-records';
import { resyncAccountingRecord } from '../../../src/domain/accounting/resync-accounting-record';
import { accountingSyncProgress, type SyncProgress } from '../../../src/domain/accounting/sync-progress';
import { pathId } from '../../validate';
import type { DashboardRouter } from '../router-types';
import { dash, type Dashboard } from '../session';
import { field } from '../http';
import { ActionButton, Csrf, Field, FormErrors, Props, Status, Table, when, type FormState } from '../views/ui';
import { fillText, type DashboardLocale, type DashboardMessages } from '../i18n';
import type { Middleware } from '../../context';
import type { SettingsPost } from './settings-form';

export interface AccountingView {
  progress: SyncProgress | null;
  failed: SyncRecordView[];
}

export async function loadAccountingView(d: Dashboard): Promise<AccountingView> {
  const progress = await accountingSyncProgress(d.db);
  const failed = progress && progress.failed > 0 ? (await listSyncRecords(d.db, { status: 'failed' }, { limit: 10 })).data : [];
  return { progress, failed };
}

function lag(t: DashboardMessages, since: Date | null, now = new Date()): string {
  if (!since) return t.acc_lag_none;
  const minutes = Math.max(0, Math.round((now.getTime() - since.getTime()) / 60_000));
  return minutes < 1 ? t.acc_lag_under_minute : minutes < 120 ? fillText(t.acc_lag_min, { n: minutes }) : fillText(t.acc_lag_h, { n: Math.round(minutes / 60) });
}

/** The numbers the progress poll returns (and the page starts with); the words in the page's language. */
export function progressJson(p: SyncProgress, t: DashboardMessages, locale: DashboardLocale) {
  return {
    status: p.link.status,
    pending: p.pending,
    synced: p.synced,
    failed: p.failed,
    last_synced_at: p.lastSyncedAt ? when(p.lastSyncedAt, locale) : t.st_never,
    lag: lag(t, p.oldestPendingAt),
  };
}

function SyncProgressView({ p, d }: { p: SyncProgress; d: Dashboard }) {
  const t = d.t;
  const j = progressJson(p, t, d.locale);
  const total = p.pending + p.synced + p.failed;
  const running = p.link.status === 'active' && p.pending > 0;
  return (
    <div class="sync-progress" id="accounting-progress" data-poll="/dashboard/settings/accounting/progress" data-running={running ? '1' : '0'}>
      <label for="accounting-progress-bar">{running ? t.acc_syncing : t.acc_sync}</label>
      <progress id="accounting-progress-bar" max={Math.max(total, 1)} value={p.synced + p.failed}></progress>
      <p role="status" aria-live="polite">
        <span data-k="synced" id="sync-synced">
          {j.synced}
        </span>{' '}
        {t.acc_sent},{' '}
        <span data-k="pending" id="sync-pending">
          {j.pending}
        </span>{' '}
        {t.acc_waiting},{' '}
        <span data-k="failed" id="sync-failed">
          {j.failed}
        </span>{' '}
        {t.acc_failed}. {t.acc_last_sent} <span data-k="last_synced_at">{j.last_synced_at}</span>. {t.acc_oldest} <span data-k="lag">{j.lag}</span>.
      </p>
    </div>
  );
}

function ConnectForms({ d, state, reconnect }: { d: Dashboard; state?: FormState; reconnect: boolean }) {
  const providers = PROVIDERS.filter((p) => p.environment === d.tenant.mode);
  const t = d.t;
  const verb = reconnect ? t.acc_reconnect : t.acc_connect;
  return (
    <div class="connect-forms">
      <FormErrors state={state} />
      {providers.map((p) =>
        p.authType === 'oauth' ? (
          <form method="post" action="/dashboard/settings/accounting/connect" class="connect-form" id={`connect-${p.id}`}>
            <Csrf token={d.csrf} />
            <input type="hidden" name="provider" value={p.id} />
            <p>
              <strong>{p.name}</strong>: {t.acc_oauth_note}
            </p>
            <button type="submit" id={`connect-${p.id}-button`} aria-label={`${verb} ${p.name}`}>
              {verb}
            </button>
          </form>
        ) : (
          <form method="post" action="/dashboard/settings/accounting/complete" class="connect-form" id={`connect-${p.id}`} data-busy={t.acc_checking}>
            <Csrf token={d.csrf} />
            <input type="hidden" name="provider" value={p.id} />
            <p>
              <strong>{p.name}</strong>: {t.acc_form_note}
            </p>
            <Field name="credentials.api_token" label={t.acc_api_token} type="password" state={state} input={{ autocomplete: 'off', maxLength: 500 }} />
            <Field name="credentials.company_id" label={t.acc_company_id} state={state} input={{ maxLength: 500 }} />
            <button type="submit" id={`connect-${p.id}-button`} aria-label={`${verb} ${p.name}`}>
              {verb}
            </button>
          </form>
        ),
      )}
    </div>
  );
}

function linkRows(d: Dashboard, link: AccountingLink): Array<[string, ComponentChildren]> {
  const t = d.t;
  const rows: Array<[string, ComponentChildren]> = [
    [t.acc_provider, <span id="accounting-provider">{providerInfo(link.provider)?.name ?? link.provider}</span>],
    [
      t.c_status,
      <span id="accounting-status" data-status={link.status}>
        <Status value={link.status} />
      </span>,
    ],
    [t.acc_company, link.providerTenant],
    [t.acc_connected, when(link.createdAt, d.locale)],
  ];
  if (link.status === 'error')
    rows.push([
      t.acc_error,
      <span id="accounting-error">
        {link.statusReason ?? t.acc_error_default} {fillText(t.acc_error_since, { date: when(link.errorAt, d.locale) })}
      </span>,
    ]);
  if (link.disconnectedAt) rows.push([t.acc_disconnected, when(link.disconnectedAt, d.locale)]);
  rows.push([t.acc_default_account, link.defaultGlAccount ?? t.acc_not_set_yet], [t.acc_workflow, <span class="mono">{d.deps.workflows.accountingSync.workflowId(link.id)}</span>]);
  return rows;
}

export function AccountingPanelBody({ d, view, state, authorizeUrl }: { d: Dashboard; view: AccountingView; state?: FormState; authorizeUrl?: string }) {
  const { progress: p, failed } = view;
  const link = p?.link ?? null;
  const manage = d.can('manage_accounting');
  const current = link !== null && link.status !== 'disconnected';
  const t = d.t;
  return (
    <>
      {authorizeUrl ? (
        <div class="notice" role="status" id="accounting-authorize-notice">
          {t.acc_authorize}{' '}
          <a href={authorizeUrl} id="accounting-authorize" rel="noreferrer">
            {fillText(t.acc_authorize_link, { provider: providerInfo(field(d.form, 'provider'))?.name ?? t.acc_the_provider })}
          </a>
          . {t.acc_authorize_after}
        </div>
      ) : null}
      {link ? <Props rows={linkRows(d, link)} /> : <p id="accounting-status">{fillText(t.acc_none, { mode: d.tenant.mode === 'live' ? t.mode_live : t.mode_test })}</p>}
      {p && current ? <SyncProgressView p={p} d={d} /> : null}
      {link?.status === 'error' ? <p class="form-error">{t.acc_in_error}</p> : null}
      {failed.length > 0 ? (
        <Table<SyncRecordView>
          caption={t.acc_refused_caption}
          rows={failed}
          empty=""
          columns={[
            { label: t.acc_what, cell: (r) => r.posting.kind.replace(/_/g, ' ') },
            {
              label: t.acc_invoice,
              cell: (r) =>
                r.posting.invoiceId ? (
                  <a href={`/dashboard/invoices/${r.posting.invoiceId}`} class="mono">
                    {r.posting.invoiceId}
                  </a>
                ) : (
                  '—'
                ),
            },
            { label: t.acc_message, cell: (r) => r.providerMessage ?? '—' },
            { label: t.dl_last_attempt, nowrap: true, cell: (r) => when(r.lastAttemptAt, d.locale) },
            {
              label: t.c_actions,
              cell: (r) =>
                manage && link?.status === 'active' ? (
                  <ActionButton action={`/dashboard/settings/accounting/records/${r.id}/resync`} csrf={d.csrf} label={t.acc_resync} id={`resync-${r.id}`} />
                ) : null,
            },
          ]}
        />
      ) : null}
      {manage ? (
        <>
          {current ? (
            <div class="actions">
              <ActionButton
                action="/dashboard/settings/accounting/disconnect"
                csrf={d.csrf}
                label={t.acc_disconnect}
                id="accounting-disconnect"
                danger
                confirm={t.acc_disconnect_confirm}
                busy={t.acc_disconnecting}
              />
            </div>
          ) : null}
          {link?.status !== 'active' ? <ConnectForms d={d} state={state} reconnect={link !== null} /> : <FormErrors state={state} />}
        </>
      ) : (
        <p class="muted">{t.acc_roles_note}</p>
      )}
    </>
  );
}

/** Accounting routes under /dashboard/settings/accounting (registered by settingsPages). */
export function accountingSettingsRoutes(
  router: DashboardRouter,
  deps: AppDeps,
  session: Middleware,
  post: SettingsPost,
  rerender: (ctx: AppContext, d: Dashboard, extra: { authorizeUrl: string }) => Promise<void>,
): void {
  router.get('/settings/accounting/progress', session, async (ctx) => {
    const d = dash(ctx);
    const p = await accountingSyncProgress(d.db);
    ctx.type = 'application/json';
    ctx.body = p ? progressJson(p, d.t, d.locale) : { status: null };
  });

  // OAuth: the state is created here; the user then follows the provider's URL (a link, not a
  // redirect: the page's CSP lets forms post only to the dashboard itself).
  post('/settings/accounting/connect', 'accounting', ['provider', 'mode'], (d) => ({
    permission: 'manage_accounting',
    action: 'accounting_link.connect',
    objectType: 'accounting_link',
    run: async (tx) => connectAccountingLink(tx, d.tenant, deps.config, { provider: field(d.form, 'provider'), mode: d.tenant.mode, now: new Date() }),
    detail: () => ({ provider: field(d.form, 'provider') }),
    success: async (ctx, r) => {
      if (r.redirect_url) await rerender(ctx, d, { authorizeUrl: r.redirect_url });
      else ctx.redirect('/dashboard/settings#accounting');
    },
  }));

  post('/settings/accounting/complete', 'accounting', ['provider', 'credentials.api_token', 'credentials.company_id'], (d) => ({
    permission: 'manage_accounting',
    action: 'accounting_link.complete',
    objectType: 'accounting_link',
    // The credentials are checked with the provider: no transaction open meanwhile.
    stepwise: true,
    run: async (_tx, _after, scope) => {
      const credentials = { api_token: field(d.form, 'credentials.api_token'), company_id: field(d.form, 'credentials.company_id') };
      return completeAccountingLink(deps, scope, { provider: field(d.form, 'provider'), credentials, now: new Date() });
    },
    resultId: (link) => link.id,
    detail: (link) => ({ provider: link.provider }),
    notice: 'accounting_connected',
  }));

  post('/settings/accounting/disconnect', 'accounting', [], () => ({
    permission: 'manage_accounting',
    action: 'accounting_link.disconnect',
    objectType: 'accounting_link',
    run: async (_tx, _after, scope) => disconnectAccountingLink(deps, scope, new Date()),
    resultId: (id) => id,
    notice: 'accounting_disconnected',
  }));

  post('/settings/accounting/records/:id/resync', 'accounting', [], (d, ctx) => {
    const id = pathId(ctx.params.id);
    return {
      permission: 'manage_accounting',
      action: 'accounting_sync_record.resync',
      objectType: 'accounting_sync_record',
      objectId: id,
      run: async (_tx, _after, scope) => resyncAccountingRecord(deps, scope, id),
      notice: 'accounting_resynced',
    };
  });
}
