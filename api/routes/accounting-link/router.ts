// The accounting link (docs/accounting.md). Routes stay thin: validate, one domain call, present.
//   GET    /v1/accounting_link/providers
//   POST   /v1/accounting_link/connect             { redirect_url } (OAuth) or the form fields
//   POST   /v1/accounting_link/complete            201 link (form providers)
//   GET    /v1/accounting_link/callback/{provider} the OAuth return (no API key: `state` binds the merchant)
//   GET    /v1/accounting_link                     the link
//   DELETE /v1/accounting_link                     204; syncing stops at once
//   GET    /v1/accounting_link/chart_of_accounts   the provider's accounts
//   GET    /v1/accounting_link/vat_codes           the provider's VAT codes
//   POST   /v1/accounting_link/settings            default_gl_account, vat_code_mapping (checked against the provider)
//   GET    /v1/accounting_link/sync_records        the sync log (status filter, paging; `link` for a replaced link's records)
//   POST   /v1/accounting_link/sync_records/{id}/resync
import Router from '@koa/router';
import type { AppContext, AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import type { Tenant } from '../../../src/db/tenancy';
import type { RecordedEvent } from '../../../src/events';
import { dispatchEvents } from '../../../src/events';
import { PROVIDERS } from '../../../src/gateways/accounting/providers';
import { connectAccountingLink } from '../../../src/domain/accounting/connect-accounting-link';
import { completeAccountingLink } from '../../../src/domain/accounting/complete-accounting-link';
import { finishOAuthCallback } from '../../../src/domain/accounting/finish-oauth-callback';
import { findAccountingLink } from '../../../src/domain/accounting/find-accounting-link';
import { disconnectAccountingLink } from '../../../src/domain/accounting/disconnect-accounting-link';
import { chartOfAccounts, vatCodes, type CatalogDeps } from '../../../src/domain/accounting/provider-catalog';
import { updateAccountingSettings } from '../../../src/domain/accounting/update-accounting-settings';
import { listSyncRecords, resyncRecord } from '../../../src/domain/accounting/sync-records';
import { nudgeSyncWorkflow, startSyncWorkflow, stopSyncWorkflow } from '../../../src/temporal/accounting-sync-workflow';
import { presentAccountingLink, presentAccountingSettings, presentLedgerAccount, presentProvider, presentSyncRecord, presentVatCode } from '../../../src/objects/accounting-link';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { callbackQuery, completeSchema, connectSchema, listSyncRecordsQuery, settingsSchema } from './schemas';

function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function accountingLinkRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);
  const syncTarget = async () => ({ client: await deps.temporal.client(), taskQueue: deps.temporal.taskQueue });
  const syncInput = (tenant: Tenant, linkId: string) => ({ linkId, merchantId: tenant.merchantId, mode: tenant.mode, pollSeconds: deps.config.accountingSyncPollSeconds });
  const afterCommit = (ctx: AppContext, work: () => Promise<void>) => {
    ctx.state.afterCommit.push(async () => {
      try {
        await work();
      } catch (err) {
        deps.log(`accounting link: ${(err as Error).message}`); // the next nudge or settings call starts it again
      }
    });
  };
  const startSync = (ctx: AppContext, tenant: Tenant, linkId: string, replaced: string | null) =>
    afterCommit(ctx, async () => {
      const target = await syncTarget();
      if (replaced) await stopSyncWorkflow(target, replaced);
      await startSyncWorkflow(target, syncInput(tenant, linkId));
    });
  const catalogDeps = (ctx: AppContext): CatalogDeps => ({
    db: dbOf(ctx),
    rootDb: deps.db,
    config: deps.config,
    onEvents: (events: RecordedEvent[]) => void dispatchEvents(deps, events).catch(() => undefined),
  });

  router.get('/v1/accounting_link/providers', auth(), async (ctx) => {
    ctx.body = { data: PROVIDERS.filter((p) => p.environment === tenantOf(ctx).mode).map(presentProvider) };
  });

  router.post('/v1/accounting_link/connect', auth(), tx, async (ctx) => {
    const input = parseBody(connectSchema, ctx.state.body);
    ctx.body = await connectAccountingLink(dbOf(ctx), tenantOf(ctx), deps.config, { provider: input.provider, mode: input.mode, now: new Date() });
  });

  router.post('/v1/accounting_link/complete', auth(), tx, async (ctx) => {
    const input = parseBody(completeSchema, ctx.state.body);
    const tenant = tenantOf(ctx);
    const { link, replaced } = await completeAccountingLink(dbOf(ctx), tenant, deps.config, {
      provider: input.provider,
      credentials: input.credentials as Record<string, unknown>,
      now: new Date(),
    });
    startSync(ctx, tenant, link.id, replaced);
    ctx.status = 201;
    ctx.body = presentAccountingLink(link);
  });

  // Reached by the user's browser, redirected by the provider: no API key; `state` binds the merchant.
  router.get('/v1/accounting_link/callback/:provider', async (ctx) => {
    const provider = pathId(ctx.params.provider, 'provider');
    const q = parseQuery(callbackQuery, ctx.query);
    const { tenant, link, replaced } = await finishOAuthCallback({ db: deps.db, config: deps.config }, { provider, code: q.code, state: q.state, error: q.error, now: new Date() });
    try {
      const target = await syncTarget();
      if (replaced) await stopSyncWorkflow(target, replaced);
      await startSyncWorkflow(target, syncInput(tenant, link.id));
    } catch (err) {
      deps.log(`accounting link: sync not started yet: ${(err as Error).message}`);
    }
    if ((ctx.get('Accept') || '').includes('text/html')) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', "default-src 'none'");
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Accounting connected</title></head><body><main><h1>Accounting connected</h1><p>The link <code id="link">${htmlEscape(link.id)}</code> to ${htmlEscape(link.provider)} is <strong id="status">${link.status}</strong>. You can close this window.</p><p><a id="back-to-dashboard" href="/dashboard/settings#accounting">Back to the dashboard (Settings, accounting connection)</a></p></main></body></html>`;
    } else {
      ctx.body = presentAccountingLink(link);
    }
  });

  router.get('/v1/accounting_link', auth(), async (ctx) => {
    ctx.body = presentAccountingLink(await findAccountingLink(dbOf(ctx)));
  });

  router.delete('/v1/accounting_link', auth(), tx, async (ctx) => {
    const stopped = await disconnectAccountingLink(dbOf(ctx), new Date());
    if (stopped) afterCommit(ctx, async () => stopSyncWorkflow(await syncTarget(), stopped));
    ctx.status = 204;
  });

  router.get('/v1/accounting_link/chart_of_accounts', auth(), async (ctx) => {
    ctx.body = { data: (await chartOfAccounts(catalogDeps(ctx))).map(presentLedgerAccount) };
  });

  router.get('/v1/accounting_link/vat_codes', auth(), async (ctx) => {
    ctx.body = { data: (await vatCodes(catalogDeps(ctx))).map(presentVatCode) };
  });

  router.post('/v1/accounting_link/settings', auth(), tx, async (ctx) => {
    const input = parseBody(settingsSchema, ctx.state.body);
    if (input.default_gl_account === undefined && input.vat_code_mapping === undefined) {
      throw errors.validationFailed('Give default_gl_account, vat_code_mapping or both', 'default_gl_account');
    }
    const link = await updateAccountingSettings(catalogDeps(ctx), input as { default_gl_account?: string; vat_code_mapping?: Record<string, unknown> });
    const tenant = tenantOf(ctx);
    afterCommit(ctx, async () => nudgeSyncWorkflow(await syncTarget(), syncInput(tenant, link.id)));
    ctx.body = presentAccountingSettings(link);
  });

  router.get('/v1/accounting_link/sync_records', auth(), async (ctx) => {
    const q = parseQuery(listSyncRecordsQuery, ctx.query);
    const page = await listSyncRecords(dbOf(ctx), { status: q.status as 'pending' | 'synced' | 'failed' | undefined, linkId: q.link }, pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentSyncRecord), has_more: page.hasMore };
  });

  router.post('/v1/accounting_link/sync_records/:id/resync', auth(), tx, async (ctx) => {
    const record = await resyncRecord(dbOf(ctx), pathId(ctx.params.id));
    const tenant = tenantOf(ctx);
    afterCommit(ctx, async () => nudgeSyncWorkflow(await syncTarget(), syncInput(tenant, record.linkId)));
    ctx.body = presentSyncRecord(record);
  });
}
