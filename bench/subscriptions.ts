// Benchmark: subscription billing throughput on one test clock (issue 6).
//
// In one run, on a database of its own (dropped at the end) and a Temporal dev server of its
// own (in memory), with the billing worker in this process:
//  1. setup: BENCH_SUBSCRIPTIONS (default 1,000) customers, each with a saved test card, attached
//     to one test clock, each with a monthly subscription (created through the domain code the
//     API uses, workflow started like the API does); waits until every first invoice is paid;
//  2. measured: advance the clock one period and time until all N renewal invoices are invoiced
//     AND charged (paid) and the clock is `ready` again → subscriptions/s;
//  3. baseline: start and complete N trivial workflows (one activity-free function) on the same
//     server, same client concurrency → workflows/s;
//  then prints both rates and the ratio. Bounded by BENCH_DEADLINE_MS (default 20 min).
// Run: `node dist/bench/subscriptions.js` after a build.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createDb, type Db } from '../src/db/client';
import { loadConfig } from '../src/config';
import { scopedDb, type Tenant } from '../src/db/tenancy';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { createCustomer } from '../src/domain/customers/create-customer';
import { attachTestCard } from '../src/domain/payment-methods/attach-test-card';
import { createProduct } from '../src/domain/products/manage-products';
import { createPrice } from '../src/domain/prices/create-price';
import { advanceTestClock, attachCustomerToTestClock, createTestClock } from '../src/domain/test-clocks/manage-test-clocks';
import { createSubscription } from '../src/domain/subscriptions/create-subscription';
import { createWorkflowClients } from '../src/temporal/workflow-clients';
import { createTemporalProvider } from '../src/temporal/client';
import { ensureTemporalCli, startDevServer } from '../src/temporal/dev-server';
import { ensureSearchAttributes } from '../src/temporal/provision';
import { createBillingWorker } from '../src/worker';
import { benchDatabase, fmt } from './support';

const N = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 25);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 20 * 60_000);
const T0 = new Date('2025-01-01T00:00:00.000Z');
const T1 = new Date('2025-02-01T00:00:00.000Z');

async function pool<T>(count: number, concurrency: number, job: (i: number) => Promise<T>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        await job(i);
      }
    }),
  );
}

