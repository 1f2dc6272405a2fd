// `npm run bench -- soak`: the service under a steady mixed load, as a merchant's backend would use
// it (docs/benchmarks.md "Soak"). An open-loop arrival rate: arrivals are scheduled on a timer, so a
// slow service does not lower the load; each arrival is one unit of the mix below, bounded in time
// (SOAK_SECONDS) and count (SOAK_MAX_ARRIVALS), loopback only, against `npm start`
// (dist/boot/start.js, one process) or the production layout (SOAK_LAYOUT=split: the API and a
// worker as separate processes). A fresh database and Temporal dev server of its own.
//
//   50 % reads: a customer, a subscription, the invoice list, the customer list
//   20 % usage events: single, or a batch of 100 (one in four)
//   10 % sign-ups: a customer (one in four on a test clock, at most SOAK_CUSTOMERS_PER_CLOCK = 25
//        customers a clock), a test card, a subscription; past SOAK_LIVE_MAX live subscriptions,
//        also a cancellation of one at random (churn)
//   10 % subscription commands: pause/resume, cancel_at_period_end on/off, quantity with proration
//    5 % small refunds: a payment of 1,000 and a refund of 100
//    5 % test-clock advances by one day, of a clock at random
//
// Every SOAK_REPORT_SECONDS (30) it prints the arrival rate, requests in flight, errors by class,
// p50/p95/p99 per kind, the RSS of the service's processes and its pools' use (GET /metrics), and
// their CPU (user + system, /proc) per arrival and per request, also in "hello-world units": divided
// by the CPU µs per request of a bare Koa hello-world measured at the start of the same run
// (helloCalibration, ~5 s), a figure that does not depend on the machine's speed. At the end the
// same over the whole run, the capacity it implies at 100 % of one core beside the target (30/s),
// the RSS slope, MiB per live subscription, the recovery after the load, and the consistency
// check: every subscription invoice exactly once per period, no invoice paid twice, every usage
// total equal to the events acknowledged. A write without an answer (timeout, network error, 5xx)
// is resent once with its Idempotency-Key, as a client would.
//
// Settings (environment): SOAK_RATE (30 arrivals/s), SOAK_SECONDS (1200), SOAK_MAX_ARRIVALS
// (rate × seconds), SOAK_LAYOUT (start | split), SOAK_KNEE (comma-separated rates: run each for
// SOAK_SECONDS and report the highest with 0 errors and p99 < 2 s), SOAK_POOL_API / SOAK_POOL_WORKER
// (DB_POOL_SIZE_API / _WORKER of the service; default 10 each), SOAK_SEED, SOAK_CUSTOMERS_PER_CLOCK (25;
// 0: four shared clocks, unbounded), SOAK_LIVE_MAX (0: the live population grows), SOAK_CPU_PROFILE
// (1: V8 CPU profiles of the service's processes, kept with its logs).
import { fork, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { benchDatabase, commandCpuDelta, commandCpuMs, fmt, helloCalibration, machineCpuMs, procCpuMs, scrapePrometheus } from './support';
import { createDb, type Db } from '../src/db/client';
import { createMerchant } from '../src/domain/merchants/create-merchant';
import { ensureTemporalCli, freePort, startDevServer } from '../src/temporal/dev-server';

const RATE = Number(process.env.SOAK_RATE ?? 30);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 1200);
const REPORT_SECONDS = Number(process.env.SOAK_REPORT_SECONDS ?? 30);
const LAYOUT = process.env.SOAK_LAYOUT === 'split' ? 'split' : 'start';
const CLIENT_TIMEOUT_MS = 30_000;
/** The issue's target: 30 arrivals/s held for 20 minutes. */
const TARGET_RATE = 30;
/**
 * Customers per test clock. With a bound, a sign-up on a clock opens a new clock once the others
 * are full, so a one-day advance renews at most the due subscriptions of this many customers
 * (about a thirtieth of them a day) and renewals stay at most 5 % × rate × bound / 30 a second
 * (1.25/s at 30 arrivals/s), whatever the run's length. 0: four shared clocks without a bound
 * (runs before 2026-11-28), where the renewals per advance grow with the run.
 */
const CUSTOMERS_PER_CLOCK = Number(process.env.SOAK_CUSTOMERS_PER_CLOCK ?? 25);
const SHARED_CLOCKS = 4;
/**
 * At most this many live subscriptions (0: no bound). Past it, each sign-up also cancels a live
 * subscription at random (churn), so the live population holds still and memory can be judged flat.
 */
const LIVE_MAX = Number(process.env.SOAK_LIVE_MAX ?? 0);

type ErrorClass = '4xx' | '409' | '429' | '503' | '5xx' | 'timeout' | 'network';

/** A small deterministic generator (mulberry32), so two runs send the same mix. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** p50/p95/p99 (ms) of each kind of request, in kind order: `read 8/30/66 · command …`. */
function kindPercentiles(latencies: Map<string, number[]>): string {
  return [...latencies.entries()]
    .sort()
    .map(([k, l]) => {
      const sorted = [...l].sort((x, y) => x - y);
      return `${k} ${fmt(percentile(sorted, 50))}/${fmt(percentile(sorted, 95))}/${fmt(percentile(sorted, 99))}`;
    })
    .join(' · ');
}

