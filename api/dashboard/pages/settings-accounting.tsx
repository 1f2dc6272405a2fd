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

function lag(since: Date | null, now = new Date()): string {
  if (!since) return 'none';
  const minutes = Math.max(0, Math.round((now.getTime() - since.getTime()) / 60_000));
  return minutes < 1 ? 'under a minute' : minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

/** The numbers the progress poll returns (and the page starts with). */
export function progressJson(p: SyncProgress) {
  return {
    status: p.link.status,
    pending: p.pending,
    synced: p.synced,
    failed: p.failed,
    last_synced_at: p.lastSyncedAt ? when(p.lastSyncedAt) : 'never',
    lag: lag(p.oldestPendingAt),
  };
}

function SyncProgressView({ p }: { p: SyncProgress }) {
  const j = progressJson(p);
  const total = p.pending + p.synced + p.failed;
  const running = p.link.status === 'active' && p.pending > 0;
  return (
    <div class="sync-progress" id="accounting-progress" data-poll="/dashboard/settings/accounting/progress" data-running={running ? '1' : '0'}>
      <label for="accounting-progress-bar">{running ? 'Syncing to the accounting software' : 'Sync'}</label>
      <progress id="accounting-progress-bar" max={Math.max(total, 1)} value={p.synced + p.failed}></progress>
      <p role="status" aria-live="polite">
        <span data-k="synced" id="sync-synced">
          {j.synced}
        </span>{' '}
        sent,{' '}
        <span data-k="pending" id="sync-pending">
          {j.pending}
        </span>{' '}
        waiting,{' '}
        <span data-k="failed" id="sync-failed">
          {j.failed}
        </span>{' '}
        failed. Last record sent: <span data-k="last_synced_at">{j.last_synced_at}</span>. Oldest waiting: <span data-k="lag">{j.lag}</span>.
      </p>
    </div>
  );
}

function ConnectForms({ d, state, reconnect }: { d: Dashboard; state?: FormState; reconnect: boolean }) {
  const providers = PROVIDERS.filter((p) => p.environment === d.tenant.mode);
  const verb = reconnect ? 'Reconnect' : 'Connect';
  return (
    <div class="connect-forms">
      <FormErrors state={state} />
      {providers.map((p) =>
        p.authType === 'oauth' ? (
          <form method="post" action="/dashboard/settings/accounting/connect" class="connect-form" id={`connect-${p.id}`}>
            <Csrf token={d.csrf} />
            <input type="hidden" name="provider" value={p.id} />
            <p>
              <strong>{p.name}</strong>: you allow access on the provider's own page.
            </p>
            <button type="submit" id={`connect-${p.id}-button`} aria-label={`${verb} ${p.name}`}>
              {verb}
            </button>
          </form>
        ) : (
          <form method="post" action="/dashboard/settings/accounting/complete" class="connect-form" id={`connect-${p.id}`} data-busy="Checking the credentials…">
            <Csrf token={d.csrf} />
            <input type="hidden" name="provider" value={p.id} />
            <p>
              <strong>{p.name}</strong>: an API token and the company id from the provider.
            </p>
            <Field name="credentials.api_token" label="API token" type="password" state={state} input={{ autocomplete: 'off', maxLength: 500 }} />
            <Field name="credentials.company_id" label="Company id" state={state} input={{ maxLength: 500 }} />
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
  const rows: Array<[string, ComponentChildren]> = [
    ['Provider', <span id="accounting-provider">{providerInfo(link.provider)?.name ?? link.provider}</span>],
    [
      'Status',
      <span id="accounting-status" data-status={link.status}>
        <Status value={link.status} />
      </span>,
    ],
    ['Company', link.providerTenant],
    ['Connected', when(link.createdAt)],
  ];
  if (link.status === 'error')
    rows.push([
      'Error',
      <span id="accounting-error">
        {link.statusReason ?? 'the provider refused the credentials'} (since {when(link.errorAt)})
      </span>,
    ]);
  if (link.disconnectedAt) rows.push(['Disconnected', when(link.disconnectedAt)]);
  rows.push(['Default account', link.defaultGlAccount ?? 'not set yet'], ['Sync workflow', <span class="mono">{d.deps.workflows.accountingSync.workflowId(link.id)}</span>]);
  return rows;
}

export function AccountingPanelBody({ d, view, state, authorizeUrl }: { d: Dashboard; view: AccountingView; state?: FormState; authorizeUrl?: string }) {
  const { progress: p, failed } = view;
  const link = p?.link ?? null;
  const manage = d.can('manage_accounting');
  const current = link !== null && link.status !== 'disconnected';
  return (
    <>
      {authorizeUrl ? (
        <div class="notice" role="status" id="accounting-authorize-notice">
          Continue on the provider's page to allow access (the link works once, for 10 minutes):{' '}
          <a href={authorizeUrl} id="accounting-authorize" rel="noreferrer">
            allow access at {providerInfo(field(d.form, 'provider'))?.name ?? 'the provider'}
          </a>
          . It then tells you the link is connected; come back here to see it.
        </div>
      ) : null}
      {link ? (
        <Props rows={linkRows(d, link)} />
      ) : (
        <p id="accounting-status">
          No accounting software is connected in {d.tenant.mode} mode. Once connected, everything the ledger posts from then on (invoices, payments, credit notes, refunds) is
          booked there.
        </p>
      )}
      {p && current ? <SyncProgressView p={p} /> : null}
      {link?.status === 'error' ? <p class="form-error">Nothing is sent while the link is in error: reconnect it below (a new link syncs what is posted from then on).</p> : null}
      {failed.length > 0 ? (
        <Table<SyncRecordView>
          caption="Records the provider refused"
          rows={failed}
          empty=""
          columns={[
            { label: 'What', cell: (r) => r.posting.kind.replace(/_/g, ' ') },
            {
              label: 'Invoice',
              cell: (r) =>
                r.posting.invoiceId ? (
                  <a href={`/dashboard/invoices/${r.posting.invoiceId}`} class="mono">
                    {r.posting.invoiceId}
                  </a>
                ) : (
                  '—'
                ),
            },
            { label: 'Message', cell: (r) => r.providerMessage ?? '—' },
            { label: 'Last attempt', nowrap: true, cell: (r) => when(r.lastAttemptAt) },
            {
              label: '',
              cell: (r) =>
                manage && link?.status === 'active' ? (
                  <ActionButton action={`/dashboard/settings/accounting/records/${r.id}/resync`} csrf={d.csrf} label="Re-sync" id={`resync-${r.id}`} />
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
                label="Disconnect"
                id="accounting-disconnect"
                danger
                confirm="Disconnect the accounting software? Nothing more is sent from now on; what is already there stays."
                busy="Disconnecting…"
              />
            </div>
          ) : null}
          {link?.status !== 'active' ? <ConnectForms d={d} state={state} reconnect={link !== null} /> : <FormErrors state={state} />}
        </>
      ) : (
        <p class="muted">Finance and owners connect and disconnect the accounting software.</p>
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
    const p = await accountingSyncProgress(dash(ctx).db);
    ctx.type = 'application/json';
    ctx.body = p ? progressJson(p) : { status: null };
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
