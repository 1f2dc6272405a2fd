// No request holds a database transaction while it waits on Temporal or an outside system
// (docs/architecture.md "No outside call inside a database transaction"; issue 28). An API
// instance gets a pool of its own, told apart in pg_stat_activity by its application_name, a
// Temporal provider whose client is wrapped (every start, signal, query and update, through the
// workflow client modules or directly), and wrapped gateways (acquirer, bank claims). Before each
// call the wrapper looks for a transaction of that pool that is open and waiting for the
// application ("idle in transaction"): that is what a request transaction waiting for the call
// looks like. The first case plants a command inside a transaction and checks that the watch sees
// it; the others drive the routes that wait on something outside.
// Activities run in the test environment's worker; their outside calls are covered by
// test/api/payments/acquirer-outside-transactions.test.ts and the step functions' own tests.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { testEnv, type TestEnv } from '../../support/env';
import { call, newMerchant, type TestMerchant } from '../../support/api';
import { createApp, type BillingApp } from '../../../api/app';
import { listen, type HttpHandle } from '../../../src/runtime/http';
import { closeProbe, createDb, type Db } from '../../../src/db/client';
import type { TemporalProvider } from '../../../src/temporal/client';
import type { ModeGateways } from '../../../src/gateways';
import { createWorkflowClients } from '../../../src/temporal/workflow-clients';
import { scopedDb } from '../../../src/db/tenancy';

const APP_NAME = `outside-calls-${randomBytes(3).toString('hex')}`;
const GATEWAY_CALLS = new Set(['charge', 'refund', 'tokenizeCard', 'createClaim', 'getClaim', 'cancelClaim', 'payClaim']);

interface Seen {
  call: string;
  open: number;
}