interface Window {
  latencies: Map<string, number[]>;
  errors: Map<ErrorClass, number>;
  requests: number;
  arrivals: number;
  over10s: number;
}
const newWindow = (): Window => ({ latencies: new Map(), errors: new Map(), requests: 0, arrivals: 0, over10s: 0 });

interface Service {
  baseUrl: string;
  /** Processes whose RSS is reported (name → pid). */
  pids: Record<string, number>;
  metricsUrls: string[];
  stop(keepLogs?: boolean): Promise<void>;
}

function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time (ms) used so far by each service process, whole and its main thread. */
type CpuSample = Record<string, { proc: number | null; main: number | null }>;

function cpuSample(pids: Record<string, number>): CpuSample {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, { proc: procCpuMs(pid), main: procCpuMs(pid, pid) }]));
}

/** CPU spent per process between two samples over `seconds`, per arrival and per request (ms), and per request in hello-world units. */
function cpuFigures(
  from: CpuSample,
  to: CpuSample,
  seconds: number,
  arrivals: number,
  requests: number,
  helloUs: number | null,
): Array<{
  name: string;
  core: number;
  mainCore: number | null;
  perArrival: number;
  perRequest: number;
  main: { perArrival: number; perRequest: number } | null;
  units: number | null;
}> {
  const out = [];
  for (const [name, b] of Object.entries(to)) {
    const a = from[name];
    if (!a || a.proc === null || b.proc === null) continue;
    const ms = b.proc - a.proc;
    const mainMs = a.main === null || b.main === null ? null : b.main - a.main;
    const perRequest = requests ? ms / requests : NaN;
    out.push({
      name,
      core: seconds > 0 ? ms / (seconds * 1000) : NaN,
      mainCore: mainMs === null || seconds <= 0 ? null : mainMs / (seconds * 1000),
      perArrival: arrivals ? ms / arrivals : NaN,
      perRequest,
      main: mainMs === null ? null : { perArrival: arrivals ? mainMs / arrivals : NaN, perRequest: requests ? mainMs / requests : NaN },
      units: helloUs ? (perRequest * 1000) / helloUs : null,
    });
  }
  return out;
}

function cpuLine(figures: ReturnType<typeof cpuFigures>): string {
  return (
    figures
      .map(
        (f) =>
          `${f.name} ${fmt(f.core * 100)} % of a core (main thread ${f.mainCore === null ? 'n/a' : `${fmt(f.mainCore * 100)} %`}), ` +
          `${fmt(f.perArrival, 1)} ms/arrival, ${fmt(f.perRequest, 1)} ms/request = ${f.units === null ? 'n/a' : fmt(f.units)} hello-world units/request`,
      )
      .join('; ') || 'n/a (no /proc)'
  );
}

/**
 * Where the machine's CPU went: every process the soak runs beside the service (the Temporal dev
 * server, all of PostgreSQL's processes, this load generator) and the machine as a whole, so a run
 * shows which of them grows with the live population. Shares are of one core; the machine's busy
 * share is of all its cores. PostgreSQL's figure sums the processes alive at both samples.
 */
interface MachineSample {
  at: number;
  machine: { busy: number; idle: number } | null;
  temporal: number | null;
  postgres: Map<number, number> | null;
  client: number | null;
}

function machineSample(temporalPid: number | undefined): MachineSample {
  return { at: performance.now(), machine: machineCpuMs(), temporal: procCpuMs(temporalPid), postgres: commandCpuMs('postgres'), client: procCpuMs(process.pid) };
}

function machineLine(a: MachineSample, b: MachineSample, serviceCores: number, postgresMs?: number): string {
  const ms = b.at - a.at;
  if (ms <= 0) return 'n/a';
  const share = (x: number | null, y: number | null) => (x === null || y === null ? 'n/a' : `${fmt(((y - x) / ms) * 100)} %`);
  // Over a whole run, the sum of the windows' figures: a pool closes idle connections, so a backend that
  // worked early in the run may be gone at its end.
  const pg = postgresMs ?? commandCpuDelta(a.postgres, b.postgres);
  let machine = 'n/a';
  if (a.machine && b.machine) {
    const busy = b.machine.busy - a.machine.busy;
    const all = busy + (b.machine.idle - a.machine.idle);
    machine = all > 0 ? `${fmt((busy / all) * 100)} % busy` : 'n/a';
  }
  return (
    `service ${fmt(serviceCores * 100)} %, Temporal server ${share(a.temporal, b.temporal)}, PostgreSQL ${share(0, pg)}, ` +
    `load generator ${share(a.client, b.client)} (of one core); the machine ${machine} (of all its cores)`
  );
}

function spawn(script: string, env: Record<string, string>, name: string): ChildProcess {
  // SOAK_CPU_PROFILE=1: each service process writes a V8 CPU profile into its data directory when it
  // exits (kept with the logs; open it in Chrome DevTools, or summarise it with bench/cpu-profile).
  const execArgv = process.env.SOAK_CPU_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${env.BILLING_DATA_DIR!}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  // The service's own output goes to a log file in its data directory (kept when the soak failed or SOAK_KEEP_LOGS=1).
  const logFile = path.join(env.BILLING_DATA_DIR!, `${name}.log`);
  const out = createWriteStream(logFile);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return child;
}

