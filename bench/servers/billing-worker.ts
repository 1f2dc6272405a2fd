// The billing worker of bench/subscriptions.ts, in a process of its own so that its CPU, its
// memory and its SQL statements are its own: counts every statement it sends to PostgreSQL
// (grouped: transaction control, the card-acquirer simulator's own tables, everything else),
// its peak resident memory, its CPU time, and the SDK's warnings (e.g. workflow tasks over 5 s).
// Configured by environment (DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE,
// BENCH_POOL_SIZE, default 10; BENCH_ACTIVITIES, default 20; the service's own worker settings,
// WORKER_CACHED_WORKFLOWS (which bench/subscriptions.ts sets from BENCH_CACHED_WORKFLOWS) and
// WORKER_STICKY_TIMEOUT_SECONDS, WORKER_SHARDS; BENCH_REUSE_V8_CONTEXT=0|1, default the SDK's, 1); driven over
// IPC: `reset` starts a measured phase, `report` answers with the counts since then, including the
// SDK's workflow-cache hits, misses and forced evictions (read from its Prometheus metrics). Exits
// on SIGTERM after a graceful worker shutdown.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { DefaultLogger, Runtime, makeTelemetryFilterString, type LogLevel } from '@temporalio/worker';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/client';
import { createBillingWorker } from '../../boot/runtime/worker';
import { createModeGateways, gatewayConfigFromEnv } from '../../src/gateways';
import { freePort } from '../../src/temporal/dev-server';
import { scrapePrometheus } from '../support';

export interface WorkerReport {
  pid: number;
  /** Statements sent since `reset`, by group. */
  statements: { billing: number; transactionControl: number; simulator: number };
  /** Transactions begun since `reset`. */
  transactions: number;
  /** CPU seconds (user + system) since `reset`. */
  cpuSeconds: number;
  /** Peak resident memory since `reset` (sampled every 100 ms) and over the process's life (MiB). */
  peakRssMiBPhase: number;
  peakRssMiBLife: number;
  /** WARN/ERROR lines the SDK logged since `reset`, and how many of each kind (ids and numbers blanked). */
  warnings: number;
  warningKinds: Record<string, number>;
  /** The SDK's workflow-cache counters since `reset` (its sticky_cache_hit, sticky_cache_miss and forced-eviction metrics). */
  stickyCache: { hits: number; misses: number; forcedEvictions: number } | null;
  /** CPU seconds since `reset` by thread (Linux only, else null): see threadsSinceReset. */
  threads: ThreadSplit | null;
}

/**
 * Where the worker process's CPU went, by thread, from the kernel's own accounting
 * (/proc/self/task/<tid>/schedstat: nanoseconds on a CPU and nanoseconds runnable but waiting for
 * one). A CPU profile cannot tell these apart: it samples wall time, so a thread preempted in a
 * system call (writev to the database socket, on a busy machine) shows as busy in it.
 */
export interface ThreadSplit {
  /** The JavaScript main thread: activities, Prisma, pg, the SDK's bridge. */
  main: number;
  /** Seconds the main thread was runnable but waited for a CPU. */
  mainWaiting: number;
  /** The busiest other threads named `node`, one per Temporal worker (WORKER_SHARDS): the workflow sandboxes' worker threads (V8's helper threads are the other `node` threads). */
  sandbox: number;
  /** The Temporal core SDK's Rust threads (tokio-runtime-*, workflow-processing). */
  core: number;
  /**
   * The busiest `workflow-processing` thread (part of `core`): each Temporal worker (shard) runs
   * its workflow stream on one such thread, so its CPU seconds against the phase's wall time is
   * how close that one thread is to bounding the worker.
   */
  busiestWorkflowStream: number;
  /** Everything else: V8's helper threads (GC, compiler), libuv's pool, threads that ended during the phase. */
  other: number;
}

const counts = { billing: 0, transactionControl: 0, simulator: 0, transactions: 0 };
const TX_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SET TRANSACTION|SAVEPOINT|RELEASE)/i;
const SIMULATOR = /"?sim_[a-z_]+"?/;

