// The accounting sync never holds a database transaction while it calls the provider (issue 28/29:
// docs/architecture.md "No outside call inside a database transaction"). pushSyncBatch runs on a
// pool of its own, told apart in pg_stat_activity by its application_name; every request to the
// provider (the form sandbox, over HTTP) first counts that pool's transactions waiting for the
// application ("idle in transaction"). The first case plants a provider call inside a transaction
// and checks the watch sees it; the second pushes a batch; the third disconnects the link while a
// push is on its way (with a lock timeout: a push holding the link row would make it fail).
// The link's routes that ask the provider run on an API instance of this file, on a pool of its
// own (API_NAME), watched the same way: connecting (form credentials checked; the OAuth callback's
// code exchange), the chart of accounts, the VAT codes and the settings; and an OAuth token
// refresh, which keeps one refresher at a time with a lease instead of a row lock held across the
// call (src/domain/accounting/link-credentials.ts): two callers at once refresh once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { testEnv, type TestEnv } from '../../support/env';
import { call, newMerchant } from '../../support/api';
import { closeProbe, createDb, type Db } from '../../../src/db/client';
import { scopedDb, type Tenant } from '../../../src/db/tenancy';
import { createAccountingLink } from '../../../src/domain/accounting/create-accounting-link';
import { pushSyncBatch } from '../../../src/domain/accounting/push-sync-records';
import { postLedger } from '../../../src/domain/ledger/post-ledger';
import { linkCredentials } from '../../../src/domain/accounting/link-credentials';
import { createApp, type BillingApp } from '../../../api/app';
import { listen, type HttpHandle } from '../../../boot/runtime/http';
import { createWorkflowClients } from '../../../src/temporal/workflow-clients';
import { authorizeOAuth } from './fixtures';
import { AREAS } from '../../../api/areas';
import { declarationsOf } from '../../../api/route';
import { ACTIVITY_COVERAGE, ROUTE_COVERAGE, coveredBy, routeOfRequest } from '../../support/outside-calls';

const RUN = randomBytes(3).toString('hex');
const APP_NAME = `accounting-push-${RUN}`;
/** The pool of this file's API instance. */
const API_NAME = `accounting-api-${RUN}`;