async function waitReady(baseUrl: string, child: ChildProcess, seconds = 300): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before it was ready`);
    const ok = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the service did not become ready');
}

async function startService(databaseUrl: string, temporalAddress: string): Promise<Service> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'billing-soak-'));
  const port = await freePort();
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: `soak-${randomBytes(3).toString('hex')}`,
    BILLING_DATA_DIR: dataDir,
    PORT: String(port),
    LOG_REQUESTS: '0',
    DB_POOL_SIZE_API: process.env.SOAK_POOL_API ?? '10',
    DB_POOL_SIZE_WORKER: process.env.SOAK_POOL_WORKER ?? '10',
    // The soak measures the service, not the per-key rate limit.
    RATE_LIMIT_REQUESTS: '1000000',
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const children: Array<[string, ChildProcess]> = [];
  const metricsUrls = [`${baseUrl}/metrics`];
  if (LAYOUT === 'start') {
    children.push(['service', spawn('dist/boot/start.js', env, 'service')]);
  } else {
    const workerMetrics = await freePort();
    children.push(['worker', spawn('dist/boot/worker.js', { ...env, METRICS_PORT: String(workerMetrics) }, 'worker')]);
    children.push(['api', spawn('dist/boot/api.js', env, 'api')]);
    metricsUrls.push(`http://127.0.0.1:${workerMetrics}/metrics`);
  }
  await waitReady(baseUrl, children[children.length - 1]![1]);
  console.log(`  service (${LAYOUT === 'start' ? 'npm start: one process' : 'production layout: API + worker processes'}) ready at ${baseUrl}; its logs in ${dataDir}`);
  return {
    baseUrl,
    pids: Object.fromEntries(children.map(([n, c]) => [n, c.pid!])),
    metricsUrls,
    async stop(keepLogs = false) {
      await Promise.all(
        children.map(
          ([, c]) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGTERM');
              setTimeout(() => c.kill('SIGKILL'), 40_000).unref();
            }),
        ),
      );
      if (!keepLogs && process.env.SOAK_CPU_PROFILE !== '1') rmSync(dataDir, { recursive: true, force: true });
      else console.log(`  the service's logs (and CPU profiles, with SOAK_CPU_PROFILE=1) kept in ${dataDir}`);
    },
  };
}

interface Live {
  customerId: string;
  subscriptionId: string;
  itemId: string;
  paymentMethodId: string;
  paused: boolean;
  cancelAtPeriodEnd: boolean;
  quantity: number;
}

/** A test clock of the soak: its frozen time, whether an advance is in flight, its customers. */
interface Clock {
  id: string;
  time: number;
  busy: boolean;
  customers: number;
}

