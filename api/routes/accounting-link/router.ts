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
import type { AppDeps, AppState } from '../../context';
import { dbOf, scopeOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { transactional } from '../../middleware/transaction';
import { errors } from '../../../src/errors';
import { PROVIDERS } from '../../../src/gateways/accounting/providers';
import { connectAccountingLink } from '../../../src/domain/accounting/connect-accounting-link';
import { completeAccountingLink } from '../../../src/domain/accounting/complete-accounting-link';
import { finishOAuthCallback } from '../../../src/domain/accounting/finish-oauth-callback';
import { findAccountingLink } from '../../../src/domain/accounting/find-accounting-link';
import { disconnectAccountingLink } from '../../../src/domain/accounting/disconnect-accounting-link';
import { catalogDeps, chartOfAccounts, vatCodes } from '../../../src/domain/accounting/provider-catalog';
import { updateAccountingSettings } from '../../../src/domain/accounting/update-accounting-settings';
import { listSyncRecords } from '../../../src/domain/accounting/sync-records';
import { resyncAccountingRecord } from '../../../src/domain/accounting/resync-accounting-record';
import { presentAccountingLink, presentAccountingSettings, presentLedgerAccount, presentProvider, presentSyncRecord, presentVatCode } from '../../../src/objects/accounting-link';
import { pageParams, parseBody, parseQuery, pathId } from '../../validate';
import { callbackQuery, completeSchema, connectSchema, listSyncRecordsQuery, settingsSchema } from './schemas';

function htmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function accountingLinkRoutes(router: Router<AppState>, deps: AppDeps, auth: Auth): void {
  const tx = transactional(deps);

  router.get('/v1/accounting_link/providers', auth(), async (ctx) => {
    ctx.body = { data: PROVIDERS.filter((p) => p.environment === tenantOf(ctx).mode).map(presentProvider) };
  });

  router.post('/v1/accounting_link/connect', auth(), tx, async (ctx) => {
    const input = parseBody(connectSchema, ctx.state.body);
    ctx.body = await connectAccountingLink(dbOf(ctx), tenantOf(ctx), deps.config, { provider: input.provider, mode: input.mode, now: new Date() });
  });

  router.post('/v1/accounting_link/complete', auth(), tx, async (ctx) => {
    const input = parseBody(completeSchema, ctx.state.body);
    const link = await completeAccountingLink(deps, scopeOf(ctx), { provider: input.provider, credentials: input.credentials as Record<string, unknown>, now: new Date() });
    ctx.status = 201;
    ctx.body = presentAccountingLink(link);
  });

  // Reached by the user's browser, redirected by the provider: no API key; `state` binds the merchant.
  router.get('/v1/accounting_link/callback/:provider', async (ctx) => {
    const provider = pathId(ctx.params.provider, 'provider');
    const q = parseQuery(callbackQuery, ctx.query);
    const { link } = await finishOAuthCallback(deps, { provider, code: q.code, state: q.state, error: q.error, now: new Date() });
    if ((ctx.get('Accept') || '').includes('text/html')) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', "default-src 'none'");
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Accounting connected</title></head><body><main><h1>Accounting connected</h1><p>The link <code id="link">${htmlEscape(link.id)}</code> to ${htmlEscape(link.provider)} is <strong id="status">${link.status}</strong>. You can close this window.</p></main></body></html>`;
    } else {
      ctx.body = presentAccountingLink(link);
    }
  });

  router.get('/v1/accounting_link', auth(), async (ctx) => {
    ctx.body = presentAccountingLink(await findAccountingLink(dbOf(ctx)));
  });

  router.delete('/v1/accounting_link', auth(), tx, async (ctx) => {
    await disconnectAccountingLink(deps, scopeOf(ctx), new Date());
    ctx.status = 204;
  });

  router.get('/v1/accounting_link/chart_of_accounts', auth(), async (ctx) => {
    ctx.body = { data: (await chartOfAccounts(catalogDeps(deps, dbOf(ctx)))).map(presentLedgerAccount) };
  });

  router.get('/v1/accounting_link/vat_codes', auth(), async (ctx) => {
    ctx.body = { data: (await vatCodes(catalogDeps(deps, dbOf(ctx)))).map(presentVatCode) };
  });

  router.post('/v1/accounting_link/settings', auth(), tx, async (ctx) => {
    const input = parseBody(settingsSchema, ctx.state.body);
    if (input.default_gl_account === undefined && input.vat_code_mapping === undefined) {
      throw errors.validationFailed('Give default_gl_account, vat_code_mapping or both', 'default_gl_account');
    }
    const link = await updateAccountingSettings(deps, scopeOf(ctx), input as { default_gl_account?: string; vat_code_mapping?: Record<string, unknown> });
    ctx.body = presentAccountingSettings(link);
  });

  router.get('/v1/accounting_link/sync_records', auth(), async (ctx) => {
    const q = parseQuery(listSyncRecordsQuery, ctx.query);
    const page = await listSyncRecords(dbOf(ctx), { status: q.status as 'pending' | 'synced' | 'failed' | undefined, linkId: q.link }, pageParams(ctx.query));
    ctx.body = { data: page.data.map(presentSyncRecord), has_more: page.hasMore };
  });

  router.post('/v1/accounting_link/sync_records/:id/resync', auth(), tx, async (ctx) => {
    const record = await resyncAccountingRecord(deps, scopeOf(ctx), pathId(ctx.params.id));
    ctx.body = presentSyncRecord(record);
  });
}