describe('the accounting sync holds no transaction across a provider call', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let pushDb: Db;
  let apiDb: Db;
  let app: BillingApp;
  let http: HttpHandle;
  let baseUrl: string;
  const realFetch = globalThis.fetch;
  /** Provider calls: the path (`/oauth/token:refresh_token` for a refresh), and the open transactions of the watched pools. */
  const seen: Array<{ path: string; open: number }> = [];
  let onProviderCall: ((path: string) => Promise<void>) | null = null;
  /** The declared routes requested on this file's API instance (test/support/outside-calls.ts). */
  const requested = new Set<string>();
  const declared = declarationsOf(AREAS);

  const openTransactions = async (): Promise<number> => {
    const rows = await env.db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name IN (${APP_NAME}, ${API_NAME}) AND state LIKE 'idle in transaction%'`;
    return rows[0]!.n;
  };

  before(async () => {
    env = await testEnv();
    pushDb = createDb(env.config.databaseUrl!, { poolSize: 4, applicationName: APP_NAME });
    apiDb = createDb(env.config.databaseUrl!, { poolSize: 4, applicationName: API_NAME });
    app = createApp({ db: apiDb, config: env.config, temporal: env.temporal, workflows: createWorkflowClients(env.temporal), gateways: env.gateways, log: () => undefined });
    http = await listen(app, 0, '127.0.0.1');
    http.server.on('request', (req: { method?: string; url?: string }) => {
      const r = routeOfRequest(declared, req.method ?? 'GET', req.url ?? '/');
      if (r) requested.add(r);
    });
    baseUrl = `http://127.0.0.1:${http.port}`;
    const providers = [new URL(env.sandboxes.form.url).origin, new URL(env.sandboxes.oauth.url).origin];
    globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      // The provider's API, and the OAuth token endpoint (code exchange, refresh) the service calls.
      if (providers.includes(url.origin) && (url.pathname.startsWith('/api/') || url.pathname === '/oauth/token')) {
        const grant = url.pathname === '/oauth/token' ? `:${new URLSearchParams(typeof init?.body === 'string' ? init.body : '').get('grant_type') ?? ''}` : '';
        const path = `${url.pathname}${grant}`;
        seen.push({ path, open: await openTransactions() });
        const hook = onProviderCall;
        onProviderCall = null;
        if (hook) await hook(path);
      }
      return realFetch(input, init);
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await http?.close(1000);
    await app?.shutdown();
    for (const db of [pushDb, apiDb]) {
      if (!db) continue;
      await closeProbe(db);
      await db.$disconnect();
    }
  });
  beforeEach(() => void seen.splice(0));

  /** A merchant with an active form link (default account set) and `n` card payments posted to its ledger. */
  async function linkWithRecords(n: number) {
    const m = await newMerchant(env);
    const tenant: Tenant = { merchantId: m.id, mode: 'test' };
    const db = scopedDb(env.db, tenant);
    const company = env.sandboxes.form.createCompany(`Company of ${m.id}`);
    const { link } = await db.$transaction((tx) =>
      createAccountingLink(tx, tenant, env.config, {
        provider: 'sandbox_form',
        credentials: { kind: 'form', apiToken: company.apiToken, companyId: company.id },
        accessTokenExpiresAt: null,
        providerTenant: company.id,
        now: new Date(),
      }),
    );
    await db.accountingLink.update({ where: { id: link.id }, data: { defaultGlAccount: '3000', vatCodeMapping: { standard: 'S24' } } });
    for (let i = 0; i < n; i++) {
      const amount = BigInt(1000 + i);
      await postLedger(db, tenant, {
        kind: 'invoice_paid',
        sourceId: `push_${m.id}_${i}`,
        currency: 'ISK',
        amount,
        method: 'card',
        occurredAt: new Date(),
        movements: [
          { account: 'card_clearing', amount },
          { account: 'accounts_receivable', amount: -amount },
        ],
      });
    }
    assert.equal(await db.accountingSyncRecord.count({ where: { linkId: link.id, status: 'pending' } }), n);
    const count = () => env.sandboxes.form.records().filter((r) => r.tenant === company.id).length;
    return { tenant, db, link, count, input: { linkId: link.id, merchantId: m.id, mode: 'test' as const, pollSeconds: 1 } };
  }

  it('the watch sees a provider call made inside a transaction of the pool (the check can fail)', async () => {
    await pushDb.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      await fetch(`${env.sandboxes.form.url}/api/planted`).catch(() => undefined);
    });
    assert.equal(seen.length, 1);
    assert.ok(seen[0]!.open >= 1, `the planted call saw ${seen[0]!.open} open transactions`);
  });

  it('pushes a batch with no transaction open during any provider call', async () => {
    const { db, link, count, input } = await linkWithRecords(3);
    const result = await pushSyncBatch({ db: pushDb, config: env.config }, input);
    assert.deepEqual(result, { state: 'idle', pushed: 3, failed: 0 });
    assert.equal(count(), 3);
    assert.equal(await db.accountingSyncRecord.count({ where: { linkId: link.id, status: 'synced' } }), 3);
    const posts = seen.filter((s) => s.path.startsWith('/api/') && s.path !== '/api/planted');
    assert.ok(posts.length >= 3, `saw ${posts.length} provider calls`);
    assert.deepEqual(
      posts.filter((s) => s.open > 0),
      [],
      'a transaction of the sync was open during a provider call',
    );
  });

  it('a disconnect during a push does not wait for the provider; the push is recorded and the batch stops', async () => {
    const { db, link, count, input } = await linkWithRecords(3);
    let disconnected = false;
    onProviderCall = async () => {
      // A push holding the link row would block this UPDATE past the lock timeout.
      await env.db.$transaction(async (tx) => {
        await tx.$executeRaw`SET LOCAL lock_timeout = '2s'`;
        await tx.$executeRaw`UPDATE accounting_links SET status = 'disconnected', current_key = NULL, disconnected_at = now() WHERE id = ${link.id}`;
      });
      disconnected = true;
    };
    const result = await pushSyncBatch({ db: pushDb, config: env.config }, input);
    assert.ok(disconnected, 'the disconnect ran during the first provider call');
    assert.deepEqual(result, { state: 'stopped', pushed: 1, failed: 0 });
    assert.equal(count(), 1, 'only the push already on its way reached the provider');
    const records = await db.accountingSyncRecord.findMany({ where: { linkId: link.id }, orderBy: { seq: 'asc' } });
    assert.deepEqual(
      records.map((r) => r.status),
      ['synced', 'pending', 'pending'],
    );
    assert.deepEqual(await pushSyncBatch({ db: pushDb, config: env.config }, input), { state: 'stopped', pushed: 0, failed: 0 });
    assert.equal(count(), 1);
  });

  it('the link routes that ask the provider hold no transaction during the call: complete, chart, VAT codes, settings, the OAuth callback', async () => {
    const m = await newMerchant(env);
    const api = async (method: string, path: string, body?: unknown, status = 200) => {
      const res = await m.call(method, path, { baseUrl, body, ...(method === 'POST' ? { idempotencyKey: `k-${randomBytes(6).toString('hex')}` } : {}) });
      assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
      return res.body;
    };
    const company = env.sandboxes.form.createCompany(`Company of ${m.id}`);
    await api('POST', '/v1/accounting_link/complete', { provider: 'sandbox_form', credentials: { api_token: company.apiToken, company_id: company.id } }, 201);
    await api('GET', '/v1/accounting_link/chart_of_accounts');
    await api('GET', '/v1/accounting_link/vat_codes');
    const settings = await api('POST', '/v1/accounting_link/settings', { default_gl_account: '3000', vat_code_mapping: { standard: 'S24' } });
    assert.equal(settings.default_gl_account, '3000');
    // A failed record sent again (its sync is nudged after commit).
    const tenant: Tenant = { merchantId: m.id, mode: 'test' };
    await postLedger(scopedDb(env.db, tenant), tenant, {
      kind: 'invoice_paid',
      sourceId: `routes_${m.id}`,
      currency: 'ISK',
      amount: 1000n,
      method: 'card',
      occurredAt: new Date(),
      movements: [
        { account: 'card_clearing', amount: 1000n },
        { account: 'accounts_receivable', amount: -1000n },
      ],
    });
    const record = await env.db.accountingSyncRecord.findFirstOrThrow({ where: { merchantId: m.id } });
    await env.db.accountingSyncRecord.update({ where: { id: record.id }, data: { status: 'failed', providerMessage: 'planted' } });
    assert.equal((await api('POST', `/v1/accounting_link/sync_records/${record.id}/resync`, {})).status, 'pending');
    // Reconnected with OAuth: the callback exchanges the code with the provider.
    const connect = await api('POST', '/v1/accounting_link/connect', { provider: 'sandbox_oauth', mode: 'test' });
    const callback = new URL((await authorizeOAuth(connect.redirect_url)).callback);
    const linked = await call({ baseUrl }, 'GET', `${callback.pathname}${callback.search}`);
    assert.equal(linked.status, 200, linked.text);
    const paths = new Set(seen.map((s) => s.path));
    for (const p of ['/oauth/token:authorization_code']) assert.ok(paths.has(p), `expected a provider call ${p}; seen ${[...paths].join(', ')}`);
    assert.ok(seen.filter((s) => s.path.startsWith('/api/')).length >= 4, JSON.stringify(seen));
    // The record's pushes (invoices, payments, credit notes) are the test environment's own
    // worker at work, concurrently with this file's requests: not the routes' calls.
    assert.deepEqual(
      seen.filter((s) => s.open > 0 && !/^\/api\/(invoices|payments|credit_notes)/.test(s.path)),
      [],
      'a transaction of the API pool was open during a provider call',
    );
    assert.equal((await m.call('DELETE', '/v1/accounting_link', { baseUrl })).status, 204);
  });

  it('an OAuth refresh holds no transaction or row lock across the call, and two callers at once refresh once', async () => {
    const m = await newMerchant(env);
    const connect = await m.call('POST', '/v1/accounting_link/connect', { baseUrl, body: { provider: 'sandbox_oauth', mode: 'test' } });
    assert.equal(connect.status, 200, connect.text);
    const callback = new URL((await authorizeOAuth(connect.body.redirect_url as string)).callback);
    const linked = await call({ baseUrl }, 'GET', `${callback.pathname}${callback.search}`);
    assert.equal(linked.status, 200, linked.text);
    const id = linked.body.id as string;
    await env.db.accountingLink.update({ where: { id }, data: { accessTokenExpiresAt: new Date(Date.now() + 30_000) } });
    const before = await env.db.accountingLink.findUniqueOrThrow({ where: { id } });
    seen.splice(0);
    let lockedDuringCall: boolean | null = null;
    onProviderCall = async (path) => {
      if (path !== '/oauth/token:refresh_token') return;
      // A refresher holding the link row would make this fail at once.
      lockedDuringCall = await env.db
        .$transaction(async (tx) => tx.$queryRaw`SELECT id FROM accounting_links WHERE id = ${id} FOR UPDATE NOWAIT`)
        .then(
          () => false,
          () => true,
        );
      // The other caller meanwhile finds the lease taken and waits for this refresh.
      await new Promise((resolve) => setTimeout(resolve, 300));
    };
    const [a, b] = await Promise.all([linkCredentials({ db: pushDb, config: env.config }, before), linkCredentials({ db: apiDb, config: env.config }, before)]);
    assert.equal(lockedDuringCall, false, 'the link row was locked during the refresh call');
    const refreshes = seen.filter((s) => s.path === '/oauth/token:refresh_token');
    assert.equal(refreshes.length, 1, `refresh calls: ${JSON.stringify(seen)}`);
    assert.deepEqual(
      seen.filter((s) => s.open > 0),
      [],
      'a transaction was open during the refresh call',
    );
    assert.deepEqual(a, b, 'both callers got the same fresh tokens');
    const after = await env.db.accountingLink.findUniqueOrThrow({ where: { id } });
    assert.notEqual(after.credentials, before.credentials);
    assert.ok(after.accessTokenExpiresAt!.getTime() > Date.now() + 600_000);
    assert.equal(after.refreshLeaseUntil, null, 'the lease was released');
    // A third caller with the stale row uses the stored tokens without another refresh.
    assert.deepEqual(await linkCredentials({ db: apiDb, config: env.config }, before), a);
    assert.equal(seen.filter((s) => s.path === '/oauth/token:refresh_token').length, 1);
  });

  it('drove every route and activity the coverage table gives to this file', () => {
    assert.deepEqual(
      coveredBy(ROUTE_COVERAGE, 'accounting').filter((r) => !requested.has(r)),
      [],
      'routes the table (test/support/outside-calls.ts) says this file watches, never requested',
    );
    // The sync's activity is pushSyncBatch, driven above.
    assert.deepEqual(coveredBy(ACTIVITY_COVERAGE, 'accounting'), ['pushAccountingSyncBatch']);
  });
});