class Soak {
  private window = newWindow();
  private total = newWindow();
  private inFlight = 0;
  private live: Live[] = [];
  private customers: string[] = [];
  private clocks: Clock[] = [];
  /** The frozen time every clock starts at. */
  private clockStart = 0;
  /** Usage quantity acknowledged per customer; events whose outcome stayed unknown, per customer. */
  private usageAcked = new Map<string, number>();
  private usageUnknown = new Map<string, number>();
  private priceId = '';
  private random: () => number;
  private seq = 0;
  /** The CPU sample at the start of the current report window. */
  private windowCpu: { at: number; cpu: CpuSample } = { at: 0, cpu: {} };
  /** The machine's CPU at the start of the current report window and of the run. */
  private windowMachine: MachineSample | null = null;
  private runMachine: MachineSample | null = null;
  /** PostgreSQL's CPU (ms) over the run so far, summed window by window. */
  private runPostgresMs = 0;
  /** Subscription invoices in the database at the start of the window; clock advances accepted in it. */
  private windowInvoices = 0;
  private advancesAccepted = 0;
  /** GC seconds per metrics endpoint, and PostgreSQL's sessions and commits, at the start of the window. */
  private windowGc = new Map<string, number>();
  private windowPg: { sessions: number; commits: number } | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly merchantId: string,
    seed: number,
    /** The hello-world's CPU µs per request on this machine in this run (null: not measured). */
    private readonly helloUs: number | null,
    private readonly db: Db,
    private readonly temporalPid: number | undefined,
  ) {
    this.random = prng(seed);
  }

  private pick<T>(list: T[]): T | undefined {
    return list.length ? list[Math.floor(this.random() * list.length)] : undefined;
  }

  private record(kind: string, ms: number, error: ErrorClass | null): void {
    for (const w of [this.window, this.total]) {
      w.requests += 1;
      if (ms > 10_000) w.over10s += 1;
      const l = w.latencies.get(kind) ?? [];
      l.push(ms);
      w.latencies.set(kind, l);
      if (error) w.errors.set(error, (w.errors.get(error) ?? 0) + 1);
    }
  }

  /** One request; a write without an answer is resent once with its key. */
  async request(
    kind: string,
    method: string,
    urlPath: string,
    body?: unknown,
    opts: { idempotent?: boolean; expected?: number[] } = {},
  ): Promise<{ status: number; body: any } | null> {
    const key = method === 'POST' ? `soak-${++this.seq}-${randomBytes(4).toString('hex')}` : undefined;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const started = performance.now();
      this.inFlight += 1;
      let status = 0;
      let parsed: any = null;
      let error: ErrorClass | null = null;
      try {
        const res = await fetch(`${this.baseUrl}${urlPath}`, {
          method,
          headers: {
            Authorization: `Bearer ${this.key}`,
            'X-Merchant-Id': this.merchantId,
            ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
            ...(key ? { 'Idempotency-Key': key } : {}),
          },
          body: body !== undefined ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
        });
        status = res.status;
        const text = await res.text();
        parsed = text ? JSON.parse(text) : null;
        if (status >= 500) error = status === 503 ? '503' : '5xx';
        else if (status === 429) error = '429';
        else if (status === 409 && !(opts.expected ?? []).includes(409)) error = '409';
        else if (status >= 400 && !(opts.expected ?? []).includes(status)) error = '4xx';
      } catch (err) {
        error = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      } finally {
        this.inFlight -= 1;
      }
      this.record(kind, performance.now() - started, error);
      const unknown = error === 'timeout' || error === 'network' || error === '503' || error === '5xx';
      if (unknown && key && attempt === 1 && opts.idempotent !== false) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      return error === 'timeout' || error === 'network' ? null : { status, body: parsed };
    }
    return null;
  }

  async setup(): Promise<void> {
    const product = await this.request('setup', 'POST', '/v1/products', { name: 'Soak plan' });
    const price = await this.request('setup', 'POST', '/v1/prices', {
      product: product!.body.id,
      type: 'recurring',
      currency: 'ISK',
      unit_amount: 1990,
      recurring: { interval: 'month' },
    });
    this.priceId = price!.body.id;
    this.clockStart = Date.UTC(new Date().getUTCFullYear() + 1, 0, 1);
    if (CUSTOMERS_PER_CLOCK === 0) for (let i = 0; i < SHARED_CLOCKS; i++) await this.newClock('setup');
    // A live population to read and change from the start.
    for (let i = 0; i < 20; i++) await this.signup();
  }

  private async newClock(kind: string): Promise<Clock | undefined> {
    const c = await this.request(kind, 'POST', '/v1/test_helpers/test_clocks', {
      frozen_time: new Date(this.clockStart).toISOString(),
      name: `soak ${this.clocks.length}`,
    });
    if (c?.status !== 201) return undefined;
    const clock: Clock = { id: c.body.id as string, time: this.clockStart, busy: false, customers: 0 };
    this.clocks.push(clock);
    return clock;
  }

  /** A clock for a new customer: one with room (a new one when all are full), or any of the shared ones. */
  private async clockWithRoom(): Promise<Clock | undefined> {
    if (CUSTOMERS_PER_CLOCK === 0) return this.pick(this.clocks);
    return this.clocks.find((c) => c.customers < CUSTOMERS_PER_CLOCK) ?? (await this.newClock('signup'));
  }

  private async signup(): Promise<void> {
    const onClock = this.random() < 0.25;
    const clock = onClock ? await this.clockWithRoom() : undefined;
    if (onClock && !clock) return;
    // Counted before the customer exists, so concurrent sign-ups do not overfill a clock.
    if (clock) clock.customers += 1;
    const customer = await this.request('signup', 'POST', '/v1/customers', {
      email: `soak-${randomBytes(5).toString('hex')}@example.is`,
      ...(clock ? { test_clock: clock.id } : {}),
    });
    if (customer?.status !== 201) return;
    this.customers.push(customer.body.id);
    const pm = await this.request('signup', 'POST', `/v1/test_helpers/customers/${customer.body.id}/payment_methods`, {
      card_number: '4242424242424242',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 5,
      cvc: '123',
    });
    if (pm?.status !== 201) return;
    const sub = await this.request('signup', 'POST', '/v1/subscriptions', { customer: customer.body.id, items: [{ price: this.priceId, quantity: 1 }] });
    if (sub?.status !== 201) return;
    this.live.push({
      customerId: customer.body.id,
      subscriptionId: sub.body.id,
      itemId: sub.body.items[0].id,
      paymentMethodId: pm.body.id,
      paused: false,
      cancelAtPeriodEnd: false,
      quantity: 1,
    });
    if (LIVE_MAX > 0 && this.live.length > LIVE_MAX) await this.churn();
  }

  /** A customer leaves: one live subscription, at random, canceled now (taken off the list first, so no command picks it). */
  private async churn(): Promise<void> {
    const i = Math.floor(this.random() * (this.live.length - 1));
    const [gone] = this.live.splice(i, 1);
    if (!gone) return;
    await this.request('cancel', 'POST', `/v1/subscriptions/${gone.subscriptionId}/cancel`, {}, { expected: [409] });
  }

  private async usage(batch: boolean): Promise<void> {
    const customer = this.pick(this.customers);
    if (!customer) return;
    const n = batch ? 100 : 1;
    const events = Array.from({ length: n }, () => ({ event_name: 'api_call', customer, idempotency_key: `u-${randomBytes(8).toString('hex')}` }));
    const res = batch ? await this.request('usage_batch', 'POST', '/v1/events/batch', { events }) : await this.request('usage', 'POST', '/v1/events', events[0]);
    const into = res && res.status < 300 ? this.usageAcked : res && res.status < 500 ? null : this.usageUnknown;
    if (into) into.set(customer, (into.get(customer) ?? 0) + n);
  }

  private async command(): Promise<void> {
    const s = this.pick(this.live.filter((l) => l.subscriptionId));
    if (!s) return;
    const r = this.random();
    // Refusals the state may bring (a clock advancing, a canceled subscription) are expected answers.
    const expected = [409];
    if (r < 0.34) {
      const res = await this.request('command', 'POST', `/v1/subscriptions/${s.subscriptionId}/${s.paused ? 'resume' : 'pause'}`, {}, { expected });
      if (res?.status === 200) s.paused = res.body.pause_collection !== null;
    } else if (r < 0.67) {
      const res = await this.request('command', 'POST', `/v1/subscriptions/${s.subscriptionId}`, { cancel_at_period_end: !s.cancelAtPeriodEnd }, { expected });
      if (res?.status === 200) s.cancelAtPeriodEnd = res.body.cancel_at_period_end;
    } else {
      const quantity = 1 + Math.floor(this.random() * 5);
      const res = await this.request('command', 'POST', `/v1/subscription_items/${s.itemId}`, { quantity, proration_behavior: 'create_prorations' }, { expected });
      if (res?.status === 200) s.quantity = quantity;
    }
  }

  private async refund(): Promise<void> {
    const s = this.pick(this.live);
    if (!s) return;
    const pay = await this.request('refund', 'POST', '/v1/payments', { amount: 1000, currency: 'ISK', customer: s.customerId, payment_method: s.paymentMethodId });
    if (pay?.status !== 201 || pay.body.status !== 'succeeded') return;
    await this.request('refund', 'POST', '/v1/refunds', { payment: pay.body.id, amount: 100 });
  }

  private async advance(): Promise<void> {
    const clock = this.pick(this.clocks.filter((c) => !c.busy));
    if (!clock) return;
    clock.busy = true;
    try {
      const to = clock.time + 86_400_000;
      // A clock still advancing refuses the next advance (409): an expected answer, counted apart.
      const res = await this.request('advance', 'POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: new Date(to).toISOString() }, { expected: [409] });
      if (res?.status === 200) {
        clock.time = to;
        this.advancesAccepted += 1;
      }
    } finally {
      clock.busy = false;
    }
  }

  private async read(): Promise<void> {
    const r = this.random();
    const s = this.pick(this.live);
    if (r < 0.3 && s) await this.request('read', 'GET', `/v1/customers/${s.customerId}`);
    else if (r < 0.6 && s) await this.request('read', 'GET', `/v1/subscriptions/${s.subscriptionId}`);
    else if (r < 0.8) await this.request('read', 'GET', `/v1/invoices?limit=10${s ? `&customer=${s.customerId}` : ''}`);
    else await this.request('read', 'GET', '/v1/customers?limit=10');
  }

  /** One arrival of the mix. */
  async arrival(): Promise<void> {
    this.window.arrivals += 1;
    this.total.arrivals += 1;
    const r = this.random();
    if (r < 0.5) return this.read();
    if (r < 0.7) return this.usage(this.random() < 0.25);
    if (r < 0.8) return this.signup();
    if (r < 0.9) return this.command();
    if (r < 0.95) return this.refund();
    return this.advance();
  }

  /** Runs arrivals at `rate` per second for `seconds` (at most `maxArrivals`), reporting every REPORT_SECONDS. */
  async run(rate: number, seconds: number, maxArrivals: number, service: Service): Promise<RunResult> {
    this.total = newWindow();
    this.window = newWindow();
    const started = performance.now();
    const cpuAtStart = cpuSample(service.pids);
    this.windowCpu = { at: started, cpu: cpuAtStart };
    this.runMachine = this.windowMachine = machineSample(this.temporalPid);
    this.runPostgresMs = 0;
    this.windowInvoices = await this.subscriptionInvoices();
    this.windowPg = await this.pgStats();
    for (const url of service.metricsUrls) {
      const samples = (await scrapePrometheus(url).catch(() => null)) ?? [];
      this.windowGc.set(
        url,
        samples.filter((x) => x.name === 'nodejs_gc_duration_seconds_sum').reduce((acc, x) => acc + x.value, 0),
      );
    }
    this.advancesAccepted = 0;
    const pending = new Set<Promise<void>>();
    const rss: Array<{ t: number; mib: number }> = [];
    let sent = 0;
    const interval = 1000 / rate;
    const report = setInterval(() => void this.report(service, (performance.now() - started) / 1000, rss), REPORT_SECONDS * 1000);
    try {
      // Open loop: the n-th arrival is due at n / rate seconds, whatever happened to the earlier ones.
      while (sent < maxArrivals && performance.now() - started < seconds * 1000) {
        const due = started + sent * interval;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const p = this.arrival().catch((err: unknown) => console.log(`    arrival failed in the client: ${(err as Error).message}`));
        pending.add(p);
        void p.finally(() => pending.delete(p));
        sent += 1;
      }
      await Promise.all(pending);
    } finally {
      clearInterval(report);
    }
    await this.report(service, (performance.now() - started) / 1000, rss);
    const elapsed = (performance.now() - started) / 1000;
    const cpu = cpuFigures(cpuAtStart, cpuSample(service.pids), elapsed, this.total.arrivals, this.total.requests, this.helloUs);
    const machine = machineLine(
      this.runMachine!,
      machineSample(this.temporalPid),
      cpu.reduce((a, f) => a + f.core, 0),
      this.runPostgresMs,
    );
    return { ...this.total, rss, liveAtEnd: this.live.length, cpu, elapsed, machine };
  }

  /** Invoices of subscriptions (first invoices and renewals) in the database so far. */
  private async subscriptionInvoices(): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM invoices WHERE merchant_id = ${this.merchantId} AND subscription_id IS NOT NULL`;
    return Number(rows[0]!.n);
  }

  /** Sessions PostgreSQL has started for this database (connections opened) and transactions it committed, so far. */
  private async pgStats(): Promise<{ sessions: number; commits: number } | null> {
    const rows = await this.db.$queryRaw<
      Array<{ sessions: bigint; commits: bigint }>
    >`SELECT sessions, xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()`.catch(() => []);
    return rows[0] ? { sessions: Number(rows[0].sessions), commits: Number(rows[0].commits) } : null;
  }

  private async report(service: Service, elapsed: number, rss: Array<{ t: number; mib: number }>): Promise<void> {
    const w = this.window;
    this.window = newWindow();
    const now = { at: performance.now(), cpu: cpuSample(service.pids) };
    const cpu = cpuFigures(this.windowCpu.cpu, now.cpu, (now.at - this.windowCpu.at) / 1000, w.arrivals, w.requests, this.helloUs);
    this.windowCpu = now;
    const machineNow = machineSample(this.temporalPid);
    const machine = this.windowMachine
      ? machineLine(
          this.windowMachine,
          machineNow,
          cpu.reduce((a, f) => a + f.core, 0),
        )
      : 'n/a';
    if (this.windowMachine) this.runPostgresMs += commandCpuDelta(this.windowMachine.postgres, machineNow.postgres) ?? 0;
    this.windowMachine = machineNow;
    const invoices = await this.subscriptionInvoices().catch(() => NaN);
    const newInvoices = invoices - this.windowInvoices;
    this.windowInvoices = invoices;
    const advances = this.advancesAccepted;
    this.advancesAccepted = 0;
    const mibs = Object.entries(service.pids).map(([name, pid]) => [name, rssMiB(pid)] as const);
    const totalMib = mibs.reduce((a, [, m]) => a + m, 0);
    rss.push({ t: elapsed, mib: totalMib });
    const pgNow = await this.pgStats();
    const pg =
      pgNow && this.windowPg ? `${pgNow.sessions - this.windowPg.sessions} connections opened, ${fmt((pgNow.commits - this.windowPg.commits) / REPORT_SECONDS)} commits/s` : 'n/a';
    this.windowPg = pgNow;
    const pools: string[] = [];
    // Per service process: the event loop's delay (prom-client resets its histogram at each scrape,
    // so these cover the window), GC time in the window and the heap in use.
    const loops: string[] = [];
    for (const url of service.metricsUrls) {
      const samples = (await scrapePrometheus(url).catch(() => null)) ?? [];
      const one = (name: string) => samples.find((x) => x.name === name)?.value;
      const gc = samples.filter((x) => x.name === 'nodejs_gc_duration_seconds_sum').reduce((a, x) => a + x.value, 0);
      const gcWindow = gc - (this.windowGc.get(url) ?? 0);
      this.windowGc.set(url, gc);
      const lagP99 = one('nodejs_eventloop_lag_p99_seconds');
      const lagMax = one('nodejs_eventloop_lag_max_seconds');
      const heap = one('nodejs_heap_size_used_bytes');
      if (lagP99 !== undefined) {
        loops.push(
          `${new URL(url).port}: event-loop delay p99 ${fmt(lagP99 * 1000)} ms, max ${fmt((lagMax ?? NaN) * 1000)} ms; GC ${fmt((gcWindow / REPORT_SECONDS) * 100, 1)} % of the time; heap ${fmt((heap ?? NaN) / 2 ** 20)} MiB`,
        );
      }
      const byPool = new Map<string, Record<string, number>>();
      for (const s of samples) {
        if (s.name !== 'billing_db_pool_connections') continue;
        const pool = s.labels.pool ?? '?';
        byPool.set(pool, { ...(byPool.get(pool) ?? {}), [s.labels.state ?? '?']: s.value });
      }
      for (const [pool, v] of byPool) pools.push(`${pool} ${v.in_use ?? 0}/${v.size ?? 0} in use, ${v.waiting ?? 0} waiting`);
    }
    const kinds = kindPercentiles(w.latencies);
    const errors = [...w.errors.entries()].map(([c, n]) => `${c} ${n}`).join(', ') || 'none';
    console.log(
      `  ${fmt(elapsed).padStart(5)} s: ${fmt(w.arrivals / REPORT_SECONDS, 1)} arrivals/s, ${fmt(w.requests / REPORT_SECONDS, 1)} requests/s, in flight ${this.inFlight}, ` +
        `errors ${errors}, over 10 s ${w.over10s}; p50/p95/p99 ms ${kinds}; RSS ${mibs.map(([n, m]) => `${n} ${fmt(m)} MiB`).join(', ')}; ` +
        `pools ${pools.join('; ') || 'n/a'}; live subscriptions ${this.live.length}, test clocks ${this.clocks.length}`,
    );
    console.log(`         CPU: ${cpuLine(cpu)}`);
    console.log(`         machine: ${machine}`);
    console.log(`         work: ${fmt(newInvoices)} subscription invoices (first and renewals), ${advances} clock advances accepted; PostgreSQL: ${pg}`);
    console.log(`         event loop: ${loops.join('; ') || 'n/a'}`);
  }

  /** The consistency check, on the database. */
  async consistency(db: Db): Promise<boolean> {
    const dupInvoices = await db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM (SELECT period_key FROM invoices WHERE merchant_id = ${this.merchantId} AND period_key IS NOT NULL GROUP BY period_key HAVING count(*) > 1) d`;
    const paidTwice = await db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM (
        SELECT i.id FROM invoices i JOIN sim_charges c ON c.merchant_id = i.merchant_id AND c.status = 'succeeded' AND c.idempotency_key LIKE i.id || ':%'
        WHERE i.merchant_id = ${this.merchantId} GROUP BY i.id HAVING count(*) > 1) d`;
    const invoices = await db.$queryRaw<Array<{ n: bigint; paid: bigint }>>`
      SELECT count(*) AS n, count(*) FILTER (WHERE status = 'paid') AS paid FROM invoices WHERE merchant_id = ${this.merchantId} AND subscription_id IS NOT NULL`;
    const usage = await db.$queryRaw<Array<{ customer_id: string; n: bigint }>>`
      SELECT customer_id, count(*) AS n FROM usage_events WHERE merchant_id = ${this.merchantId} GROUP BY customer_id`;
    const stored = new Map(usage.map((u) => [u.customer_id, Number(u.n)]));
    let exact = 0;
    let withinUnknown = 0;
    let wrong = 0;
    for (const c of new Set([...this.usageAcked.keys(), ...this.usageUnknown.keys(), ...stored.keys()])) {
      const acked = this.usageAcked.get(c) ?? 0;
      const unknown = this.usageUnknown.get(c) ?? 0;
      const got = stored.get(c) ?? 0;
      if (got === acked) exact += 1;
      else if (got > acked && got <= acked + unknown) withinUnknown += 1;
      else wrong += 1;
    }
    const dup = Number(dupInvoices[0]!.n);
    const twice = Number(paidTwice[0]!.n);
    const ok = dup === 0 && twice === 0 && wrong === 0;
    console.log(
      `  consistency: ${fmt(Number(invoices[0]!.n))} subscription invoices (${fmt(Number(invoices[0]!.paid))} paid), ${dup} periods invoiced twice, ${twice} invoices paid twice; ` +
        `usage per customer: ${exact} exact, ${withinUnknown} within the events whose answer was lost, ${wrong} wrong → ${ok ? 'OK' : 'VIOLATED'}`,
    );
    return ok;
  }
}

type RunResult = Window & { rss: Array<{ t: number; mib: number }>; liveAtEnd: number; cpu: ReturnType<typeof cpuFigures>; elapsed: number; machine: string };

function summary(label: string, r: RunResult, seconds: number, rate: number, helloUs: number | null): { errors: number; p99: number } {
  const all = [...r.latencies.values()].flat().sort((a, b) => a - b);
  const errors = [...r.errors.entries()].filter(([c]) => c !== '4xx' && c !== '409').reduce((a, [, n]) => a + n, 0);
  const p99 = percentile(all, 99);
  // Least squares over the samples after the first (start-up) one.
  const pts = r.rss.slice(1);
  let slope = NaN;
  if (pts.length >= 2) {
    const mt = pts.reduce((a, p) => a + p.t, 0) / pts.length;
    const mm = pts.reduce((a, p) => a + p.mib, 0) / pts.length;
    slope = (pts.reduce((a, p) => a + (p.t - mt) * (p.mib - mm), 0) / pts.reduce((a, p) => a + (p.t - mt) ** 2, 0)) * 60;
  }
  const first = r.rss[0]?.mib ?? NaN;
  const last = r.rss[r.rss.length - 1]?.mib ?? NaN;
  console.log(
    `  ${label}: ${fmt(r.arrivals)} arrivals, ${fmt(r.requests)} requests in ${fmt(seconds)} s; errors ${[...r.errors.entries()].map(([c, n]) => `${c} ${n}`).join(', ') || 'none'} ` +
      `(counted as failures: ${errors}); over 10 s ${r.over10s}; p50/p95/p99 over all ${fmt(percentile(all, 50))}/${fmt(percentile(all, 95))}/${fmt(p99)} ms; ` +
      `RSS ${fmt(first)} → ${fmt(last)} MiB, slope ${fmt(slope, 1)} MiB/min, ${r.liveAtEnd} live subscriptions`,
  );
  // The issue's latency targets are per kind: reads p99 < 1 s, commands p99 < 2 s (over the whole run).
  console.log(`  ${label} p50/p95/p99 ms per kind over the whole run: ${kindPercentiles(r.latencies)}`);
  console.log(`  ${label} CPU over ${fmt(r.elapsed)} s (calibration: hello-world ${helloUs === null ? 'n/a' : fmt(helloUs)} µs/request): ${cpuLine(r.cpu)}`);
  console.log(`  ${label} machine over ${fmt(r.elapsed)} s: ${r.machine}`);
  // Capacity if the process (or only its main thread, which a Node process cannot spread over cores)
  // had one core to itself: 1 / CPU-seconds per request, and per arrival (the rate the target is in).
  for (const f of r.cpu) {
    const cap = (msPer: number) => (msPer > 0 ? fmt(1000 / msPer) : 'n/a');
    console.log(
      `  ${label} capacity at 100 % of one core, ${f.name}: whole process ${cap(f.perRequest)} requests/s = ${cap(f.perArrival)} arrivals/s` +
        (f.main ? `; main thread alone ${cap(f.main.perRequest)} requests/s = ${cap(f.main.perArrival)} arrivals/s` : '') +
        ` (target ${TARGET_RATE} arrivals/s; this run ${rate}/s)`,
    );
  }
  return { errors, p99 };
}

/** After the load: seconds until a read answers 200 and nothing is saturated. */
async function recovery(baseUrl: string, key: string, merchantId: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const health = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.json() as Promise<{ saturated?: string[] }>)
      .catch(() => null);
    const read = await fetch(`${baseUrl}/v1/customers?limit=1`, { headers: { Authorization: `Bearer ${key}`, 'X-Merchant-Id': merchantId }, signal: AbortSignal.timeout(5000) })
      .then((r) => r.status)
      .catch(() => 0);
    if (read === 200 && health && (health.saturated ?? []).length === 0) return (Date.now() - started) / 1000;
    if (Date.now() - started > 300_000) return Infinity;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

export async function main(): Promise<void> {
  const knee = (process.env.SOAK_KNEE ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => n > 0);
  const rates = knee.length ? knee : [RATE];
  console.log(
    `  soak: ${rates.join(', ')} arrivals/s for ${fmt(SECONDS)} s each (SOAK_RATE / SOAK_KNEE, SOAK_SECONDS), layout ${LAYOUT}, ` +
      `${CUSTOMERS_PER_CLOCK ? `${CUSTOMERS_PER_CLOCK} customers per test clock` : `${SHARED_CLOCKS} shared test clocks`}, ` +
      `live subscriptions ${LIVE_MAX ? `held at ${LIVE_MAX} by churn` : 'growing'}, machine load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  // Calibration first, before the database and Temporal start: the machine's speed in this run.
  const calibration = await helloCalibration({ durationMs: 5000 });
  console.log(
    `  calibration: bare Koa hello-world ${calibration.cpuUsPerRequest === null ? 'n/a' : fmt(calibration.cpuUsPerRequest)} µs CPU/request ` +
      `(${fmt(calibration.rps)} req/s, ${fmt(calibration.requests)} requests in 5 s, 32 clients; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
  );
  const database = await benchDatabase();
  const cli = await ensureTemporalCli((l) => console.log(l));
  const dev = await startDevServer({ cli, port: 0, log: () => undefined });
  const db = createDb(database.url, { poolSize: 2 });
  let service: Service | undefined;
  let failed = false;
  try {
    service = await startService(database.url, dev.address);
    const merchant = await createMerchant(db, { name: 'Soak merchant', currency: 'ISK' });
    const soak = new Soak(service.baseUrl, merchant.secretKey, merchant.merchant.id, Number(process.env.SOAK_SEED ?? 28), calibration.cpuUsPerRequest, db, dev.pid);
    await soak.setup();
    const results: Array<{ rate: number; errors: number; p99: number }> = [];
    for (const rate of rates) {
      const max = Number(process.env.SOAK_MAX_ARRIVALS ?? Math.ceil(rate * SECONDS));
      console.log(`  --- ${rate} arrivals/s ---`);
      const r = await soak.run(rate, SECONDS, max, service);
      const s = summary(`${rate}/s`, r, SECONDS, rate, calibration.cpuUsPerRequest);
      results.push({ rate, ...s });
      const recovered = await recovery(service.baseUrl, merchant.secretKey, merchant.merchant.id);
      console.log(`  recovered ${fmt(recovered, 1)} s after the load stopped (a read answers 200, nothing saturated)`);
      if (!(await soak.consistency(db))) failed = true;
    }
    if (knee.length) {
      const holding = results.filter((r) => r.errors === 0 && r.p99 < 2000).map((r) => r.rate);
      console.log(`  knee: the highest rate with 0 errors and p99 < 2 s: ${holding.length ? Math.max(...holding) : 'none of'} ${holding.length ? 'arrivals/s' : rates.join(', ')}`);
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    await service?.stop(failed || process.env.SOAK_KEEP_LOGS === '1');
    await db.$disconnect();
    await dev.stop();
    await database.drop().catch(() => undefined);
  }
  if (failed) throw new Error('the soak found a consistency violation');
}