async function waitFor(what: string, probe: () => Promise<boolean>, deadline: number): Promise<void> {
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`benchmark deadline passed while waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function seconds(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export async function main(): Promise<{ subscriptionsPerSecond: number; workflowsPerSecond: number; ratio: number }> {
  const deadline = Date.now() + DEADLINE_MS;
  const database = await benchDatabase();
  const cli = await ensureTemporalCli((l) => console.log(l));
  const dev = await startDevServer({ cli, port: 0, log: (l) => console.log(`  ${l}`) });
  const db: Db = createDb(database.url, { poolSize: 40 });
  const taskQueue = `bench-subscriptions-${randomBytes(3).toString('hex')}`;
  const config = { ...loadConfig({}), databaseUrl: database.url, temporalAddress: dev.address, taskQueue };
  const temporal = createTemporalProvider({ address: dev.address, namespace: config.temporalNamespace, taskQueue });
  let worker: Awaited<ReturnType<typeof createBillingWorker>> | undefined;
  let trivialWorker: Worker | undefined;
  let trivialRun: Promise<void> | undefined;
  try {
    const client = await temporal.client();
    await ensureSearchAttributes(client.connection, config.temporalNamespace);
    worker = await createBillingWorker({ db, config, log: () => undefined, address: dev.address, namespace: config.temporalNamespace, taskQueue, maxConcurrentActivities: 200 });
    const running = worker.run();
    void running;
    const workflows = createWorkflowClients({ client: async () => client, taskQueue });

    // 1. setup
    const merchant = (await createMerchant(db, { name: 'bench', currency: 'ISK' })).merchant;
    const tenant: Tenant = { merchantId: merchant.id, mode: 'test' };
    const scoped = scopedDb(db, tenant);
    const clock = await createTestClock(scoped, tenant, { frozenTime: T0, name: 'bench' });
    const product = await createProduct(scoped, tenant, { name: 'Plan' });
    const price = await createPrice(scoped, tenant, { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: 1990, recurring: { interval: 'month' } });
    console.log(`  setup: ${fmt(N)} customers with cards and subscriptions on one clock`);
    const setupStarted = process.hrtime.bigint();
    await pool(N, CONCURRENCY, async (i) => {
      const customer = await createCustomer(scoped, tenant, { email: `bench${i}@example.is` });
      await attachTestCard({ db: scoped, rootDb: db }, tenant, { customerId: customer.id, cardNumber: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 5, cvc: '123' });
      // Every creation locks the one clock row (a subscription starts at the clock's time, which
      // an advance must not move meanwhile), so these transactions queue behind each other:
      // setup is not measured, so give them the API's 30 s rather than Prisma's default 5 s.
      const created = await scoped.$transaction(
        async (tx) => {
          await attachCustomerToTestClock(tx, tenant, { testClockId: clock.id, customerId: customer.id });
          return createSubscription(tx, tenant, { customer: customer.id, items: [{ price: price.id }] }, new Date());
        },
        { timeout: 30_000, maxWait: 30_000 },
      );
      await workflows.subscription.start({
        subscriptionId: created.subscription.id,
        merchantId: tenant.merchantId,
        mode: 'test',
        customerId: customer.id,
        status: created.subscription.status,
        clockTime: T0.toISOString(),
      });
    });
    await waitFor('first invoices paid', async () => (await db.invoice.count({ where: { merchantId: merchant.id, status: 'paid' } })) >= N, deadline);
    console.log(`  setup done in ${fmt(seconds(setupStarted), 1)} s`);

    // 2. measured: one period on the clock
    const started = process.hrtime.bigint();
    await scoped.$transaction((tx) => advanceTestClock(tx, tenant, clock.id, T1));
    await workflows.testClock.signalAdvance({ testClockId: clock.id, merchantId: merchant.id });
    await waitFor(
      'renewals invoiced and charged',
      async () => (await db.invoice.count({ where: { merchantId: merchant.id, billingReason: 'subscription_cycle', status: 'paid' } })) >= N,
      deadline,
    );
    const invoicedSeconds = seconds(started);
    await waitFor('clock ready', async () => (await db.testClock.findUniqueOrThrow({ where: { id: clock.id } })).status === 'ready', deadline);
    const readySeconds = seconds(started);
    const subscriptionsPerSecond = N / invoicedSeconds;
    console.log(`  subscriptions: ${fmt(N)} renewals invoiced and charged in ${fmt(invoicedSeconds, 2)} s → ${fmt(subscriptionsPerSecond, 1)} /s (clock ready after ${fmt(readySeconds, 2)} s)`);

    // 3. baseline: N trivial workflows on the same server
    const baselineQueue = `${taskQueue}-trivial`;
    const bundle = await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'trivial-workflow.js'), logger: { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) } });
    trivialWorker = await Worker.create({ connection: worker.connection, namespace: config.temporalNamespace, taskQueue: baselineQueue, workflowBundle: bundle });
    trivialRun = trivialWorker.run();
    const baseStarted = process.hrtime.bigint();
    await pool(N, CONCURRENCY, async (i) => {
      await client.workflow.execute('trivialWorkflow', { taskQueue: baselineQueue, workflowId: `trivial-${taskQueue}-${i}`, args: [i] });
    });
    const baseSeconds = seconds(baseStarted);
    const workflowsPerSecond = N / baseSeconds;
    console.log(`  baseline: ${fmt(N)} trivial workflows started and completed in ${fmt(baseSeconds, 2)} s → ${fmt(workflowsPerSecond, 1)} /s`);
    const ratio = subscriptionsPerSecond / workflowsPerSecond;
    console.log(`  ratio (subscription renewals / trivial workflows): ${fmt(ratio, 3)}`);
    return { subscriptionsPerSecond, workflowsPerSecond, ratio };
  } finally {
    if (trivialWorker && trivialWorker.getState() === 'RUNNING') trivialWorker.shutdown();
    await trivialRun?.catch(() => undefined);
    await worker?.shutdown().catch(() => undefined);
    await temporal.close();
    await db.$disconnect();
    await dev.stop();
    await database.drop();
  }
}

if (require.main === module) {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
