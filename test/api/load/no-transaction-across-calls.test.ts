// No request and no activity holds a database transaction while it waits on Temporal or an
// outside system (docs/architecture.md "No outside call inside a database transaction", with the
// table of callers; issue 28). This file composes an API instance and a worker of its own, on a
// task queue of their own, each with a pool of its own told apart in pg_stat_activity by its
// application_name:
// - the API gets a Temporal provider whose client is wrapped (every start, signal, query and
//   update, through the workflow client modules or directly) and wrapped gateways (acquirer,
//   bank claims);
// - the worker gets wrapped gateways, a client interceptor on the Temporal client its activities
//   use (starts, signals, queries, updates) and the test-only webhook options, so its deliveries
//   go to a loopback receiver of this file that watches while the sender waits for its answer.
// Around each call the watch lists the transactions of the caller's pool that are open and
// waiting for the application ("idle in transaction") before the call and again after it; when
// one stayed so, unchanged, it holds the caller back HOLD_MS more and looks once again: the
// caller's own transaction cannot move while the call has not returned, a concurrent one (another
// activity between two of its statements) has moved on by then. One still unchanged is a
// transaction held across the call. Planted cases
// check that the watch sees such a transaction in each pool and at the receiver; the others drive
// the routes and, through them and the reconcilers, the activities that call something outside.
// The accounting routes and the accounting sync activity are covered by the accounting tests.
// Which routes and activities this file must drive is the table test/support/outside-calls.ts
// (`watch` rows; a unit test keeps it complete): the last case checks every one was requested
// (routes) or ran (activities) while the watch was on.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { Context } from '@temporalio/activity';
import type { Client, WorkflowClientInterceptor } from '@temporalio/client';
import { testEnv, type TestEnv } from '../../support/env';
import { call, newMerchant, type TestMerchant } from '../../support/api';
import { createApp, type BillingApp } from '../../../api/app';
import { listen, type HttpHandle } from '../../../boot/runtime/http';
import { closeProbe, createDb, type Db } from '../../../src/db/client';
import type { TemporalProvider } from '../../../src/temporal/client';
import { createGateways, type ModeGateways } from '../../../src/gateways';
import { createWorkflowClients } from '../../../src/temporal/workflow-clients';
import { scopedDb } from '../../../src/db/tenancy';
import { recordEvent } from '../../../src/events/record-event';
import { createBillingWorker, type WorkerHandle } from '../../../boot/runtime/worker';
import type { WebhookTestingOptions } from '../../../src/domain/webhooks/testing';
import { eventually, TEST_CARDS } from '../subscriptions/fixtures';
import { payHosted } from '../payment-sessions/fixtures';
import { testTls } from '../webhooks/harness';
import { openPortal } from '../customer-portals/fixtures';
import { newDashboardUser, signInHttp } from '../../support/dashboard';
import { AREAS } from '../../../api/areas';
import { declarationsOf } from '../../../api/route';
import { ACTIVITY_COVERAGE, ROUTE_COVERAGE, coveredBy, routeOfRequest } from '../../support/outside-calls';

const RUN = randomBytes(3).toString('hex');
/** The API's pool, the worker's, and one for the planted worker-side cases (so they never meet the worker's real calls). */
type Pool = 'api' | 'worker' | 'planted';
const APP_NAME: Record<Pool, string> = { api: `outside-calls-api-${RUN}`, worker: `outside-calls-worker-${RUN}`, planted: `outside-calls-planted-${RUN}` };
const TASK_QUEUE = `outside-calls-${RUN}`;
const GATEWAY_CALLS = new Set(['charge', 'refund', 'tokenizeCard', 'createClaim', 'getClaim', 'cancelClaim', 'payClaim']);
const HANDLE_CALLS = new Set(['signal', 'query', 'executeUpdate', 'startUpdate', 'cancel', 'terminate', 'describe', 'result']);

/**
 * The activities the worker must have run with the watch on by the end of this file. Not driven
 * here (docs/architecture.md's table says why): expirePaymentSession (its timer is 24 h away; the
 * sweeper runs the same expiry), runSubscriptionPeriodEnd, sendSubscriptionTrialNotice and
 * finalizeSubscriptionInvoice (only histories from before the one-activity renewal patch call them;
 * runSubscriptionSteps runs the same domain steps), and the accounting activities.
 */
