// Benchmark: subscription billing throughput on one test clock (issues 6 and 15).
//
// In one run, on a database of its own (dropped at the end) and a Temporal dev server of its
// own (in memory), with the billing worker in child processes of its own
// (bench/servers/billing-worker.ts: they count their SQL statements, memory, CPU and warnings):
//  1. setup: BENCH_SUBSCRIPTIONS (default 1,000) customers, each with a saved test card, attached
//     to one test clock, each with a monthly subscription (created through the domain code the
//     API uses, workflow started like the API does); waits until every first invoice is paid;
//  2. measured, once per entry of BENCH_WORKERS (default "1"; "1,2" measures one period with one
//     worker process, then the next period with two): advance the clock one period and time until
//     all N renewal invoices are invoiced AND charged (paid) → renewals/s; reports per renewal
//     the statements the workers sent, the subscription workflows' history events (a sample),
//     the workers' peak memory and CPU, and where the machine's CPU went;
//  3. baseline: start and complete N trivial workflows (one activity-free function) on the same
//     server, same client concurrency → workflows/s; then the ratio of each phase. It runs twice:
//     after the setup, before the renewals, and after them; the ratio is against the one after
//     (as before session 7), and the one before is printed beside it, to show the baseline's spread.
// BENCH_KILL=1: SIGKILLs the worker in the middle of the first renewal phase and starts another,
// then checks that every subscription has exactly one renewal invoice, paid, with exactly one
// successful charge at the acquirer (use a small N). Bounded by BENCH_DEADLINE_MS (default 20 min).
// Also reported per renewal: the Temporal server's mutable-state and events cache lookups and
// misses (its Prometheus endpoint) and the worker's workflow-cache hits, misses and evictions.
// BENCH_DAY_ADVANCES=K (issue 28): before the renewals, K one-day advances of the clock (nothing is
// due: the subscriptions renew monthly), each timed until the clock is ready, with the sample's
// history events per advance: what a test-clock advance costs as the clock's population grows (a
// subscription with nothing due by the new time need not be woken). BENCH_DAY_ADVANCES_ONLY=1
// stops after them.
// BENCH_TEMPORAL_CONFIG: the dev server's dynamic config (see DEFAULT_TEMPORAL_CONFIG below).
// The workers take the service's own worker settings from the environment (WORKER_CACHED_WORKFLOWS,
// WORKER_STICKY_TIMEOUT_SECONDS, WORKER_SHARDS, DB_PREPARED_STATEMENTS; BENCH_CACHED_WORKFLOWS overrides the first), and the setup runs on
// the first phase's worker processes, so each holds its share of the workflows when it starts.
// BENCH_METERED=1 (issue 32): each subscription also has a metered price item (a `sum` meter) and its
// customer BENCH_METERED_EVENTS (default 10) usage events in the first period, recorded through the
// ingest path the API uses, so the statements per renewal are those of a metered renewal.
// Run: `npm run bench -- subscriptions` (or `node dist/bench/subscriptions.js` after a build).
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { createDb, prismaSql, type Db } from '../src/db/client';
import { loadConfig } from '../src/config';
import { scopedDb, type Tenant } from '../src/db/tenancy';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { createCustomer } from '../src/domain/customers/create-customer';
import { attachTestCard } from '../src/domain/payment-methods/attach-test-card';
import { createProduct } from '../src/domain/products/manage-products';
import { createPrice } from '../src/domain/prices/create-price';
import { advanceTestClock, attachCustomerToTestClock, createTestClock } from '../src/domain/test-clocks/manage-test-clocks';
import { createSubscription } from '../src/domain/subscriptions/create-subscription';
import { createMeter } from '../src/domain/meters/manage-meters';
import { ingestUsageEvents } from '../src/domain/usage-events/ingest-usage-events';
import { createWorkflowClients } from '../src/temporal/workflow-clients';
import { createTemporalProvider } from '../src/temporal/client';
import { ensureTemporalCli, startDevServer } from '../src/temporal/dev-server';
import { ensureSearchAttributes } from '../src/temporal/provision';
import { workflowIds } from '../src/temporal/workflow-ids';
import { benchDatabase, fmt, paced, scrapePrometheus } from './support';
import { createModeGateways } from '../src/gateways';
import { shardSettings } from '../boot/runtime/worker';
import type { WorkerReport } from './servers/billing-worker';