/** BENCH_STATEMENT_LOG=<file>: the statements of the measured phase are written there (grouped by text) on `report`. */
let statementLog: string[] | null = process.env.BENCH_STATEMENT_LOG ? [] : null;
type QueryFn = (...args: unknown[]) => unknown;
const original = pg.Client.prototype.query as unknown as QueryFn;
(pg.Client.prototype as unknown as { query: QueryFn }).query = function countedQuery(this: unknown, ...args: unknown[]) {
  const first = args[0] as string | { text?: string } | undefined;
  const text = typeof first === 'string' ? first : (first?.text ?? '');
  const short = text.replace(/\s+/g, ' ');
  if (statementLog) statementLog.push(short.slice(0, 140));
  // A transaction is attributed to the simulator when all its statements touched the simulator's tables.
  const self = this as { benchTx?: { sim: number; other: number }; benchLast?: string };
  if (TX_CONTROL.test(text)) {
    if (/^\s*BEGIN/i.test(text)) self.benchTx = { sim: 0, other: 0 };
    else if (/^\s*(COMMIT|ROLLBACK)/i.test(text) && self.benchTx) {
      const tx = self.benchTx;
      self.benchTx = undefined;
      if (tx.other === 0 && tx.sim > 0) counts.simulator += 2;
      else {
        counts.transactionControl += 2;
        counts.transactions += 1;
      }
      if (statementLog && tx.other + tx.sim === 1) statementLog.push(`(a transaction of one statement: ${self.benchLast ?? '?'})`);
    }
  } else if (SIMULATOR.test(text)) {
    counts.simulator += 1;
    if (self.benchTx) self.benchTx.sim += 1;
  } else {
    counts.billing += 1;
    if (self.benchTx) self.benchTx.other += 1;
  }
  (self as { benchLast?: string }).benchLast = short.slice(0, 100);
  return original.apply(this, args);
};

let warnings = 0;
let warningKinds: Record<string, number> = {};
class CountingLogger extends DefaultLogger {
  constructor() {
    super('WARN', (entry) => {
      warnings += 1;
      const error = (entry.meta as { error?: { message?: string; cause?: { message?: string } } } | undefined)?.error;
      const detail = error ? `: ${error.cause?.message ?? error.message ?? ''}` : '';
      const kind = (entry.message + detail)
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(:\d+)*/gi, '…')
        .replace(/\b(sub|in|evt|pay|cus)_[A-Za-z0-9]+/g, '$1_…')
        .slice(0, 160);
      if (warningKinds[kind] !== undefined || Object.keys(warningKinds).length < 20) warningKinds[kind] = (warningKinds[kind] ?? 0) + 1;
      if (process.env.BENCH_LOG === '1') process.stderr.write(`[worker ${process.pid}] ${entry.level as LogLevel}: ${entry.message}${detail}\n`);
    });
  }
}

let cpuAtReset = process.cpuUsage();

type ThreadTimes = Map<string, { name: string; cpuNs: number; waitNs: number }>;
function threadTimes(): ThreadTimes | null {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  const out: ThreadTimes = new Map();
  for (const tid of tids) {
    try {
      const [cpuNs, waitNs] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
      out.set(tid, { name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), cpuNs, waitNs });
    } catch {
      // the thread ended between the listing and the read: counted in `other`
    }
  }
  return out;
}
let threadsAtReset = threadTimes();
function threadsSinceReset(processCpuSeconds: number, sandboxThreads: number): ThreadSplit | null {
  const now = threadTimes();
  if (!now || !threadsAtReset) return null;
  const split: ThreadSplit = { main: 0, mainWaiting: 0, sandbox: 0, core: 0, busiestWorkflowStream: 0, other: 0 };
  const nodeThreads: number[] = [];
  for (const [tid, t] of now) {
    const before = threadsAtReset.get(tid);
    const cpu = (t.cpuNs - (before?.cpuNs ?? 0)) / 1e9;
    if (tid === String(process.pid)) {
      split.main = cpu;
      split.mainWaiting = (t.waitNs - (before?.waitNs ?? 0)) / 1e9;
    } else if (/^(tokio-runtime|workflow-proces)/.test(t.name)) {
      split.core += cpu;
      if (t.name.startsWith('workflow-proces')) split.busiestWorkflowStream = Math.max(split.busiestWorkflowStream, cpu);
    } else if (t.name === 'node') nodeThreads.push(cpu);
  }
  split.sandbox = nodeThreads
    .sort((a, b) => b - a)
    .slice(0, sandboxThreads)
    .reduce((a, b) => a + b, 0);
  split.other = Math.max(0, processCpuSeconds - split.main - split.sandbox - split.core);
  return split;
}
let peakPhase = 0;
const sample = () => {
  const rss = process.memoryUsage.rss();
  if (rss > peakPhase) peakPhase = rss;
};
setInterval(sample, 100).unref();