describe('no transaction is held across a call to Temporal or an outside system', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let m: TestMerchant;
  let apiDb: Db;
  let app: BillingApp;
  let http: HttpHandle;
  let baseUrl: string;
  const seen: Seen[] = [];

  /** Transactions of the API's pool waiting for the application right now. */
  const openTransactions = async (): Promise<number> => {
    const rows = await env.db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = ${APP_NAME} AND state LIKE 'idle in transaction%'`;
    return rows[0]!.n;
  };
  const watch = async (name: string) => void seen.push({ call: name, open: await openTransactions() });

  /** Wraps the functions of `target` named by `which` (all when omitted): each looks first. */
  function watched<T extends object>(target: T, name: string, which?: Set<string>, deep?: (prop: string, result: unknown) => unknown): T {
    return new Proxy(target, {
      get(t, prop, receiver) {
        const value = Reflect.get(t, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string' || (which && !which.has(prop))) return value;
        return (...args: unknown[]) => {
          const result = (async () => {
            await watch(`${name}.${prop}`);
            return (value as (...a: unknown[]) => unknown).apply(t, args);
          })();
          return deep ? result.then((r) => deep(prop, r)) : result;
        };
      },
    });
  }

  /** The Temporal client, with every workflow start, signal, query and update watched (handles too). */
  function watchedClient(client: Client): Client {
    const handleCalls = new Set(['signal', 'query', 'executeUpdate', 'startUpdate', 'cancel', 'terminate', 'describe', 'result']);
    const workflow = new Proxy(client.workflow, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        if (prop === 'getHandle') return (...args: unknown[]) => watched((value as (...a: unknown[]) => object).apply(t, args), 'temporal.handle', handleCalls);
        return async (...args: unknown[]) => {
          await watch(`temporal.${prop}`);
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
    return new Proxy(client, { get: (t, prop) => (prop === 'workflow' ? workflow : Reflect.get(t, prop, t)) });
  }

  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    apiDb = createDb(env.config.databaseUrl!, { poolSize: 4, applicationName: APP_NAME });
    const temporal: TemporalProvider = {
      client: async () => watchedClient(await env.temporal.client()),
      healthy: (ms) => env.temporal.healthy(ms),
      downSince: () => env.temporal.downSince(),
      close: async () => undefined,
      address: env.temporal.address,
      namespace: env.temporal.namespace,
      taskQueue: env.temporal.taskQueue,
    };
    const inner = env.gateways;
    const gateways: ModeGateways = {
      cardAcquirer: (mode) => watched(inner.cardAcquirer(mode), 'acquirer', GATEWAY_CALLS),
      bankClaims: (mode) => watched(inner.bankClaims(mode), 'bank', GATEWAY_CALLS),
      simulators: { cardAcquirer: watched(inner.simulators.cardAcquirer, 'acquirer', GATEWAY_CALLS), bankClaims: watched(inner.simulators.bankClaims, 'bank', GATEWAY_CALLS) },
    };
    app = createApp({ db: apiDb, config: env.config, temporal, workflows: createWorkflowClients(temporal), gateways, log: () => undefined });
    http = await listen(app, 0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${http.port}`;
  });
  after(async () => {
    await http.close(1000);
    await app.shutdown();
    await closeProbe(apiDb);
    await apiDb.$disconnect();
  });
  beforeEach(() => void seen.splice(0));

  const api = async (method: string, path: string, body?: unknown, expected = [200, 201]) => {
    const res = await call({ baseUrl }, method, path, {
      key: m.secretKey,
      merchant: m.id,
      body,
      idempotencyKey: method === 'POST' ? `k-${randomBytes(6).toString('hex')}` : undefined,
    });
    assert.ok(expected.includes(res.status), `${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  /** Every watched call so far, and none with a transaction of the API's pool open. */
  const assertNoneOpen = (mustInclude: string[]) => {
    const calls = new Set(seen.map((s) => s.call));
    for (const c of mustInclude) assert.ok(calls.has(c), `expected a call ${c}; seen: ${[...calls].join(', ')}`);
    assert.deepEqual(
      seen.filter((s) => s.open > 0),
      [],
    );
  };

  it('the watch sees an update sent while a transaction of the API pool is open', async () => {
    const customer = await api('POST', '/v1/customers', { email: `w-${randomBytes(3).toString('hex')}@example.is` });
    seen.splice(0);
    const client = watchedClient(await env.temporal.client());
    await scopedDb(apiDb, { merchantId: m.id, mode: 'test' }).$transaction(async (tx) => {
      await tx.customer.findFirst({ where: { id: customer.id } });
      await client.workflow.count(`WorkflowId = 'none-${randomBytes(3).toString('hex')}'`);
    });
    assert.deepEqual(
      seen.map((s) => [s.call, s.open > 0]),
      [['temporal.count', true]],
    );
  });

  it('subscriptions: create, update, cancel at period end and back, pause, resume, item add/update/delete, cancel now, pay an invoice', async () => {
    const customer = await api('POST', '/v1/customers', { email: `s-${randomBytes(3).toString('hex')}@example.is` });
    await api('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, {
      card_number: '4242424242424242',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
      cvc: '123',
    });
    const product = await api('POST', '/v1/products', { name: 'Plan' });
    const price = await api('POST', '/v1/prices', { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: 1500, recurring: { interval: 'month' } });
    const extra = await api('POST', '/v1/prices', { product: product.id, type: 'recurring', currency: 'ISK', unit_amount: 500, recurring: { interval: 'month' } });
    const sub = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }] });
    await api('POST', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: true });
    await api('POST', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: false });
    await api('POST', `/v1/subscriptions/${sub.id}/pause`, {});
    await api('POST', `/v1/subscriptions/${sub.id}/resume`, {});
    const item = await api('POST', '/v1/subscription_items', { subscription: sub.id, price: extra.id, quantity: 2 });
    await api('POST', `/v1/subscription_items/${item.id}`, { quantity: 3 });
    await api('DELETE', `/v1/subscription_items/${item.id}`);
    const invoices = await api('GET', `/v1/invoices?subscription=${sub.id}`);
    const open = invoices.data.find((i: { status: string }) => i.status === 'open');
    if (open) await api('POST', `/v1/invoices/${open.id}/pay`, {});
    await api('POST', `/v1/subscriptions/${sub.id}/cancel`, {});
    assertNoneOpen(['acquirer.tokenizeCard', 'temporal.executeUpdateWithStart']);
  });

  it('test clocks (create, attach, advance, delete), refunds, payment sessions', async () => {
    const clock = await api('POST', '/v1/test_helpers/test_clocks', { frozen_time: new Date(Date.UTC(2031, 0, 1)).toISOString() });
    const customer = await api('POST', '/v1/customers', { email: `t-${randomBytes(3).toString('hex')}@example.is`, test_clock: clock.id });
    const pm = await api('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, { card_number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' });
    await api('POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: new Date(Date.UTC(2031, 0, 2)).toISOString() });
    const payment = await api('POST', '/v1/payments', { amount: 900, customer: customer.id, payment_method: pm.id });
    await api('POST', '/v1/refunds', { payment: payment.id, amount: 100 });
    await api('POST', '/v1/payment_sessions', { amount: 700, currency: 'ISK', return_url: 'https://example.is/done' });
    await api('DELETE', `/v1/test_helpers/test_clocks/${clock.id}`);
    assertNoneOpen(['acquirer.tokenizeCard', 'acquirer.charge']);
  });
});