const DRIVEN_ACTIVITIES = [
  'attachSubscriptionWorkflow',
  'applySubscriptionCommand',
  'runSubscriptionSteps',
  'invoiceCollectionState',
  'chargeSubscriptionInvoice',
  'checkSubscriptionBankClaim',
  'syncSubscriptionClock',
  'markSubscriptionWorkflowEnded',
  'notifyClockSubscriptions',
  'completeClockAdvance',
  'reconcileSubscriptionWorkflows',
  'refundAtAcquirer',
  'recordRefundOutcome',
  'startPendingRefundWorkflows',
  'sweepOverduePaymentSessions',
  'nextWebhookAttemptNumber',
  'attemptWebhookDelivery',
  'dispatchUndispatchedEvents',
  'purgeExpiredIdempotencyKeys',
  'purgeOldRateLimitWindows',
];

/** Calls the worker must have made with the watch on: `activity: call` (the receiver's side for deliveries). */
const ACTIVITY_CALLS = [
  'applySubscriptionCommand: temporal.start',
  'chargeSubscriptionInvoice: acquirer.charge',
  'chargeSubscriptionInvoice: temporal.start',
  'checkSubscriptionBankClaim: bank.getClaim',
  'dispatchUndispatchedEvents: temporal.start',
  'markSubscriptionWorkflowEnded: temporal.signal',
  'notifyClockSubscriptions: temporal.signalWithStart',
  'recordRefundOutcome: temporal.start',
  'refundAtAcquirer: acquirer.refund',
  'runSubscriptionSteps: acquirer.charge',
  'runSubscriptionSteps: bank.createClaim',
  'runSubscriptionSteps: bank.getClaim',
  'runSubscriptionSteps: temporal.signal',
  'runSubscriptionSteps: temporal.start',
  'sweepOverduePaymentSessions: temporal.start',
  'syncSubscriptionClock: temporal.signal',
  'receiver: webhook.deliver',
];

interface Seen {
  call: string;
  /** Transactions of the caller's pool idle and unchanged from before the call to after it. */
  held: number;
  /** The activity making the call (worker calls), and the last statement of each held transaction. */
  by?: string;
  last?: string[];
}
interface Idle {
  pid: number;
  xact: string;
  changed: string;
  query: string;
}