const N = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 25);
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 20 * 60_000);
const PHASES = (process.env.BENCH_WORKERS ?? '1').split(',').map((w) => {
  const n = Number(w.trim());
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`BENCH_WORKERS must list worker counts from 1 to 8, got ${w}`);
  return n;
});
const KILL = process.env.BENCH_KILL === '1';
const METERED = process.env.BENCH_METERED === '1';
const METERED_EVENTS = Number(process.env.BENCH_METERED_EVENTS ?? 10);
const DAY_ADVANCES = Number(process.env.BENCH_DAY_ADVANCES ?? 0);
const DAY_ADVANCES_ONLY = process.env.BENCH_DAY_ADVANCES_ONLY === '1';
// The benchmark's dev server keeps the Temporal server's own default for the host-level
// mutable-state cache (128,000 workflows): the CLI's dev server lowers it to 8,096 to spare a
// laptop's memory, which a run of 10,000 subscriptions would exceed, so every renewal would
// reload its workflow's state from the database (docs/benchmarks.md, session 6).
// BENCH_TEMPORAL_CONFIG="key=value,…" replaces this dynamic config (values are JSON; empty: none).
const DEFAULT_TEMPORAL_CONFIG = 'history.hostLevelCacheMaxSize=128000';
const TEMPORAL_CONFIG: Record<string, string | number | boolean> = Object.fromEntries(
  (process.env.BENCH_TEMPORAL_CONFIG ?? DEFAULT_TEMPORAL_CONFIG)
    .split(',')
    .map((kv) => kv.trim())
    .filter(Boolean)
    .map((kv) => {
      const at = kv.indexOf('=');
      if (at < 1) throw new Error(`BENCH_TEMPORAL_CONFIG entries are key=value, got ${kv}`);
      const raw = kv.slice(at + 1);
      let value: string | number | boolean;
      try {
        value = JSON.parse(raw) as string | number | boolean;
      } catch {
        value = raw;
      }
      return [kv.slice(0, at), value];
    }),
);
const HISTORY_SAMPLE = Math.min(N, Number(process.env.BENCH_HISTORY_SAMPLE ?? 20));
const T0 = new Date('2025-01-01T00:00:00.000Z');
const monthAfter = (k: number) => new Date(Date.UTC(2025, k, 1));

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