// The SDK's own metrics (Prometheus, on a free port chosen at start): the workflow cache's counters.
let metricsPort = 0;
let shards = 1;
type StickyCounters = { hits: number; misses: number; forcedEvictions: number };
async function stickyCounters(): Promise<StickyCounters | null> {
  const samples = await scrapePrometheus(`http://127.0.0.1:${metricsPort}/metrics`);
  if (!samples) return null;
  const sumOf = (name: string) => samples.filter((x) => x.name === `temporal_${name}`).reduce((a, x) => a + x.value, 0);
  return { hits: sumOf('sticky_cache_hit'), misses: sumOf('sticky_cache_miss'), forcedEvictions: sumOf('sticky_cache_total_forced_eviction') };
}
let stickyAtReset: StickyCounters | null = null;
async function stickySinceReset(): Promise<StickyCounters | null> {
  const now = await stickyCounters();
  if (!now || !stickyAtReset) return null;
  return { hits: now.hits - stickyAtReset.hits, misses: now.misses - stickyAtReset.misses, forcedEvictions: now.forcedEvictions - stickyAtReset.forcedEvictions };
}

async function report(): Promise<WorkerReport> {
  sample();
  const cpu = process.cpuUsage(cpuAtReset);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    pid: process.pid,
    statements: { billing: counts.billing, transactionControl: counts.transactionControl, simulator: counts.simulator },
    transactions: counts.transactions,
    cpuSeconds,
    peakRssMiBPhase: peakPhase / 1048576,
    peakRssMiBLife: (process.resourceUsage().maxRSS * 1024) / 1048576,
    warnings,
    warningKinds,
    stickyCache: await stickySinceReset(),
    threads: threadsSinceReset(cpuSeconds, shards),
  };
}

async function main(): Promise<void> {
  metricsPort = await freePort();
  Runtime.install({
    logger: new CountingLogger(),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN' }), forward: {} },
      metrics: { prometheus: { bindAddress: `127.0.0.1:${metricsPort}` } },
    },
  });
  const config = loadConfig();
  // PostgreSQL here is shared (max_connections 100): each worker keeps the production pool size.
  const db = createDb(config.databaseUrl!, { poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10), preparedStatements: config.dbPreparedStatements });
  const worker = await createBillingWorker({
    db,
    config,
    gateways: createModeGateways({ db, config: gatewayConfigFromEnv() }),
    log: () => undefined,
    address: config.temporalAddress!,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    // Activities beyond the pool would only queue for connections (and time out under load).
    maxConcurrentActivities: Number(process.env.BENCH_ACTIVITIES ?? 20),
    reuseV8Context: process.env.BENCH_REUSE_V8_CONTEXT ? process.env.BENCH_REUSE_V8_CONTEXT === '1' : undefined,
  });
  shards = worker.settings.shards;
  const running = worker.run();
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'reset') {
      stickyAtReset = await stickyCounters();
      counts.billing = counts.transactionControl = counts.simulator = counts.transactions = 0;
      warnings = 0;
      warningKinds = {};
      cpuAtReset = process.cpuUsage();
      threadsAtReset = threadTimes();
      peakPhase = 0;
      sample();
      process.send?.({ type: 'reset' });
      if (statementLog) statementLog = [];
    } else if (m.type === 'report') {
      if (statementLog) {
        const byText = new Map<string, number>();
        for (const t of statementLog) byText.set(t, (byText.get(t) ?? 0) + 1);
        const lines = [...byText.entries()].sort((a, b) => b[1] - a[1]).map(([t, c]) => `${String(c).padStart(7)}  ${t}`);
        writeFileSync(`${process.env.BENCH_STATEMENT_LOG}.${process.pid}`, lines.join('\n') + '\n');
      }
      process.send?.({ type: 'report', report: await report() });
    }
  });
  process.on('SIGTERM', () => {
    void worker.shutdown().then(async () => {
      await db.$disconnect();
      process.exit(0);
    });
  });
  process.send?.({ type: 'ready', pid: process.pid });
  await running;
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
