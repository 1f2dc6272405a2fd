// The accounting sync never holds a database transaction while it calls the provider (issue 28/29:
// docs/architecture.md "No outside call inside a database transaction"). pushSyncBatch runs on a
// pool of its own, told apart in pg_stat_activity by its application_name; every request to the
// provider (the form sandbox, over HTTP) first counts that pool's transactions waiting for the
// application ("idle in transaction"). The first case plants a provider call inside a transaction
// and checks the watch sees it; the second pushes a batch; the third disconnects the link while a
// push is on its way (with a lock timeout: a push holding the link row would make it fail).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { testEnv, type TestEnv } from '../../support/env';
import { newMerchant } from '../../support/api';
import { closeProbe, createDb, type Db } from '../../../src/db/client';
import { scopedDb, type Tenant } from '../../../src/db/tenancy';
import { createAccountingLink } from '../../../src/domain/accounting/create-accounting-link';
import { pushSyncBatch } from '../../../src/domain/accounting/push-sync-records';
import { postLedger } from '../../../src/domain/ledger/post-ledger';

const APP_NAME = `accounting-push-${randomBytes(3).toString('hex')}`;

describe('the accounting sync holds no transaction across a provider call', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let pushDb: Db;
  const realFetch = globalThis.fetch;
  const seen: Array<{ path: string; open: number }> = [];
  let onProviderCall: (() => Promise<void>) | null = null;

  const openTransactions = async (): Promise<number> => {
    const rows = await env.db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${APP_NAME} AND state LIKE 'idle in transaction%'`;
    return rows[0]!.n;
  };

  before(async () => {
    env = await testEnv();
    pushDb = createDb(env.config.databaseUrl!, { poolSize: 4, applicationName: APP_NAME });
    globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      if (url.origin === new URL(env.sandboxes.form.url).origin && url.pathname.startsWith('/api/')) {
        seen.push({ path: url.pathname, open: await openTransactions() });
        const hook = onProviderCall;
        onProviderCall = null;
        if (hook) await hook();
      }
      return realFetch(input, init);
    };
  });
  after(async () => {
    globalThis.fetch = realFetch;
    await closeProbe(pushDb);
    await pushDb.$disconnect();
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
});
