// Benchmark: the accounting sync (issue 13). In one run, on its own database and Temporal dev
// server, against the form sandbox provider on loopback (no injected faults, a rate limit far
// above what is measured):
//  1. the sandbox's own capacity: BENCH_ACCOUNTING_RECORDS payment documents posted straight to
//     it through the adapter, one at a time (the sync pushes one link's records in order, one at
//     a time), then with 8 concurrent posters for reference;
//  2. the sync: the same number of ledger postings (half invoices with revenue and VAT lines,
//     half payments) queued for one link, then pushed by the real workflow and activity with an
//     in-process worker; time from the start of the workflow until the last record is synced;
//  prints records/s of both and the ratio sync / sandbox (sequential).
// Bounded: fixed counts, BENCH_DEADLINE_MS (default 20 min), loopback only.
import { randomBytes } from 'node:crypto';
import { benchDatabase, fmt } from './support';
import { createDb, type Db } from '../src/db/client';
import { loadConfig, type Config } from '../src/config';
import { scopedDb, type Tenant } from '../src/db/tenancy';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { postLedger } from '../src/domain/ledger/post-ledger';
import { createAccountingLink } from '../src/domain/accounting/create-accounting-link';
import { newEncryptionKey } from '../src/crypto/secret-box';
import { accountingSyncWorkflowClient } from '../src/temporal/accounting-sync-workflow';
import { startAccountingSandbox } from '../src/gateways/accounting/sandbox/server';
import { createHttpAccountingAdapter } from '../src/gateways/accounting/http-adapter';
import { providerInfo } from '../src/gateways/accounting/providers';
import type { ProviderCredentials } from '../src/gateways/accounting/adapter';
import { ensureTemporalCli, startDevServer } from '../src/temporal/dev-server';
import { createTemporalProvider } from '../src/temporal/client';
import { ensureSearchAttributes } from '../src/temporal/provision';
import { createBillingWorker } from '../boot/runtime/worker';
import { createModeGateways } from '../src/gateways';

const RECORDS = Number(process.env.BENCH_ACCOUNTING_RECORDS ?? 10_000);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 20 * 60_000);

function seconds(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e9;
}

async function pool(n: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) await job(i);
    }),
  );
}