/** Polls `probe` every 100 ms until it holds; a wait over 30 s prints `progress()` every 30 s. */
async function waitFor(what: string, probe: () => Promise<boolean>, deadline: number, progress?: () => Promise<string>): Promise<void> {
  const started = Date.now();
  let nextReport = started + 30_000;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`benchmark deadline passed while waiting for ${what}`);
    if (progress && Date.now() >= nextReport) {
      nextReport += 30_000;
      console.log(`    … ${Math.round((Date.now() - started) / 1000)} s: ${await progress()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function seconds(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

// ---- the worker processes ----

interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  ask<T>(type: 'reset' | 'report'): Promise<T>;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  // BENCH_CPU_PROF=<dir>: each worker writes a V8 CPU profile there when it exits.
  const execArgv = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = fork(path.join(__dirname, 'servers', 'billing-worker.js'), [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const ask = <T>(type: 'reset' | 'report') =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (m: { type: string; report?: T }) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve((m.report ?? undefined) as T);
      };
      child.on('message', onMessage);
      if (!child.send({ type })) reject(new Error('worker process is gone'));
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    const early = () => reject(new Error('bench worker exited before it was ready'));
    child.once('exit', early);
    child.once('message', (m: { type: string; pid: number }) => {
      child.off('exit', early);
      resolve({
        child,
        pid: m.pid,
        ask,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 40_000).unref();
          }
          await exited;
        },
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}

// ---- where the CPU went (Linux /proc) ----

const TICK = 100; // USER_HZ

function procTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime
  } catch {
    return 0;
  }
}

function pidsWhere(match: (comm: string, cmdline: string) => boolean): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const comm = readFileSync(`/proc/${d}/comm`, 'utf8').trim();
      const cmdline = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (match(comm, cmdline)) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}

function machineTicks(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total };
}

interface CpuSnapshot {
  machine: { busy: number; total: number };
  server: number;
  /** Per PostgreSQL process: a backend that exits during a phase (its client's pool closed) takes its ticks with it. */
  postgres: Map<number, number>;
  bench: number;
}

/** CPU ticks of the PostgreSQL processes between two snapshots: those alive at the end (the ones that exited are not counted; never negative). */
function postgresTicks(before: CpuSnapshot, after: CpuSnapshot): number {
  let sum = 0;
  for (const [pid, t] of after.postgres) sum += Math.max(0, t - (before.postgres.get(pid) ?? 0));
  return sum;
}

function cpuSnapshot(serverPid: number | undefined): CpuSnapshot {
  const postgres = new Map(pidsWhere((comm) => comm === 'postgres').map((p) => [p, procTicks(p)] as const));
  return { machine: machineTicks(), server: serverPid ? procTicks(serverPid) : 0, postgres, bench: procTicks(process.pid) };
}

// ---- history events of the subscription workflows ----

interface HistoryMark {
  workflowId: string;
  runId: string;
  length: number;
}

async function historyMarks(client: Client, subscriptionIds: string[]): Promise<HistoryMark[]> {
  return Promise.all(
    subscriptionIds.map(async (id) => {
      const workflowId = workflowIds.subscription(id);
      const d = await client.workflow.getHandle(workflowId).describe();
      return { workflowId, runId: d.runId, length: d.historyLength };
    }),
  );
}

interface HistoryCount {
  events: number;
  workflowTasks: number;
  /** Workflow tasks that timed out (e.g. waited on a worker's sticky queue past its schedule-to-start timeout). */
  taskTimeouts: number;
  activities: number;
  markers: number;
  runs: number;
}

/** Events added to the workflow's history since `mark`, across continue-as-new runs. */
async function historySince(client: Client, mark: HistoryMark): Promise<HistoryCount> {
  const E = proto.api.enums.v1.EventType;
  const out: HistoryCount = { events: 0, workflowTasks: 0, taskTimeouts: 0, activities: 0, markers: 0, runs: 0 };
  let runId: string | undefined = (await client.workflow.getHandle(mark.workflowId).describe()).runId;
  for (let guard = 0; runId && guard < 100; guard++) {
    const history = await client.workflow.getHandle(mark.workflowId, runId).fetchHistory();
    const events = (history.events ?? []).slice(runId === mark.runId ? mark.length : 0);
    out.events += events.length;
    for (const e of events) {
      if (e.eventType === E.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) out.workflowTasks += 1;
      if (e.eventType === E.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT) out.taskTimeouts += 1;
      if (e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) out.activities += 1;
      if (e.eventType === E.EVENT_TYPE_MARKER_RECORDED) out.markers += 1;
    }
    if (runId === mark.runId) break;
    out.runs += 1;
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return out;
}

/** The event types of `mark`'s run up to the mark (what a workflow-cache miss replays), shortened. */
async function eventTypesAt(client: Client, mark: HistoryMark): Promise<string> {
  const history = await client.workflow.getHandle(mark.workflowId, mark.runId).fetchHistory();
  const names = proto.api.enums.v1.EventType as unknown as Record<number, string>;
  return (history.events ?? [])
    .slice(0, mark.length)
    .map((e) => (names[Number(e.eventType)] ?? String(e.eventType)).replace(/^EVENT_TYPE_/, '').toLowerCase())
    .join(' ');
}

/** The Temporal server's cache counters (its Prometheus endpoint), summed over its shards. */
interface ServerCaches {
  mutableState: { requests: number; misses: number };
  events: { requests: number; misses: number };
}

async function serverCaches(metricsUrl: string): Promise<ServerCaches | null> {
  const samples = await scrapePrometheus(metricsUrl);
  if (!samples) return null;
  const sum = (name: string, operation: string) => samples.filter((x) => x.name === name && x.labels.operation === operation).reduce((a, x) => a + x.value, 0);
  const cache = (operation: string) => ({ requests: sum('cache_requests', operation), misses: sum('cache_miss', operation) });
  return { mutableState: cache('HistoryCacheGetOrCreate'), events: cache('EventsCacheGetEvent') };
}

function cacheLine(name: string, before: { requests: number; misses: number }, after: { requests: number; misses: number }): string {
  const requests = after.requests - before.requests;
  const misses = after.misses - before.misses;
  return `${name} ${fmt(requests / N, 1)} lookups, ${fmt(misses / N, 1)} misses (${fmt(requests ? (100 * misses) / requests : 0, 0)} %)`;
}

export interface PhaseResult {
  workers: number;
  renewalsPerSecond: number;
  seconds: number;
  readySeconds: number;
  statementsPerRenewal: number;
  transactionsPerRenewal: number;
  historyEventsPerRenewal: number;
  peakRssMiB: number;
  warnings: number;
  /** "Workflow task duration exceeded 5 seconds" warnings (TMPRL1104). */
  slowWorkflowTasks: number;
}

export async function main(): Promise<{ subscriptionsPerSecond: number; workflowsPerSecond: number; ratio: number; phases: PhaseResult[] }> {
  const deadline = Date.now() + DEADLINE_MS;
  const database = await benchDatabase();
  const cli = await ensureTemporalCli((l) => console.log(l));
  const dev = await startDevServer({ cli, port: 0, log: (l) => console.log(`  ${l}`), dynamicConfig: TEMPORAL_CONFIG });
  if (Object.keys(TEMPORAL_CONFIG).length) console.log(`  dev server dynamic config: ${JSON.stringify(TEMPORAL_CONFIG)}`);
  const serverPort = dev.address.split(':').pop()!;
  const serverPid = pidsWhere((comm, cmd) => cmd.includes('start-dev') && cmd.includes(`--port ${serverPort} `))[0];
  const db: Db = createDb(database.url, { poolSize: 10 });
  const gateways = createModeGateways({ db });
  const taskQueue = `bench-subscriptions-${randomBytes(3).toString('hex')}`;
  // The service's own settings from the environment (the workers below read the same variables).
  const config = { ...loadConfig(process.env), databaseUrl: database.url, temporalAddress: dev.address, taskQueue };
  const temporal = createTemporalProvider({ address: dev.address, namespace: config.temporalNamespace, taskQueue });
  // BENCH_CACHED_WORKFLOWS is the service's WORKER_CACHED_WORKFLOWS for the bench's workers.
  const cachedWorkflows = process.env.BENCH_CACHED_WORKFLOWS ?? process.env.WORKER_CACHED_WORKFLOWS;
  const workerEnv = {
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: dev.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    TEMPORAL_NAMESPACE: config.temporalNamespace,
    ...(cachedWorkflows ? { WORKER_CACHED_WORKFLOWS: cachedWorkflows } : {}),
  };
  const workers: WorkerProcess[] = [];
  console.log(
    `  worker settings: workflow cache ${cachedWorkflows ?? "the SDK's default"} per worker process, ` +
      `${shardSettings({ shards: config.workerShards, cachedWorkflows: cachedWorkflows ? Number(cachedWorkflows) : undefined, activitySlots: 20 }).shards} ` +
      `Temporal worker(s) per process sharing it (WORKER_SHARDS${config.workerShards ? '' : ' unset: one per 3,000 cached'}), ` +
      `sticky queue timeout ${config.workerStickyTimeoutSeconds} s (docs/operations.md), ` +
      `prepared statements ${config.dbPreparedStatements} per process (DB_PREPARED_STATEMENTS; docs/database.md)`,
  );
  let trivialConnection: NativeConnection | undefined;
  let trivialWorker: Worker | undefined;
  let trivialRun: Promise<void> | undefined;
  const phases: PhaseResult[] = [];
  try {
    const client = await temporal.client();
    await ensureSearchAttributes(client.connection, config.temporalNamespace);
    // The setup runs on the first phase's worker processes, so that each holds its share of the
    // workflows in its cache when the first phase starts.
    while (workers.length < PHASES[0]!) workers.push(await startWorkerProcess(workerEnv));
    const workflows = createWorkflowClients({ client: async () => client, taskQueue });

    // 1. setup
    const merchant = (await createMerchant(db, { name: 'bench', currency: 'ISK' })).merchant;
    const tenant: Tenant = { merchantId: merchant.id, mode: 'test' };
    const scoped = scopedDb(db, tenant);
    const clock = await createTestClock(scoped, tenant, { frozenTime: T0, name: 'bench' });
    const product = await createProduct(scoped, tenant, { name: 'Plan' });
    const price = await createPrice(scoped, tenant, { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: 1990, recurring: { interval: 'month' } });
    // BENCH_METERED=1: a second, metered item on every subscription (a `sum` meter of `units`).
    const meteredPrice = METERED
      ? await createPrice(scoped, tenant, {
          product: product.id,
          type: 'recurring',
          currency: 'ISK',
          unit_amount: 3,
          recurring: { interval: 'month', usage_type: 'metered' },
          meter: (await scoped.$transaction((tx) => createMeter(tx, tenant, { name: 'Calls', event_name: 'bench.call', aggregate_type: 'sum', aggregate_property: 'units' }))).id,
        })
      : null;
    const items = meteredPrice ? [{ price: price.id }, { price: meteredPrice.id }] : [{ price: price.id }];
    if (meteredPrice) console.log(`  metered: every subscription also has a metered price item; ${METERED_EVENTS} usage events per customer in the first period`);
    console.log(
      `  setup: ${fmt(N)} customers with cards and subscriptions on one clock (machine load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
    );
    const setupStarted = process.hrtime.bigint();
    // This machine's PostgreSQL runs with autovacuum off (a CI setting), so nothing would ever
    // refresh the planner's statistics while the setup fills an empty database: what autovacuum
    // does on a running database, the setup does itself, every 15 s.
    const analyzing = setInterval(() => void db.$executeRawUnsafe('ANALYZE').catch(() => undefined), 15_000);
    const subscriptionIds: string[] = [];
    const creating = setInterval(() => console.log(`    … ${Math.round(seconds(setupStarted))} s: ${fmt(subscriptionIds.length)} of ${fmt(N)} subscriptions created`), 30_000);
    try {
      await pool(N, CONCURRENCY, async (i) => {
        // Each step paces itself on a busy machine: one that found no connection in time is run
        // again after a pause (paced, bench/support.ts) instead of ending the benchmark.
        const { customer } = await paced(() => createCustomer(scoped, tenant, { email: `bench${i}@example.is` }));
        await paced(() =>
          attachTestCard({ db, gateways, txMaxWaitMs: 30_000 }, tenant, {
            customerId: customer.id,
            cardNumber: '4242424242424242',
            expMonth: 12,
            expYear: new Date().getUTCFullYear() + 5,
            cvc: '123',
          }),
        );
        // Every creation locks the one clock row (a subscription starts at the clock's time, which
        // an advance must not move meanwhile), so these transactions queue behind each other:
        // setup is not measured, so give them the API's 30 s rather than Prisma's default 5 s.
        const created = await paced(() =>
          scoped.$transaction(
            async (tx) => {
              await attachCustomerToTestClock(tx, tenant, { testClockId: clock.id, customerId: customer.id });
              return createSubscription(tx, tenant, { customer: customer.id, items }, new Date());
            },
            { timeout: 30_000, maxWait: 30_000 },
          ),
        );
        if (meteredPrice && METERED_EVENTS > 0) {
          // No timestamp: the clock's time (the first period's start), as a client on the clock sends them.
          const events = Array.from({ length: METERED_EVENTS }, (_, e) => ({
            event_name: 'bench.call',
            customer: customer.id,
            idempotency_key: `${customer.id}-${e}`,
            metadata: { units: e + 1 },
          }));
          const r = await paced(() => scoped.$transaction((tx) => ingestUsageEvents(prismaSql(tx), tenant, events, new Date())));
          if (r.ingested !== METERED_EVENTS) throw new Error(`usage events of ${customer.id}: ${JSON.stringify(r)}`);
        }
        subscriptionIds.push(created.subscription.id);
        await workflows.subscription.start({
          subscriptionId: created.subscription.id,
          merchantId: tenant.merchantId,
          mode: 'test',
          customerId: customer.id,
          status: created.subscription.status,
          clockTime: T0.toISOString(),
        });
      });
    } finally {
      clearInterval(creating);
    }
    const firstPaid = () => db.invoice.count({ where: { merchantId: merchant.id, status: 'paid' } });
    await waitFor(
      'first invoices paid',
      async () => (await firstPaid()) >= N,
      deadline,
      async () => `${fmt(await firstPaid())} of ${fmt(N)} first invoices paid`,
    );
    clearInterval(analyzing);
    console.log(`  setup done in ${fmt(seconds(setupStarted), 1)} s`);
    // And once more when it is full: without statistics the plans cached per connection (the
    // foreign-key checks among them) pick an index by tie and scan the merchant's rows.
    const analyzed = process.hrtime.bigint();
    await db.$executeRawUnsafe('ANALYZE');
    console.log(`  ANALYZE after setup: ${fmt(seconds(analyzed), 1)} s`);
    // 3a. the trivial baseline, once here (before the renewals) and once after them (3b): the
    // same server's rate moves between runs by as much as a fifth, so the report shows both.
    const baselineQueue = `${taskQueue}-trivial`;
    const bundle = await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'trivial-workflow.js'),
      logger: { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) },
    });
    trivialConnection = await NativeConnection.connect({ address: dev.address });
    trivialWorker = await Worker.create({ connection: trivialConnection, namespace: config.temporalNamespace, taskQueue: baselineQueue, workflowBundle: bundle });
    trivialRun = trivialWorker.run();
    const baseline = async (round: string): Promise<number> => {
      const baseLoad = os.loadavg();
      const baseStarted = process.hrtime.bigint();
      await pool(N, CONCURRENCY, async (i) => {
        await client.workflow.execute('trivialWorkflow', { taskQueue: baselineQueue, workflowId: `trivial-${taskQueue}-${round}-${i}`, args: [i] });
      });
      const baseSeconds = seconds(baseStarted);
      console.log(
        `  baseline ${round} the renewals: ${fmt(N)} trivial workflows started and completed in ${fmt(baseSeconds, 2)} s → ${fmt(N / baseSeconds, 1)} /s (load before: ${baseLoad.map((l) => l.toFixed(2)).join(' ')})`,
      );
      return N / baseSeconds;
    };
    const baselineBefore = await baseline('before');
    // Spread over the subscriptions: a renewal burst serves them in some order, and the last ones wait longest.
    const sample = Array.from({ length: HISTORY_SAMPLE }, (_, i) => subscriptionIds[Math.floor((i * N) / HISTORY_SAMPLE)]!);
    const cycleInvoices = (extra: object = {}) => db.invoice.count({ where: { merchantId: merchant.id, billingReason: 'subscription_cycle', ...extra } });

    // 1b. one-day advances with nothing due (BENCH_DAY_ADVANCES)
    if (DAY_ADVANCES > 0) {
      while (workers.length < PHASES[0]!) workers.push(await startWorkerProcess(workerEnv));
      const dayMarks = await historyMarks(client, sample);
      const times: number[] = [];
      const dayLoad = os.loadavg();
      for (let d = 1; d <= DAY_ADVANCES; d++) {
        const started = process.hrtime.bigint();
        await scoped.$transaction((tx) => advanceTestClock(tx, tenant, clock.id, new Date(T0.getTime() + d * 86_400_000)));
        await workflows.testClock.signalAdvance({ testClockId: clock.id, merchantId: merchant.id });
        await waitFor('clock ready after a one-day advance', async () => (await db.testClock.findUniqueOrThrow({ where: { id: clock.id } })).status === 'ready', deadline);
        times.push(seconds(started));
      }
      const counts = await Promise.all(dayMarks.map((mk) => historySince(client, mk)));
      const per = (f: (c: HistoryCount) => number) => fmt(counts.reduce((a, c) => a + f(c), 0) / counts.length / DAY_ADVANCES, 2);
      const sorted = [...times].sort((a, b) => a - b);
      console.log(
        `  ${DAY_ADVANCES} one-day advances of a clock with ${fmt(N)} subscriptions, nothing due (load before: ${dayLoad.map((l) => l.toFixed(2)).join(' ')}): ` +
          `until ready ${sorted.map((t) => fmt(t, 2)).join(', ')} s (median ${fmt(sorted[Math.floor(sorted.length / 2)]!, 2)} s); ` +
          `per advance and subscription (a sample of ${counts.length}): ${per((c) => c.events)} history events, ${per((c) => c.workflowTasks)} workflow tasks, ${per((c) => c.markers)} local activities`,
      );
      if (DAY_ADVANCES_ONLY) return { subscriptionsPerSecond: 0, workflowsPerSecond: baselineBefore, ratio: 0, phases: [] };
    }

    // 2. measured: one period on the clock per phase
    for (const [k, count] of PHASES.entries()) {
      while (workers.length < count) workers.push(await startWorkerProcess(workerEnv));
      while (workers.length > count) await workers.pop()!.stop();
      const marks = await historyMarks(client, sample);
      // The clock's own workflow (notify, recounts on the subscriptions' nudges) is work of the phase
      // too; before the first advance it has never run.
      const clockHandle = client.workflow.getHandle(workflowIds.testClock(clock.id));
      const clockDescribed = await clockHandle.describe().catch((err: unknown) => {
        if (err instanceof WorkflowNotFoundError) return null;
        throw err;
      });
      const clockMark: HistoryMark = { workflowId: clockHandle.workflowId, runId: clockDescribed?.runId ?? '', length: clockDescribed?.historyLength ?? 0 };
      await Promise.all(workers.map((w) => w.ask('reset')));
      const cachesBefore = await serverCaches(dev.metricsUrl);
      const cpuBefore = cpuSnapshot(serverPid);
      const ticksBefore = new Map(workers.map((w) => [w.pid, procTicks(w.pid)]));
      const ticksUsed = new Map<number, number>(); // pid → CPU ticks in the phase
      const load = os.loadavg();
      const started = process.hrtime.bigint();
      await scoped.$transaction((tx) => advanceTestClock(tx, tenant, clock.id, monthAfter(k + 1)));
      await workflows.testClock.signalAdvance({ testClockId: clock.id, merchantId: merchant.id });
      const goal = N * (k + 1);
      const killed: WorkerReport[] = [];
      if (KILL && k === 0) {
        await waitFor('a third of the renewal invoices', async () => (await cycleInvoices()) >= Math.ceil(N / 3), deadline);
        const victim = workers.shift()!;
        killed.push(await victim.ask<WorkerReport>('report'));
        ticksUsed.set(victim.pid, procTicks(victim.pid) - (ticksBefore.get(victim.pid) ?? 0));
        await victim.kill();
        console.log(
          `  killed worker ${victim.pid} (SIGKILL) with ${fmt(await cycleInvoices())} of ${fmt(N)} renewal invoices created, ${fmt(await cycleInvoices({ status: 'paid' }))} paid; starting another`,
        );
        workers.unshift(await startWorkerProcess(workerEnv));
      }
      await waitFor(
        'renewals invoiced and charged',
        async () => (await cycleInvoices({ status: 'paid' })) >= goal,
        deadline,
        async () => `${fmt(await cycleInvoices({ status: 'paid' }))} of ${fmt(goal)} renewal invoices paid`,
      );
      const invoicedSeconds = seconds(started);
      const cpuInvoiced = cpuSnapshot(serverPid);
      const cachesInvoiced = await serverCaches(dev.metricsUrl);
      for (const w of workers) ticksUsed.set(w.pid, procTicks(w.pid) - (ticksBefore.get(w.pid) ?? 0));
      await waitFor('clock ready', async () => (await db.testClock.findUniqueOrThrow({ where: { id: clock.id } })).status === 'ready', deadline);
      const readySeconds = seconds(started);
      const reports = [...killed, ...(await Promise.all(workers.map((w) => w.ask<WorkerReport>('report'))))];
      const histories = await Promise.all(marks.map((m) => historySince(client, m)));
      const clockHistory = await historySince(client, clockMark);

      const rate = N / invoicedSeconds;
      const sum = (f: (r: WorkerReport) => number) => reports.reduce((a, r) => a + f(r), 0);
      const billing = sum((r) => r.statements.billing);
      const control = sum((r) => r.statements.transactionControl);
      const simulator = sum((r) => r.statements.simulator);
      const avg = (f: (h: HistoryCount) => number) => histories.reduce((a, h) => a + f(h), 0) / Math.max(1, histories.length);
      const peak = Math.max(...reports.map((r) => r.peakRssMiBPhase));
      const warnings = sum((r) => r.warnings);
      console.log(`  period ${k + 1}, ${count} worker process${count > 1 ? 'es' : ''} (load before: ${load.map((l) => l.toFixed(2)).join(' ')}):`);
      console.log(`    renewals: ${fmt(N)} invoiced and charged in ${fmt(invoicedSeconds, 2)} s → ${fmt(rate, 1)} /s (clock ready after ${fmt(readySeconds, 2)} s)`);
      console.log(
        `    SQL per renewal: ${fmt((billing + control) / N, 1)} statements (${fmt(billing / N, 1)} queries + ${fmt(control / N, 1)} BEGIN/COMMIT, ${fmt(sum((r) => r.transactions) / N, 1)} transactions)` +
          `; the acquirer simulator's own tables: ${fmt(simulator / N, 1)} more`,
      );
      console.log(
        `    history per renewal (${histories.length} sampled workflows): ${fmt(
          avg((h) => h.events),
          1,
        )} events, ${fmt(
          avg((h) => h.workflowTasks),
          1,
        )} workflow tasks (${fmt(
          avg((h) => h.taskTimeouts),
          2,
        )} timed out), ` +
          `${fmt(
            avg((h) => h.activities),
            1,
          )} activities, ${fmt(
            avg((h) => h.markers),
            1,
          )} markers (local activities, patches), ${fmt(
            avg((h) => h.runs),
            1,
          )} new runs; before the phase each run held ${fmt(marks.reduce((a, m) => a + m.length, 0) / Math.max(1, marks.length), 1)} events (what a workflow-cache miss replays)`,
      );
      if (marks[0]) console.log(`    the first sampled run before the phase: ${await eventTypesAt(client, marks[0])}`);
      console.log(
        `    the test clock's workflow in the phase: ${fmt(clockHistory.events)} events, ${fmt(clockHistory.workflowTasks)} workflow tasks, ${fmt(clockHistory.activities)} activities ` +
          `(${fmt(clockHistory.events / N, 2)} events per renewal)`,
      );
      for (const r of reports) {
        console.log(
          `    worker ${r.pid}: peak RSS ${fmt(r.peakRssMiBPhase, 0)} MiB in the phase (${fmt(r.peakRssMiBLife, 0)} MiB over its life), CPU ${fmt(r.cpuSeconds, 1)} s, ` +
            `${r.stickyCache ? `workflow cache ${fmt(r.stickyCache.hits, 0)} hits, ${fmt(r.stickyCache.misses, 0)} misses, ${fmt(r.stickyCache.forcedEvictions, 0)} forced evictions, ` : ''}` +
            `SDK warnings ${r.warnings}${
              r.warnings
                ? `: ${Object.entries(r.warningKinds)
                    .map(([m, c]) => `${c}× ${JSON.stringify(m)}`)
                    .join('; ')}`
                : ''
            }`,
        );
        const t = r.threads;
        if (t) {
          const ms = (x: number) => `${fmt((1000 * x) / N, 1)} ms`;
          console.log(
            `      its CPU per renewal by thread: main ${ms(t.main)} (runnable but waiting for a core: ${ms(t.mainWaiting)} more), ` +
              `workflow sandbox ${ms(t.sandbox)}, Temporal core (Rust) ${ms(t.core)}, other ${ms(t.other)}; ` +
              `the busiest workflow-stream thread (one per Temporal worker) ${ms(t.busiestWorkflowStream)}, ${fmt((100 * t.busiestWorkflowStream) / invoicedSeconds, 0)} % of a core`,
          );
        }
      }
      const wall = invoicedSeconds;
      const cores = os.cpus().length;
      const busy = (cpuInvoiced.machine.busy - cpuBefore.machine.busy) / (cpuInvoiced.machine.total - cpuBefore.machine.total);
      const share = (ticks: number) => `${fmt((100 * ticks) / TICK / wall, 0)} %`;
      const workerTicks = [...ticksUsed.values()].reduce((a, t) => a + t, 0);
      console.log(
        `    CPU while renewing (100 % = one core; ${cores} cores, machine ${fmt(100 * busy, 0)} % busy): workers ${share(workerTicks)} ` +
          `(${[...ticksUsed.values()].map(share).join(' + ')}), Temporal server ${share(cpuInvoiced.server - cpuBefore.server)}, ` +
          `PostgreSQL (all databases) ${share(postgresTicks(cpuBefore, cpuInvoiced))}, this process ${share(cpuInvoiced.bench - cpuBefore.bench)}`,
      );
      if (cachesBefore && cachesInvoiced) {
        console.log(
          `    Temporal server caches per renewal: ${cacheLine('mutable state', cachesBefore.mutableState, cachesInvoiced.mutableState)}; ` +
            cacheLine('events', cachesBefore.events, cachesInvoiced.events),
        );
      }
      if (meteredPrice) {
        // The renewal invoices billed the usage: the first period's metered lines' quantity is the customer's events' sum of units.
        const expected = (METERED_EVENTS * (METERED_EVENTS + 1)) / 2;
        const lines = await db.invoiceLine.groupBy({
          by: ['quantity'],
          where: { merchantId: merchant.id, priceId: meteredPrice.id, invoice: { billingReason: 'subscription_cycle' } },
          _count: true,
        });
        console.log(
          `    metered lines on the renewal invoices: ${lines.map((l) => `${fmt(l._count)} with quantity ${l.quantity}`).join(', ') || 'none'} (all periods so far; the first period's: ${fmt(N)} with quantity ${expected})`,
        );
      }
      phases.push({
        workers: count,
        renewalsPerSecond: rate,
        seconds: invoicedSeconds,
        readySeconds,
        statementsPerRenewal: (billing + control) / N,
        transactionsPerRenewal: sum((r) => r.transactions) / N,
        historyEventsPerRenewal: avg((h) => h.events),
        peakRssMiB: peak,
        warnings,
        slowWorkflowTasks: sum((r) => Object.entries(r.warningKinds).reduce((a, [m, c]) => a + (m.includes('TMPRL1104') ? c : 0), 0)),
      });

      if (KILL && k === 0) {
        // Exactly once across the kill: one renewal invoice per subscription, paid, one successful charge.
        const check = await db.$queryRaw<Array<{ subs: bigint; one_invoice: bigint; paid: bigint; one_charge: bigint }>>`
          WITH per_invoice AS (
            SELECT i.id, i.subscription_id, i.status,
                   (SELECT count(*) FROM sim_charges c WHERE c.merchant_id = i.merchant_id AND c.status = 'succeeded' AND c.idempotency_key LIKE i.id || ':%') AS charges
            FROM invoices i
            WHERE i.merchant_id = ${merchant.id} AND i.billing_reason = 'subscription_cycle' AND i.period_start = ${monthAfter(1)}
          ), per_sub AS (
            SELECT subscription_id, count(*) AS invoices, bool_and(status = 'paid') AS paid, sum(charges) AS charges FROM per_invoice GROUP BY subscription_id
          )
          SELECT count(*) AS subs, count(*) FILTER (WHERE invoices = 1) AS one_invoice, count(*) FILTER (WHERE paid) AS paid, count(*) FILTER (WHERE charges = 1) AS one_charge FROM per_sub`;
        const c = check[0]!;
        const ok = Number(c.subs) === N && Number(c.one_invoice) === N && Number(c.paid) === N && Number(c.one_charge) === N;
        console.log(
          `    exactly once across the kill: ${fmt(Number(c.subs))} subscriptions with a renewal invoice, ${fmt(Number(c.one_invoice))} with exactly one, ` +
            `${fmt(Number(c.paid))} paid, ${fmt(Number(c.one_charge))} with exactly one successful charge → ${ok ? 'OK' : 'VIOLATED'}`,
        );
        if (!ok) throw new Error('exactly-once violated across the worker kill');
      }
    }

    // 3b. the baseline again, after the renewals (the ratio's baseline since issue 6)
    const workflowsPerSecond = await baseline('after');
    for (const p of phases) {
      console.log(
        `  ratio (subscription renewals / trivial workflows), ${p.workers} worker process${p.workers > 1 ? 'es' : ''}: ${fmt(p.renewalsPerSecond / workflowsPerSecond, 3)} ` +
          `(against the baseline before the renewals: ${fmt(p.renewalsPerSecond / baselineBefore, 3)})`,
      );
    }
    const first = phases[0]!;
    return { subscriptionsPerSecond: first.renewalsPerSecond, workflowsPerSecond, ratio: first.renewalsPerSecond / workflowsPerSecond, phases };
  } finally {
    if (trivialWorker && trivialWorker.getState() === 'RUNNING') trivialWorker.shutdown();
    await trivialRun?.catch(() => undefined);
    await trivialConnection?.close().catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop()));
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
