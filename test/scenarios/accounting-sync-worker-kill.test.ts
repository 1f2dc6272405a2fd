// Exactly once in the accounting software under crashes: the sync's worker process is SIGKILLed
// in the middle of pushing 300 ledger records to the sandbox provider (rate-limited so the kill
// lands mid-batch, some pushes in flight), a new worker takes over, and every record is in the
// provider exactly once, under its posting id, and every sync record says synced.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import { appOnOwnQueue, callerAt, killableWorkers } from './support/killable-workers';
import { scopedDb } from '../../src/db/tenancy';
import { postLedger } from '../../src/domain/ledger/post-ledger';
import { eventually } from '../api/subscriptions/fixtures';

const RECORDS = 300;

describe('scenario: accounting sync worker killed mid-sync', function () {
  this.timeout(600_000);
  let env: TestEnv;
  const workers = killableWorkers();
  before(async () => {
    env = await testEnv();
  });
  after(() => {
    workers.killAll();
    env?.sandboxes.form.setRateLimit(10_000);
  });

  const startWorker = (taskQueue: string) =>
    workers.start(env, taskQueue, {
      ACCOUNTING_ENCRYPTION_KEY: env.config.accountingEncryptionKey,
      ACCOUNTING_SANDBOX_FORM_URL: env.config.accountingSandboxFormUrl,
    });

  it('finds every record in the provider exactly once', async () => {
    const { taskQueue, baseUrl } = await appOnOwnQueue(env, 'accounting-kill', { accountingSyncPollSeconds: 1 });
    const m = await newMerchant(env);
    const api = callerAt(env, baseUrl, m);
    const company = env.sandboxes.form.createCompany('Kill test ehf.');
    let worker = await startWorker(taskQueue);
    const link = await api('POST', '/v1/accounting_link/complete', { provider: 'sandbox_form', credentials: { api_token: company.apiToken, company_id: company.id } });
    assert.equal(link.status, 201, link.text);

    // 300 ledger records, queued for the link as they are posted.
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const db = scopedDb(env.db, tenant);
    const postingIds: string[] = [];
    for (let i = 0; i < RECORDS; i++) {
      const id = await postLedger(db, tenant, {
        kind: 'invoice_paid',
        sourceId: `inv_kill_${i}`,
        currency: 'ISK',
        amount: BigInt(1000 + i),
        method: 'card',
        occurredAt: new Date(),
        movements: [
          { account: 'card_clearing', amount: BigInt(1000 + i) },
          { account: 'accounts_receivable', amount: -BigInt(1000 + i) },
        ],
      });
      postingIds.push(id!);
    }
    assert.equal(await env.db.accountingSyncRecord.count({ where: { linkId: link.body.id } }), RECORDS);

    env.sandboxes.form.setRateLimit(40); // ~40 records/s: the kill lands in the middle
    const settings = await api('POST', '/v1/accounting_link/settings', { default_gl_account: '3000', vat_code_mapping: { standard: 'S24' } });
    assert.equal(settings.status, 200, settings.text);
    const synced = () => env.db.accountingSyncRecord.count({ where: { linkId: link.body.id, status: 'synced' } });
    await eventually(async () => ((await synced()) >= 60 ? true : undefined), '60 records synced', 1200);
    await workers.kill(worker);
    const atKill = await synced();
    assert.ok(atKill < RECORDS, `killed mid-sync (${atKill} synced)`);

    worker = await startWorker(taskQueue);
    await eventually(async () => ((await synced()) === RECORDS ? true : undefined), 'every record synced after the new worker took over', 3000);
    await workers.kill(worker);

    const books = env.sandboxes.form.records().filter((r) => r.tenant === company.id);
    assert.equal(books.length, RECORDS, 'each record once in the provider');
    assert.deepEqual(books.map((b) => b.reference).sort(), [...postingIds].sort());
    const rows = await env.db.accountingSyncRecord.findMany({ where: { linkId: link.body.id } });
    const byPosting = new Map(books.map((b) => [b.reference, b.id]));
    assert.ok(rows.every((r) => r.status === 'synced' && r.providerId === byPosting.get(r.postingId)));
    // Pushed in ledger order: the provider received the references in posting order.
    assert.deepEqual(
      books.map((b) => b.reference),
      [...postingIds],
    );
  });
});
