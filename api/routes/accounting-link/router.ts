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
import escapeHtml from 'escape-html';
import { answerPage, areaOf, secretKey } from '../../route';
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
    description:
      'Lists the accounting providers that a key of this mode can connect (test keys: the OAuth and form sandboxes; live keys: providers that need a configured adapter), with how each connects (`oauth` or `form`). Reads only.',
    response: object({ data: arrayOf(ref('AccountingProvider')) }),
    ...secretKey(),
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
    description:
      "Starts connecting a provider listed by GET /v1/accounting_link/providers; `mode` must equal the key's mode. For an OAuth provider it answers `redirect_url`: send the user there, and the provider's redirect back to GET /v1/accounting_link/callback/{provider} (single-use `state`, valid 10 minutes) creates the link. For a form provider it answers the `credentials_fields` to send to POST /v1/accounting_link/complete. Creates no link by itself. A live provider without a configured adapter answers 503 adapter_not_configured.",
    body: connectSchema,
    response: 'AccountingConnect',
    errors: ['adapter_not_configured', 'accounting_provider_error'],
    ...secretKey('tx'),
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
    description:
      'Connects a form provider with its credentials (`api_token`, `company_id`), which the provider checks first (refused: 400 validation_failed). Answers 201 with the link, `active`: a current link of this mode is disconnected in the same transaction (the new link takes over its settings when the provider is the same), and the sync of ledger postings to the provider starts. An OAuth provider answers 409 invalid_state.',
    body: completeSchema,
    status: 201,
    response: 'AccountingLink',
    errors: ['adapter_not_configured', 'accounting_provider_error'],
    ...secretKey('steps'),
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
    description:
      "Where the provider sends the user's browser back after they allow (or deny) access. No API key: the single-use `state` from POST /v1/accounting_link/connect (valid 10 minutes) names the merchant, mode and provider. The `code` is exchanged with the provider and the link is created, `active` (a current link of this mode is disconnected, and the new link's sync starts). Answers an HTML page when the browser accepts text/html, the link as JSON otherwise. An unknown, used, expired or other provider's state, or a denied authorization, answers 400 oauth_state_invalid and connects nothing.",
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
          ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Accounting connected</title></head><body><main><h1>Accounting connected</h1><p>The link <code id="link">${escapeHtml(link.id)}</code> to ${escapeHtml(link.provider)} is <strong id="status">${link.status}</strong>. You can close this window.</p><p><a id="back-to-dashboard" href="/dashboard/settings#accounting">Back to the dashboard (Settings, accounting connection)</a></p></main></body></html>`;
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
    description:
      "Returns the accounting link of the key's mode: the current one, else the most recent. Its provider, status (`active`; `error` with `status_reason` when the provider refused its credentials; `disconnected`) and settings; never a credential or token. 404 when none was ever connected. Reads only.",
    response: 'AccountingLink',
    ...secretKey(),
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
    description:
      "Disconnects the current accounting link: syncing stops at once (at most a push already under way reaches the provider), and what is already in the accounting software is untouched. The link's sync records stay listable. Repeating it answers 204 again; 404 when the merchant never had a link.",
    kind: 'none',
    status: 204,
    ...secretKey('tx'),
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
    description:
      'Reads the chart of accounts live from the provider of the current link, to choose `default_gl_account`. Needs an active link: none answers 404, a link in error 409 invalid_state; a provider failure answers 502 accounting_provider_error. Changes nothing here (an expiring OAuth token may be refreshed).',
    response: object({ data: arrayOf(ref('AccountingLedgerAccount')) }),
    errors: ['accounting_provider_error'],
    ...secretKey(),
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
    description:
      'Reads the VAT codes live from the provider of the current link, to build `vat_code_mapping`. Needs an active link: none answers 404, a link in error 409 invalid_state; a provider failure answers 502 accounting_provider_error. Changes nothing here (an expiring OAuth token may be refreshed).',
    response: object({ data: arrayOf(ref('AccountingVatCode')) }),
    errors: ['accounting_provider_error'],
    ...secretKey(),
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
    description:
      "Sets `default_gl_account` (an account of the provider's chart) and/or `vat_code_mapping` (keys `standard`, `reduced`, `exempt`; values the provider's VAT codes; replaces the whole mapping), both checked live with the provider, and answers the settings. Needs an active link. After saving, the sync is woken, so records waiting for a mapping go out. Records no webhook event.",
    body: settingsSchema,
    response: 'AccountingSettings',
    ...secretKey('steps'),
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
    description:
      "Lists the sync log, newest first: one record per ledger posting queued for the provider (invoice, credit note, payment, refund, write-off), with its status (`pending`, `synced`, `failed`), attempts and the provider's id or message. `status` filters; `link` lists the records of a replaced or disconnected link (default: the current one; unknown: 404). Reads only.",
    query: listSyncRecordsQuery,
    list: 'AccountingSyncRecord',
    ...secretKey(),
    handler: answerPage((ctx) => {
      const q = parseQuery(listSyncRecordsQuery, ctx.query);
      return listSyncRecords(dbOf(ctx), { status: q.status as 'pending' | 'synced' | 'failed' | undefined, linkId: q.link }, pageParams(ctx.query));
    }, presentSyncRecord),
  }),
  route({
    method: 'post',
    path: '/v1/accounting_link/sync_records/:id/resync',
    operationId: 'resyncAccountingSyncRecord',
    tag: 'Accounting',
    summary: 'Sync a record again',
    description:
      'Puts a failed record of the current link back to `pending` (a pending one stays so) and wakes the sync, which pushes it again in ledger order; the provider deduplicates on the posting id, so it is booked once. A synced record, or one of a disconnected link, answers 409 invalid_state.',
    response: 'AccountingSyncRecord',
    errors: ['invalid_state'],
    ...secretKey('tx'),
    handler:
      ({ deps }) =>
      async (ctx) => {
        const record = await resyncAccountingRecord(deps, scopeOf(ctx), pathId(ctx.params.id));
        ctx.body = presentSyncRecord(record);
      },
  }),
]);
