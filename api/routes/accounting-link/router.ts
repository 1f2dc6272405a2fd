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
import { areaOf } from '../../route';
import { object, arrayOf, ref } from '../../../src/objects/json-schema';
import { dbOf, scopeOf, tenantOf } from '../../context';
import { stepwise, transactional } from '../../middleware/transaction';
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

const { route, area } = areaOf((deps) => {
  const tx = transactional(deps);
  // complete and settings ask the provider (credentials, chart, VAT codes): no request
  // transaction around the call; step-wise idempotency instead (docs/idempotency.md).
  const steps = stepwise(deps);
  return { tx, steps };
});

export const accountingLinkRoutes = area('accounting-link', [
  route({
    method: 'get',
    path: '/v1/accounting_link/providers',
    operationId: 'listAccountingProviders',
    tag: 'Accounting',
    summary: 'Accounting providers of this mode',
    auth: 'secret',
    response: object({ data: arrayOf(ref('AccountingProvider')) }),
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = { data: PROVIDERS.filter((p) => p.environment === tenantOf(ctx).mode).map(presentProvider) };
    },
  }),
  route({
    method: 'post',
    path: '/v1/accounting_link/connect',
    operationId: 'connectAccountingLink',
    tag: 'Accounting',
    summary: 'Start connecting an accounting provider',
    auth: 'secret',
    body: connectSchema,
    response: 'AccountingConnect',
    errors: ['adapter_not_configured', 'accounting_provider_error'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(connectSchema, ctx.state.body);
        ctx.body = await connectAccountingLink(dbOf(ctx), tenantOf(ctx), deps.config, { provider: input.provider, mode: input.mode, now: new Date() });
      },
  }),
  route({
    method: 'post',
    path: '/v1/accounting_link/complete',
    operationId: 'completeAccountingLink',
    tag: 'Accounting',
    summary: 'Finish connecting with form credentials',
    auth: 'secret',
    body: completeSchema,
    status: 201,
    response: 'AccountingLink',
    errors: ['adapter_not_configured', 'accounting_provider_error'],
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(completeSchema, ctx.state.body);
        const link = await completeAccountingLink(deps, scopeOf(ctx), { provider: input.provider, credentials: input.credentials as Record<string, unknown>, now: new Date() });
        ctx.status = 201;
        ctx.body = presentAccountingLink(link);
      },
  }),
  // Reached by the user's browser, redirected by the provider: no API key; `state` binds the merchant.
  route({
    method: 'get',
    path: '/v1/accounting_link/callback/:provider',
    operationId: 'completeAccountingLinkOAuth',
    tag: 'Accounting',
    summary: "The provider's OAuth redirect back (a browser; `state` names the merchant)",
    description: 'Answers an HTML page when the browser accepts text/html, the accounting link otherwise.',
    auth: 'none',
    query: callbackQuery,
    response: 'AccountingLink',
    also: [{ status: 200, description: 'A page saying the link is connected', kind: 'html' }],
    errors: ['oauth_state_invalid', 'accounting_provider_error'],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const provider = pathId(ctx.params.provider, 'provider');
        const q = parseQuery(callbackQuery, ctx.query);
        const { link } = await finishOAuthCallback(deps, { provider, code: q.code, state: q.state, error: q.error, now: new Date() });
        if ((ctx.get('Accept') || '').includes('text/html')) {
          ctx.type = 'text/html; charset=utf-8';
          ctx.set('Content-Security-Policy', "default-src 'none'");
          ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Accounting connected</title></head><body><main><h1>Accounting connected</h1><p>The link <code id="link">${htmlEscape(link.id)}</code> to ${htmlEscape(link.provider)} is <strong id="status">${link.status}</strong>. You can close this window.</p><p><a id="back-to-dashboard" href="/dashboard/settings#accounting">Back to the dashboard (Settings, accounting connection)</a></p></main></body></html>`;
        } else {
          ctx.body = presentAccountingLink(link);
        }
      },
  }),
  route({
    method: 'get',
    path: '/v1/accounting_link',
    operationId: 'retrieveAccountingLink',
    tag: 'Accounting',
    summary: 'The current accounting link',
    auth: 'secret',
    response: 'AccountingLink',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      ctx.body = presentAccountingLink(await findAccountingLink(dbOf(ctx)));
    },
  }),
  route({
    method: 'delete',
    path: '/v1/accounting_link',
    operationId: 'disconnectAccountingLink',
    tag: 'Accounting',
    summary: 'Disconnect the accounting link',
    auth: 'secret',
    kind: 'none',
    status: 204,
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        await disconnectAccountingLink(deps, scopeOf(ctx), new Date());
        ctx.status = 204;
      },
  }),
  route({
    method: 'get',
    path: '/v1/accounting_link/chart_of_accounts',
    operationId: 'listAccountingLedgerAccounts',
    tag: 'Accounting',
    summary: "The provider's chart of accounts",
    auth: 'secret',
    response: object({ data: arrayOf(ref('AccountingLedgerAccount')) }),
    errors: ['accounting_provider_error'],
    use: ({ auth }) => [auth()],
    handler:
      ({ deps }) =>
      async (ctx) => {
        ctx.body = { data: (await chartOfAccounts(catalogDeps(deps, dbOf(ctx)))).map(presentLedgerAccount) };
      },
  }),
  route({
    method: 'get',
    path: '/v1/accounting_link/vat_codes',
    operationId: 'listAccountingVatCodes',
    tag: 'Accounting',
    summary: "The provider's VAT codes",
    auth: 'secret',
    response: object({ data: arrayOf(ref('AccountingVatCode')) }),
    errors: ['accounting_provider_error'],
    use: ({ auth }) => [auth()],
    handler:
      ({ deps }) =>
      async (ctx) => {
        ctx.body = { data: (await vatCodes(catalogDeps(deps, dbOf(ctx)))).map(presentVatCode) };
      },
  }),
  route({
    method: 'post',
    path: '/v1/accounting_link/settings',
    operationId: 'updateAccountingSettings',
    tag: 'Accounting',
    summary: 'Update the mapping to the provider',
    auth: 'secret',
    body: settingsSchema,
    response: 'AccountingSettings',
    use: ({ auth, steps }) => [auth(), steps],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const input = parseBody(settingsSchema, ctx.state.body);
        if (input.default_gl_account === undefined && input.vat_code_mapping === undefined) {
          throw errors.validationFailed('Give default_gl_account, vat_code_mapping or both', 'default_gl_account');
        }
        const link = await updateAccountingSettings(deps, scopeOf(ctx), input as { default_gl_account?: string; vat_code_mapping?: Record<string, unknown> });
        ctx.body = presentAccountingSettings(link);
      },
  }),
  route({
    method: 'get',
    path: '/v1/accounting_link/sync_records',
    operationId: 'listAccountingSyncRecords',
    tag: 'Accounting',
    summary: 'List sync records',
    auth: 'secret',
    query: listSyncRecordsQuery,
    list: 'AccountingSyncRecord',
    use: ({ auth }) => [auth()],
    handler: () => async (ctx) => {
      const q = parseQuery(listSyncRecordsQuery, ctx.query);
      const page = await listSyncRecords(dbOf(ctx), { status: q.status as 'pending' | 'synced' | 'failed' | undefined, linkId: q.link }, pageParams(ctx.query));
      ctx.body = { data: page.data.map(presentSyncRecord), has_more: page.hasMore };
    },
  }),
  route({
    method: 'post',
    path: '/v1/accounting_link/sync_records/:id/resync',
    operationId: 'resyncAccountingSyncRecord',
    tag: 'Accounting',
    summary: 'Sync a record again',
    auth: 'secret',
    response: 'AccountingSyncRecord',
    errors: ['invalid_state'],
    use: ({ auth, tx }) => [auth(), tx],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const record = await resyncAccountingRecord(deps, scopeOf(ctx), pathId(ctx.params.id));
        ctx.body = presentSyncRecord(record);
      },
  }),
]);