export async function main(): Promise<{ syncPerSecond: number; sandboxPerSecond: number; ratio: number }> {
  const deadline = Date.now() + DEADLINE_MS;
  const database = await benchDatabase();
  const cli = await ensureTemporalCli((l) => console.log(l));
  const dev = await startDevServer({ cli, port: 0, log: (l) => console.log(`  ${l}`) });
  const sandbox = await startAccountingSandbox({ kind: 'form', rateLimitPerSecond: 1_000_000 });
  const db: Db = createDb(database.url, { poolSize: 20 });
  const taskQueue = `bench-accounting-${randomBytes(3).toString('hex')}`;
  const config: Config = {
    ...loadConfig({}),
    databaseUrl: database.url,
    temporalAddress: dev.address,
    taskQueue,
    accountingEncryptionKey: newEncryptionKey(),
    accountingSandboxFormUrl: sandbox.url,
    accountingSyncPollSeconds: 1,
  };
  const temporal = createTemporalProvider({ address: dev.address, namespace: config.temporalNamespace, taskQueue });
  let worker: Awaited<ReturnType<typeof createBillingWorker>> | undefined;
  let running: Promise<void> | undefined;
  try {
    const client = await temporal.client();
    await ensureSearchAttributes(client.connection, config.temporalNamespace);

    // 1. the sandbox's own capacity
    const adapter = createHttpAccountingAdapter({ info: providerInfo('sandbox_form')!, baseUrl: sandbox.url });
    const baseline = sandbox.createCompany('Baseline ehf.');
    const creds: ProviderCredentials = { kind: 'form', apiToken: baseline.apiToken, companyId: baseline.id };
    const doc = (i: number, tag: string) => ({
      reference: `${tag}-${i}`,
      date: '2026-01-01',
      currency: 'ISK',
      customer: { id: null, name: null, email: null, kennitala: null, address: null },
      invoice_reference: null,
      amount: 1000 + i,
      method: 'card',
    });
    let started = process.hrtime.bigint();
    for (let i = 0; i < RECORDS; i++) await adapter.postPayment(creds, doc(i, 'seq'));
    const sandboxPerSecond = RECORDS / seconds(started);
    console.log(`  sandbox, one at a time:   ${fmt(RECORDS)} records  ${fmt(sandboxPerSecond).padStart(7)} records/s`);
    started = process.hrtime.bigint();
    await pool(RECORDS, 8, async (i) => void (await adapter.postPayment(creds, doc(i, 'par'))));
    const sandboxParallel = RECORDS / seconds(started);
    console.log(`  sandbox, 8 concurrent:    ${fmt(RECORDS)} records  ${fmt(sandboxParallel).padStart(7)} records/s`);

    // 2. the sync
    const merchant = (await createMerchant(db, { name: 'bench', currency: 'ISK' })).merchant;
    const tenant: Tenant = { merchantId: merchant.id, mode: 'test' };
    const scoped = scopedDb(db, tenant);
    const company = sandbox.createCompany('Bench ehf.');
    const { link } = await scoped.$transaction((tx) =>
      createAccountingLink(tx, tenant, config, {
        provider: 'sandbox_form',
        credentials: { kind: 'form', apiToken: company.apiToken, companyId: company.id },
        accessTokenExpiresAt: null,
        providerTenant: company.id,
        now: new Date(),
      }),
    );
    await scoped.accountingLink.update({ where: { id: link.id }, data: { defaultGlAccount: '3000', vatCodeMapping: { standard: 'S24' } } });
    console.log(`  setup: ${fmt(RECORDS)} ledger postings queued for the link`);
    await pool(RECORDS, 8, async (i) => {
      const amount = BigInt(1240 + i);
      const vat = (amount * 24n + 62n) / 124n;
      const movements =
        i % 2 === 0
          ? [
              { account: 'accounts_receivable', amount },
              { account: 'revenue', amount: -(amount - vat), vatRate: 'standard' },
              { account: 'vat_payable:standard', amount: -vat, vatRate: 'standard' },
            ]
          : [
              { account: 'card_clearing', amount },
              { account: 'accounts_receivable', amount: -amount },
            ];
      await postLedger(scoped, tenant, {
        kind: i % 2 === 0 ? 'invoice_finalized' : 'invoice_paid',
        sourceId: `bench_${i}`,
        currency: 'ISK',
        amount,
        method: i % 2 === 0 ? null : 'card',
        occurredAt: new Date(),
        movements,
      });
    });

    worker = await createBillingWorker({
      db,
      config,
      gateways: createModeGateways({ db }),
      log: () => undefined,
      address: dev.address,
      namespace: config.temporalNamespace,
      taskQueue,
    });
    running = worker.run();
    started = process.hrtime.bigint();
    await accountingSyncWorkflowClient({ client: async () => client, taskQueue }).start({ linkId: link.id, merchantId: tenant.merchantId, mode: 'test', pollSeconds: 1 });
    let last = 0;
    for (;;) {
      if (Date.now() > deadline) throw new Error('the accounting benchmark exceeded its deadline');
      const synced = await db.accountingSyncRecord.count({ where: { linkId: link.id, status: 'synced' } });
      if (synced >= last + RECORDS / 10 || synced === RECORDS) {
        console.log(`  sync: ${fmt(synced).padStart(7)} records  ${fmt(synced / seconds(started)).padStart(7)} records/s`);
        last = synced;
      }
      if (synced === RECORDS) break;
      const failed = await db.accountingSyncRecord.count({ where: { linkId: link.id, status: 'failed' } });
      if (failed > 0) throw new Error(`${failed} record(s) failed to sync`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const syncPerSecond = RECORDS / seconds(started);
    const books = sandbox.records().filter((r) => r.tenant === company.id);
    if (books.length !== RECORDS || books.some((b) => b.posts !== 1))
      throw new Error(`the sandbox holds ${books.length} records (${books.filter((b) => b.posts !== 1).length} posted more than once)`);
    const ratio = syncPerSecond / sandboxPerSecond;
    console.log(
      `  sync end to end: ${fmt(syncPerSecond, 1)} records/s; sandbox capacity one at a time ${fmt(sandboxPerSecond, 1)} records/s (8 concurrent: ${fmt(sandboxParallel, 1)}); ratio ${ratio.toFixed(3)}`,
    );
    console.log(`  every record in the sandbox exactly once (${fmt(books.length)})`);
    return { syncPerSecond, sandboxPerSecond, ratio };
  } finally {
    await worker?.shutdown();
    await running?.catch(() => undefined);
    await temporal.close();
    await db.$disconnect();
    await sandbox.close();
    await dev.stop();
    await database.drop();
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