/** The activity whose code is running (the SDK keeps its context across awaits), if any. */
function activityType(): string | undefined {
  try {
    return Context.current().info.activityType;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a call that found a transaction idle across it keeps its caller waiting before looking again. */
const HOLD_MS = 500;

describe('no transaction is held across a call to Temporal or an outside system', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let m: TestMerchant;
  let apiDb: Db;
  let workerDb: Db;
  let plantedDb: Db;
  let app: BillingApp;
  let http: HttpHandle;
  let baseUrl: string;
  let worker: WorkerHandle;
  let running: Promise<void>;
  let receiver: Server;
  let receiverUrl: string;
  const sockets = new Set<Socket>();
  /** The API's calls, per test case. */
  const seen: Seen[] = [];
  /** The worker's calls and the receiver's deliveries, over the whole file (activities run on their own time). */
  const workerSeen: Seen[] = [];
  const activitiesRun = new Set<string>();
  /** The declared routes requested on this file's API instance (test/support/outside-calls.ts). */
  const requested = new Set<string>();
  const declared = declarationsOf(AREAS);
  let delivered = 0;

  const idle = (pool: Pool) =>
    env.db.$queryRaw<Idle[]>`
      SELECT pid, xact_start::text AS xact, state_change::text AS changed, left(query, 200) AS query FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${APP_NAME[pool]} AND state LIKE 'idle in transaction%'`;

  /** Runs `fn` (the call) between two looks at the pool's transactions waiting for the application. */
  async function around<T>(pool: Pool, name: string, fn: () => Promise<T>): Promise<T> {
    const before = await idle(pool);
    try {
      return await fn();
    } finally {
      const unchanged = (now: Idle[], then: Idle[]) => then.filter((b) => now.some((a) => a.pid === b.pid && a.xact === b.xact && a.changed === b.changed));
      let held = before.length === 0 ? [] : unchanged(await idle(pool), before);
      // A transaction of the caller stays idle for as long as the call does not return; one of a
      // concurrent request or activity that was only between two statements moves on meanwhile.
      if (held.length > 0) {
        await sleep(HOLD_MS);
        held = unchanged(await idle(pool), held);
      }
      const by = pool === 'worker' ? activityType() : undefined;
      (pool === 'api' ? seen : workerSeen).push({ call: name, held: held.length, ...(by ? { by } : {}), ...(held.length > 0 ? { last: held.map((h) => h.query) } : {}) });
    }
  }

  /** Wraps the functions of `target` named by `which` (all when omitted). */
  function watched<T extends object>(target: T, pool: Pool, name: string, which?: Set<string>): T {
    return new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string' || (which && !which.has(prop))) return value;
        return (...args: unknown[]) => around(pool, `${name}.${prop}`, async () => (value as (...a: unknown[]) => unknown).apply(t, args));
      },
    });
  }

  function watchedGateways(inner: ModeGateways, pool: Pool): ModeGateways {
    return {
      cardAcquirer: (mode) => watched(inner.cardAcquirer(mode), pool, 'acquirer', GATEWAY_CALLS),
      bankClaims: (mode) => watched(inner.bankClaims(mode), pool, 'bank', GATEWAY_CALLS),
      simulators: {
        cardAcquirer: watched(inner.simulators.cardAcquirer, pool, 'acquirer', GATEWAY_CALLS),
        bankClaims: watched(inner.simulators.bankClaims, pool, 'bank', GATEWAY_CALLS),
      },
    };
  }

  /** The API's Temporal client, with every workflow start, signal, query and update watched (handles too). */
  function watchedClient(client: Client): Client {
    const workflow = new Proxy(client.workflow, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        if (prop === 'getHandle') return (...args: unknown[]) => watched((value as (...a: unknown[]) => object).apply(t, args), 'api', 'temporal.handle', HANDLE_CALLS);
        return (...args: unknown[]) => around('api', `temporal.${prop}`, async () => (value as (...a: unknown[]) => unknown).apply(t, args));
      },
    });
    return new Proxy(client, { get: (t, prop) => (prop === 'workflow' ? workflow : Reflect.get(t, prop, t)) });
  }

  /** The worker's Temporal client (the one its activities get from their context), watched. */
  const workerClientWatch: WorkflowClientInterceptor = {
    start: (i, next) => around('worker', 'temporal.start', () => next(i)),
    startWithDetails: (i, next) => around('worker', 'temporal.start', () => next(i)),
    startUpdate: (i, next) => around('worker', 'temporal.startUpdate', () => next(i)),
    startUpdateWithStart: (i, next) => around('worker', 'temporal.startUpdateWithStart', () => next(i)),
    signal: (i, next) => around('worker', 'temporal.signal', () => next(i)),
    signalWithStart: (i, next) => around('worker', 'temporal.signalWithStart', () => next(i)),
    query: (i, next) => around('worker', 'temporal.query', () => next(i)),
    terminate: (i, next) => around('worker', 'temporal.terminate', () => next(i)),
    cancel: (i, next) => around('worker', 'temporal.cancel', () => next(i)),
    describe: (i, next) => around('worker', 'temporal.describe', () => next(i)),
  };

  /** The webhook receiver: while the worker's sender waits for the answer, it looks at the worker's pool. */
  async function startWatchingReceiver(): Promise<void> {
    const tls = testTls();
    receiver = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      req.resume();
      req.on('end', () => {
        void (req.url === '/planted' ? around('planted', 'planted.webhook.deliver', () => sleep(25)) : around('worker', 'webhook.deliver', () => sleep(25))).then(() => {
          delivered += 1;
          res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
        });
      });
    });
    receiver.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const address = receiver.address();
    receiverUrl = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  }

  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    apiDb = createDb(env.config.databaseUrl!, { poolSize: 4, applicationName: APP_NAME.api });
    workerDb = createDb(env.config.databaseUrl!, { poolSize: 4, applicationName: APP_NAME.worker });
    plantedDb = createDb(env.config.databaseUrl!, { poolSize: 1, applicationName: APP_NAME.planted });
    await startWatchingReceiver();
    const config = { ...env.config, taskQueue: TASK_QUEUE };
    const webhookTesting: WebhookTestingOptions = { allowLoopback: true, ca: testTls().ca, attemptTimeoutMs: 5000, retryDelaysMs: [500] };
    worker = await createBillingWorker({
      db: workerDb,
      config,
      gateways: watchedGateways(env.gateways, 'worker'),
      log: () => undefined,
      address: env.temporalAddress,
      namespace: config.temporalNamespace,
      taskQueue: TASK_QUEUE,
      webhookTesting,
      maxConcurrentActivities: 2,
      interceptors: {
        client: { workflow: [workerClientWatch] },
        activity: [
          (ctx) => ({
            inbound: {
              execute: (input, next) => {
                activitiesRun.add(ctx.info.activityType);
                return next(input);
              },
            },
          }),
        ],
      },
    });
    running = worker.run();
    const temporal: TemporalProvider = {
      client: async () => watchedClient(await env.temporal.client()),
      // The health probes (/healthz, /readyz) ask Temporal through this.
      healthy: (ms) => around('api', 'temporal.healthy', () => env.temporal.healthy(ms)),
      downSince: () => env.temporal.downSince(),
      close: async () => undefined,
      address: env.temporal.address,
      namespace: env.temporal.namespace,
      taskQueue: TASK_QUEUE,
    };
    app = createApp({
      db: apiDb,
      config,
      temporal,
      workflows: createWorkflowClients(temporal),
      gateways: watchedGateways(env.gateways, 'api'),
      webhookTesting,
      log: () => undefined,
    });
    http = await listen(app, 0, '127.0.0.1');
    http.server.on('request', (req: { method?: string; url?: string }) => {
      const r = routeOfRequest(declared, req.method ?? 'GET', req.url ?? '/');
      if (r) requested.add(r);
    });
    baseUrl = `http://127.0.0.1:${http.port}`;
    // Every event of the merchant is delivered to the receiver, through the worker's activities.
    await api('POST', '/v1/webhook_endpoints', { url: receiverUrl, events: ['*'] });
  });
  after(async () => {
    await http?.close(1000);
    await app?.shutdown();
    await worker?.shutdown();
    await running?.catch(() => undefined);
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    for (const db of [apiDb, workerDb, plantedDb]) {
      if (!db) continue;
      await closeProbe(db);
      await db.$disconnect();
    }
  });
  beforeEach(() => void seen.splice(0));

  async function api(method: string, path: string, body?: unknown, expected = [200, 201, 204]) {
    const res = await call({ baseUrl }, method, path, {
      key: m.secretKey,
      merchant: m.id,
      body,
      idempotencyKey: method === 'POST' ? `k-${randomBytes(6).toString('hex')}` : undefined,
    });
    assert.ok(expected.includes(res.status), `${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  }
  /** Every expected call was watched, and none with a transaction of the API's pool held across it. */
  const assertNoneHeld = (mustInclude: string[]) => {
    const calls = new Set(seen.map((s) => s.call));
    for (const c of mustInclude) assert.ok(calls.has(c), `expected a call ${c}; seen: ${[...calls].join(', ')}`);
    assert.deepEqual(
      seen.filter((s) => s.held > 0),
      [],
    );
  };
  const newCustomer = async (extra: Record<string, unknown> = {}) => api('POST', '/v1/customers', { email: `c-${randomBytes(3).toString('hex')}@example.is`, ...extra });
  const saveCard = (customer: string, number: string = TEST_CARDS.visa) =>
    api('POST', `/v1/test_helpers/customers/${customer}/payment_methods`, { card_number: number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' });
  const monthly = async (amount: number) => {
    const product = await api('POST', '/v1/products', { name: `Plan ${amount}` });
    return api('POST', '/v1/prices', { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: amount, recurring: { interval: 'month' } });
  };
  const clockCustomer = async (frozen: string) => {
    const clock = await api('POST', '/v1/test_helpers/test_clocks', { frozen_time: frozen });
    const customer = await newCustomer({ test_clock: clock.id });
    return { clock, customer };
  };
  const advance = async (clockId: string, to: string) => {
    await api('POST', `/v1/test_helpers/test_clocks/${clockId}/advance`, { frozen_time: to });
    await eventually(async () => ((await api('GET', `/v1/test_helpers/test_clocks/${clockId}`)).status === 'ready' ? true : undefined), `clock ${clockId} ready at ${to}`, 1200);
  };
  const invoicesOf = async (subId: string) => (await api('GET', `/v1/invoices?subscription=${subId}&limit=100`)).data as Array<{ id: string; status: string }>;
  const runWorkflow = async (name: string, input: unknown) => {
    const client = await env.temporal.client();
    const handle = await client.workflow.start(name, { taskQueue: TASK_QUEUE, workflowId: `${name}-${randomBytes(4).toString('hex')}`, args: [input] });
    return handle.result();
  };

  it('the watch sees an update sent while a transaction of the API pool is open', async () => {
    const customer = await newCustomer();
    seen.splice(0);
    const client = watchedClient(await env.temporal.client());
    await scopedDb(apiDb, { merchantId: m.id, mode: 'test' }).$transaction(async (tx) => {
      await tx.customer.findFirst({ where: { id: customer.id } });
      await client.workflow.count(`WorkflowId = 'none-${randomBytes(3).toString('hex')}'`);
    });
    assert.deepEqual(
      seen.map((s) => [s.call, s.held > 0]),
      [['temporal.count', true]],
    );
  });

  it('the watch sees an acquirer call and a webhook delivery made while a transaction of a worker-side pool is open', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer.id);
    const acquirer = watched(env.gateways.cardAcquirer('test'), 'planted', 'planted.acquirer', GATEWAY_CALLS);
    await scopedDb(plantedDb, { merchantId: m.id, mode: 'test' }).$transaction(async (tx) => {
      const row = await tx.paymentMethod.findFirstOrThrow({ where: { id: pm.id } });
      await acquirer.charge({ merchantId: m.id, token: row.acquirerToken!, amount: 100, currency: 'ISK', description: 'planted', idempotencyKey: `planted-${RUN}` });
      // A delivery sent from inside the transaction: the receiver sees it held.
      await new Promise<void>((resolve, reject) => {
        const req = request(receiverUrl.replace('/hook', '/planted'), { method: 'POST', ca: testTls().ca, headers: { 'Content-Type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end('{}');
      });
    });
    assert.deepEqual(
      workerSeen.filter((s) => s.call.startsWith('planted.')).map((s) => [s.call, s.held > 0]),
      [
        ['planted.acquirer.charge', true],
        ['planted.webhook.deliver', true],
      ],
    );
  });

  it('subscriptions: create, update, cancel at period end and back, pause, resume, item add/update/delete, cancel now, pay an invoice', async () => {
    const customer = await newCustomer();
    await saveCard(customer.id);
    const price = await monthly(1500);
    const extra = await monthly(500);
    const sub = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }] });
    await api('POST', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: true });
    await api('POST', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: false });
    await api('POST', `/v1/subscriptions/${sub.id}/pause`, {});
    await api('POST', `/v1/subscriptions/${sub.id}/resume`, {});
    const item = await api('POST', '/v1/subscription_items', { subscription: sub.id, price: extra.id, quantity: 2 });
    await api('POST', `/v1/subscription_items/${item.id}`, { quantity: 3 });
    await api('DELETE', `/v1/subscription_items/${item.id}`);
    const open = (await invoicesOf(sub.id)).find((i) => i.status === 'open');
    if (open) await api('POST', `/v1/invoices/${open.id}/pay`, {});
    await api('POST', `/v1/subscriptions/${sub.id}/cancel`, {});
    assertNoneHeld(['acquirer.tokenizeCard', 'temporal.executeUpdateWithStart']);
  });

  it('test clocks (create, attach, advance, delete), payments, refunds, payment sessions, checkout, a delivery retry', async () => {
    const clock = await api('POST', '/v1/test_helpers/test_clocks', { frozen_time: new Date(Date.UTC(2031, 0, 1)).toISOString() });
    const customer = await newCustomer();
    await api('POST', `/v1/test_helpers/test_clocks/${clock.id}/customers`, { customer: customer.id });
    const pm = await saveCard(customer.id);
    await api('POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: new Date(Date.UTC(2031, 0, 2)).toISOString() });
    const payment = await api('POST', '/v1/payments', { amount: 900, customer: customer.id, payment_method: pm.id });
    const later = await api('POST', '/v1/payments', { amount: 800, customer: customer.id, payment_method: pm.id, confirm: false });
    await api('POST', `/v1/payments/${later.id}/confirm`, {});
    const refund = await api('POST', '/v1/refunds', { payment: payment.id, amount: 100 });
    const session = await api('POST', '/v1/payment_sessions', { amount: 700, currency: 'ISK', return_url: 'https://example.is/done' });
    const paid = await payHosted({ baseUrl }, session.id);
    assert.equal(paid.status, 200, paid.text);
    await api('DELETE', `/v1/test_helpers/test_clocks/${clock.id}`);
    // The refund's workflow ran on the watched worker, and its events were delivered.
    await eventually(async () => ((await api('GET', `/v1/refunds/${refund.id}`)).status === 'succeeded' ? true : undefined), `refund ${refund.id} succeeded`);
    const delivery = await eventually(async () => {
      const list = await api('GET', '/v1/webhook_deliveries?limit=100');
      return (list.data as Array<{ id: string; status: string }>).find((d) => d.status === 'succeeded');
    }, 'a delivered webhook');
    await api('POST', `/v1/webhook_deliveries/${delivery.id}/retry`, {});
    assertNoneHeld(['acquirer.tokenizeCard', 'acquirer.charge', 'temporal.start', 'temporal.handle.signal']);
  });

  it('renewals on a test clock: a declined renewal paid by hand, a bank-claim invoice paid late, another checked by hand and voided, a cancellation', async () => {
    const { clock, customer } = await clockCustomer('2031-03-01T12:00:00.000Z');
    const pm = await saveCard(customer.id, TEST_CARDS.recovering);
    const price = await monthly(2500);
    const card = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }] });
    const payer = await newCustomer({ kennitala: '1201743399', test_clock: clock.id });
    const bank = await api('POST', '/v1/subscriptions', { customer: payer.id, items: [{ price: price.id }], collection_method: 'send_invoice', days_until_due: 10 });
    await advance(clock.id, '2031-03-02T00:00:00.000Z');

    // The card's first invoice was declined: the card recovers, the invoice is paid by hand.
    const declined = await eventually(async () => (await invoicesOf(card.id)).find((i) => i.status === 'open'), 'an open card invoice');
    const row = await env.db.paymentMethod.findUniqueOrThrow({ where: { id: pm.id } });
    await createGateways({ mode: 'test', db: env.db }).cardAcquirer.setCardBehaviour({ merchantId: m.id, token: row.acquirerToken!, behaviour: 'succeed' });
    const manual = await api('POST', `/v1/invoices/${declined.id}/pay`, {});
    assert.equal(manual.status, 'paid');

    // The bank claim's invoice, paid late at the bank.
    const claim = await eventually(async () => (await invoicesOf(bank.id)).find((i) => i.status === 'open'), 'an open bank invoice');
    await advance(clock.id, '2031-03-15T00:00:00.000Z');
    const paidLate = await api('POST', `/v1/test_helpers/invoices/${claim.id}/pay_bank_claim`, {});
    assert.equal(paidLate.status, 'paid');

    // A renewal of both; the bank invoice's claim checked by hand (still unpaid at the bank); the end of both.
    await advance(clock.id, '2031-04-02T00:00:00.000Z');
    const renewed = await eventually(async () => (await invoicesOf(bank.id)).find((i) => i.status === 'open'), 'the renewal bank invoice');
    await api('POST', `/v1/invoices/${renewed.id}/pay`, {}, [200, 402, 409]);
    assert.equal((await api('POST', `/v1/invoices/${renewed.id}/void`, {})).status, 'void');
    await api('POST', `/v1/subscriptions/${card.id}/cancel`, {});
    await api('POST', `/v1/subscriptions/${bank.id}/cancel`, {});
    assertNoneHeld(['acquirer.tokenizeCard', 'bank.payClaim', 'temporal.handle.signal', 'temporal.executeUpdateWithStart']);
  });

  it('portal: cancel at period end and undo it, save a card, pay an open invoice', async () => {
    const customer = await newCustomer({ kennitala: '1201743399' });
    await saveCard(customer.id, TEST_CARDS.alwaysDeclines);
    const sub = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: (await monthly(3300)).id }] });
    const open = await eventually(async () => (await invoicesOf(sub.id)).find((i) => i.status === 'open'), 'an open invoice after the decline');
    const link = await api('POST', '/v1/customer_portals', { customer: customer.id });
    const portal = await openPortal({ baseUrl } as TestEnv, `${baseUrl}${new URL(link.url).pathname}`);
    seen.splice(0);
    const ok = async (path: string, body: unknown = {}) => {
      const res = await portal.action(path, body);
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    await ok(`/portal/api/subscriptions/${sub.id}/cancel`);
    await ok(`/portal/api/subscriptions/${sub.id}/uncancel`);
    await ok('/portal/api/payment_methods', { card: { number: '5555 5555 5555 4444', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' }, make_default: true });
    assert.deepEqual(await ok(`/portal/api/invoices/${open.id}/pay`), { ok: true, notice: 'paid' });
    const cards = (await api('GET', `/v1/payment_methods?customer=${customer.id}&limit=10`)).data as Array<{ id: string }>;
    assert.ok(cards.length >= 2, JSON.stringify(cards));
    await ok(`/portal/api/payment_methods/${cards[0]!.id}/default`);
    await ok(`/portal/api/payment_methods/${cards[1]!.id}/remove`);
    await ok('/portal/api/billing_details', { email: `p-${randomBytes(3).toString('hex')}@example.is`, billing_city: 'Reykjavík' });
    await ok('/portal/api/sign_out');
    assertNoneHeld(['acquirer.tokenizeCard', 'temporal.executeUpdateWithStart', 'temporal.start']);
  });

  it('dashboard: pay an open invoice, void another, pause and resume its subscription, refund a payment, retry a delivery', async () => {
    const customer = await newCustomer();
    await saveCard(customer.id, TEST_CARDS.alwaysDeclines);
    const sub = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: (await monthly(4100)).id }] });
    const open = await eventually(async () => (await invoicesOf(sub.id)).find((i) => i.status === 'open'), 'an open invoice after the decline');
    const good = await saveCard(customer.id);
    await api('POST', `/v1/payment_methods/${good.id}/set_default`, {});
    const payment = await api('POST', '/v1/payments', { amount: 600, customer: customer.id, payment_method: good.id });
    const delivery = await eventually(async () => {
      const list = await api('GET', '/v1/webhook_deliveries?limit=100');
      return (list.data as Array<{ id: string; status: string }>).find((d) => d.status === 'succeeded');
    }, 'a delivered webhook');
    const user = await newDashboardUser(env, m.id, 'owner');
    const session = await signInHttp({ baseUrl }, user.email);
    seen.splice(0);
    const form = async (path: string, fields: Record<string, string> = {}) => {
      const res = await fetch(`${baseUrl}/dashboard${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: session.cookie, Origin: baseUrl },
        body: new URLSearchParams({ _csrf: session.csrf, _idem: randomBytes(12).toString('hex'), ...fields }).toString(),
      });
      assert.equal(res.status, 303, `${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    };
    await form(`/invoices/${open.id}/pay`);
    // A second subscription's open invoice (declined card), voided from the dashboard.
    const other = await newCustomer();
    await saveCard(other.id, TEST_CARDS.alwaysDeclines);
    const otherSub = await api('POST', '/v1/subscriptions', { customer: other.id, items: [{ price: (await monthly(4200)).id }] });
    const toVoid = await eventually(async () => (await invoicesOf(otherSub.id)).find((i) => i.status === 'open'), 'an open invoice to void');
    seen.splice(0);
    await form(`/invoices/${toVoid.id}/void`);
    assert.equal((await api('GET', `/v1/invoices/${toVoid.id}`)).status, 'void');
    assertNoneHeld(['temporal.executeUpdateWithStart']);
    await form(`/subscriptions/${sub.id}/pause`);
    await form(`/subscriptions/${sub.id}/resume`);
    await form(`/payments/${payment.id}/refund`, { amount: '100' });
    await form(`/developers/deliveries/${delivery.id}/retry`);
    assert.equal((await api('GET', `/v1/invoices/${open.id}`)).status, 'paid');
    assertNoneHeld(['temporal.executeUpdateWithStart', 'temporal.start', 'temporal.signalWithStart']);
  });

  it('embedded checkout, the health probes, and the other write routes', async () => {
    // Embedded checkout: the session by client secret, then paid (acquirer charge, Temporal signal).
    const shop = 'https://shop.example.is';
    await env.db.merchant.update({ where: { id: m.id }, data: { allowedOrigins: [shop] } });
    const embedded = await api('POST', '/v1/payment_sessions', { mode: 'embedded', amount: 2500, origin: shop });
    const page = async (path: string, body: unknown) => {
      const res = await call({ baseUrl }, 'POST', path, { body });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      return res.body;
    };
    assert.equal((await page('/checkout/api/embedded/session', { client_secret: embedded.client_secret, parent_origin: shop })).status, 'open');
    const paid = await page('/checkout/api/embedded/confirm', {
      client_secret: embedded.client_secret,
      parent_origin: shop,
      method: 'card',
      email: 'e@example.is',
      card: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' },
    });
    assert.equal(paid.outcome, 'succeeded', JSON.stringify(paid));
    assertNoneHeld(['acquirer.charge']);

    // The health probes ask Temporal (and PostgreSQL on a connection of their own).
    seen.splice(0);
    for (const path of ['/healthz', '/readyz']) {
      const res = await fetch(`${baseUrl}${path}`);
      assert.equal(res.status, 200, `${path}: ${await res.text()}`);
    }
    assertNoneHeld(['temporal.healthy']);

    // The other write routes (most record events: their deliveries start after commit).
    seen.splice(0);
    const customer = await newCustomer();
    await api('PATCH', `/v1/customers/${customer.id}`, { name: 'Anna' });
    const product = await api('POST', '/v1/products', { name: 'Other writes' });
    await api('PATCH', `/v1/products/${product.id}`, { description: 'changed' });
    const price = await monthly(990);
    await api('PATCH', `/v1/prices/${price.id}`, { metadata: { plan: 'x' } });
    const meter = await api('POST', '/v1/meters', { name: 'Storage', event_name: `gb_${RUN}`, aggregate_type: 'sum', aggregate_property: 'gb' });
    await api('POST', '/v1/events', { event_name: `gb_${RUN}`, customer: customer.id, idempotency_key: `e1-${RUN}`, metadata: { gb: 2 } });
    await api('POST', '/v1/events/batch', { events: [{ event_name: `gb_${RUN}`, customer: customer.id, idempotency_key: `e2-${RUN}`, metadata: { gb: 3 } }] });
    await api('DELETE', `/v1/meters/${meter.id}`);
    const endpoint = await api('POST', '/v1/webhook_endpoints', { url: 'https://hooks.example.com/other', events: ['invoice.paid'] });
    await api('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, { events: ['invoice.paid', 'invoice.voided'] });
    await api('POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { expires_in: 3600 });
    await api('DELETE', `/v1/webhook_endpoints/${endpoint.id}`);
    const key = await api('POST', '/v1/api_keys', { type: 'secret', mode: 'test', label: 'other writes' });
    const rotated = await api('POST', `/v1/api_keys/${key.id}/rotate`, {});
    await api('DELETE', `/v1/api_keys/${rotated.id ?? key.id}`);
    const pm = await saveCard(customer.id);
    const unpaid = await api('POST', '/v1/payments', { amount: 500, customer: customer.id, payment_method: pm.id, confirm: false });
    await api('POST', `/v1/payments/${unpaid.id}/cancel`, {});
    await api('DELETE', `/v1/payment_methods/${pm.id}`);
    await api('POST', '/v1/invoice_items', { customer: customer.id, amount: 1500, currency: 'ISK', description: 'Setup fee' });
    const preflight = await fetch(`${baseUrl}/v1/payment_sessions`, { method: 'OPTIONS', headers: { Origin: shop, 'Access-Control-Request-Method': 'POST' } });
    assert.ok(preflight.status < 300, `preflight: ${preflight.status}`);
    await api('POST', '/v1/vat_settings', { country: 'IS', default_vat_rate: 'standard', prices_include_vat: true });
    const portal = await api('POST', '/v1/customer_portals', { customer: customer.id });
    await api('DELETE', `/v1/customer_portals/${portal.id}`);
    // Uncancel (the command's own route; the update route's cancel_at_period_end is the other way).
    await saveCard(customer.id);
    const sub = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }] });
    await api('POST', `/v1/subscriptions/${sub.id}/cancel`, { at_period_end: true });
    await api('POST', `/v1/subscriptions/${sub.id}/uncancel`, {});
    assertNoneHeld(['temporal.start', 'temporal.executeUpdateWithStart']);
  });

  it('the reconcilers: refunds, subscriptions, undispatched events, overdue payment sessions, the purge', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer.id);
    const payment = await api('POST', '/v1/payments', { amount: 1200, customer: customer.id, payment_method: pm.id });
    // A refund whose workflow never started (the request's after-commit start was lost).
    const refund = await api('POST', '/v1/refunds', { payment: payment.id, amount: 200 });
    await eventually(async () => ((await api('GET', `/v1/refunds/${refund.id}`)).status === 'succeeded' ? true : undefined), `refund ${refund.id} succeeded`);
    // An event left undispatched and an overdue open session.
    const tenant = { merchantId: m.id, mode: 'test' } as const;
    const recent = await scopedDb(env.db, tenant).$transaction((tx) => recordEvent(tx, tenant, { type: 'customer.updated', data: { id: customer.id, object: 'customer' } }));
    const session = await api('POST', '/v1/payment_sessions', { amount: 300, currency: 'ISK', return_url: 'https://example.is/done' });
    await env.db.paymentSession.update({ where: { id: session.id }, data: { expiresAt: new Date(Date.now() - 3_600_000) } });

    await runWorkflow('refundReconcilerWorkflow', { minAgeSeconds: 0, batchSize: 50 });
    await runWorkflow('subscriptionReconcilerWorkflow', { minAgeSeconds: 0, batchSize: 50 });
    await runWorkflow('webhookDispatchReconcilerWorkflow', { minAgeSeconds: 0, batchSize: 50 });
    const swept = (await runWorkflow('paymentSessionSweeperWorkflow', { graceSeconds: 0, batchSize: 50 })) as { expired: number };
    assert.ok(swept.expired >= 1, JSON.stringify(swept));
    await runWorkflow('purgeExpiredWorkflow', { idempotencyRetentionHours: 24, batchSize: 100 });
    assert.equal((await env.db.event.findUniqueOrThrow({ where: { id: recent.id } })).dispatchedAt !== null, true);
  });

  it('every activity above ran on the watched worker, and none held a transaction of its pool across a call', async () => {
    // Deliveries of the last events are still arriving: wait until the receiver is quiet.
    let last = -1;
    while (last !== delivered) {
      last = delivered;
      await sleep(1500);
    }
    // The table's `watch` rows (test/support/outside-calls.ts): every route was requested here.
    assert.deepEqual(
      coveredBy(ROUTE_COVERAGE, 'watch').filter((r) => !requested.has(r)),
      [],
      'routes the table says this file watches, never requested',
    );
    assert.deepEqual(
      coveredBy(ACTIVITY_COVERAGE, 'watch').filter((a) => !DRIVEN_ACTIVITIES.includes(a)),
      [],
      'activities the table says this file watches, not in DRIVEN_ACTIVITIES',
    );
    const missing = DRIVEN_ACTIVITIES.filter((a) => !activitiesRun.has(a));
    assert.deepEqual(missing, [], `ran: ${[...activitiesRun].sort().join(', ')}`);
    const calls = new Set(workerSeen.map((s) => `${s.by ?? 'receiver'}: ${s.call}`));
    for (const c of ACTIVITY_CALLS) assert.ok(calls.has(c), `expected a call ${c}; seen: ${[...calls].sort().join(', ')}`);
    assert.deepEqual(
      workerSeen.filter((s) => s.held > 0 && !s.call.startsWith('planted.')),
      [],
    );
  });
});
