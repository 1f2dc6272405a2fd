// No call to the acquirer or the bank is made while one of our transactions is open, and a card
// payment's attempt survives a lost answer: an API instance whose gateways are wrapped so that
// every outside call first looks for a transaction of this database that has locked or written
// rows and is waiting for the application ("idle in transaction", which is what a request
// transaction waiting for the acquirer looks like). The first case plants a call inside a
// transaction and checks that the watch sees it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { testEnv, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../../support/api';
import { createApp, type BillingApp } from '../../../api/app';
import { createWorkflowClients } from '../../../src/temporal/workflow-clients';
import { listen, type HttpHandle } from '../../../boot/runtime/http';
import { scopedDb, type Tenant } from '../../../src/db/tenancy';
import type { Db } from '../../../src/db/client';
import { lockPayment } from '../../../src/domain/payments/lock-payment';
import { beginCardAttempt } from '../../../src/domain/payments/confirm-card-payment';
import { planSimulatorFault, type ModeGateways } from '../../../src/gateways';
import { created, hostedSession, payHosted } from '../payment-sessions/fixtures';
import { CARDS, simulator } from './fixtures';

const OUTSIDE_CALLS = new Set(['charge', 'refund', 'tokenizeCard', 'createClaim', 'getClaim', 'cancelClaim', 'payClaim']);

interface SeenCall {
  call: string;
  /** Transactions of this database holding row locks while waiting for the application. */
  openTransactions: number;
}

async function openTransactions(db: Db): Promise<number> {
  const rows = await db.$queryRaw<Array<{ n: number }>>`
    SELECT count(DISTINCT a.pid)::int AS n
    FROM pg_stat_activity a
    JOIN pg_locks l ON l.pid = a.pid
    JOIN pg_class c ON c.oid = l.relation
    WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
      AND a.state LIKE 'idle in transaction%'
      AND l.mode IN ('RowShareLock', 'RowExclusiveLock')
      AND c.relname IN ('payments', 'idempotency_keys', 'payment_methods', 'payment_sessions', 'customers', 'invoices')`;
  return rows[0]!.n;
}

function watched<T extends object>(target: T, name: string, db: Db, seen: SeenCall[]): T {
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver) as unknown;
      if (typeof value !== 'function' || !OUTSIDE_CALLS.has(String(prop))) return value;
      return async (...args: unknown[]) => {
        seen.push({ call: `${name}.${String(prop)}`, openTransactions: await openTransactions(db) });
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

function watchedGateways(inner: ModeGateways, db: Db, seen: SeenCall[]): ModeGateways {
  return {
    cardAcquirer: (mode) => watched(inner.cardAcquirer(mode), 'acquirer', db, seen),
    bankClaims: (mode) => watched(inner.bankClaims(mode), 'bank', db, seen),
    simulators: { cardAcquirer: watched(inner.simulators.cardAcquirer, 'acquirer', db, seen), bankClaims: watched(inner.simulators.bankClaims, 'bank', db, seen) },
  };
}

describe('outside calls are made with no transaction open', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let m: TestMerchant;
  let tenant: Tenant;
  let app: BillingApp;
  let http: HttpHandle;
  let baseUrl: string;
  let gateways: ModeGateways;
  const seen: SeenCall[] = [];
  const year = new Date().getUTCFullYear() + 2;

  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    tenant = { merchantId: m.id, mode: 'test' };
    gateways = watchedGateways(env.gateways, env.db, seen);
    app = createApp({ db: env.db, config: env.config, temporal: env.temporal, workflows: createWorkflowClients(env.temporal), gateways, log: () => undefined });
    http = await listen(app, 0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${http.port}`;
  });
  after(async () => {
    await http.close(1000);
    await app.shutdown();
  });
  beforeEach(() => void seen.splice(0));

  const api = (method: string, path: string, body?: unknown, idempotencyKey?: string) =>
    call({ baseUrl }, method, path, { key: m.secretKey, merchant: m.id, body, ...(idempotencyKey ? { idempotencyKey } : {}) });
  const newCustomer = async () => (await api('POST', '/v1/customers', { email: `c-${randomBytes(4).toString('hex')}@example.is` })).body.id as string;
  const saveCard = async (customer: string, number: string = CARDS.visa) => {
    const res = await api('POST', `/v1/test_helpers/customers/${customer}/payment_methods`, { card_number: number, exp_month: 12, exp_year: year, cvc: '123' }, `pm-${customer}`);
    assert.equal(res.status, 201, res.text);
    return res.body.id as string;
  };
  const assertNoneOpen = (expected: string[]) => {
    assert.deepEqual(
      seen.map((s) => s.call),
      expected,
    );
    assert.deepEqual(
      seen.filter((s) => s.openTransactions > 0),
      [],
    );
  };

  it('the watch sees a call planted inside a transaction that locked a payment', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer);
    const payment = (await api('POST', '/v1/payments', { amount: 500, customer, payment_method: pm, confirm: false })).body;
    seen.splice(0);
    await scopedDb(env.db, tenant).$transaction(async (tx) => {
      await lockPayment(tx, tenant, payment.id);
      const token = (await env.db.paymentMethod.findUniqueOrThrow({ where: { id: pm } })).acquirerToken!;
      await gateways.cardAcquirer('test').charge({ merchantId: m.id, token, amount: 500, currency: 'ISK', description: 'planted', idempotencyKey: `${payment.id}:planted` });
    });
    assert.deepEqual(
      seen.map((s) => [s.call, s.openTransactions > 0]),
      [['acquirer.charge', true]],
    );
  });

  it('saving a test card, creating a confirmed payment (and replaying it), confirming a payment', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer);
    assertNoneOpen(['acquirer.tokenizeCard']);
    seen.splice(0);

    const key = `pay-${randomBytes(4).toString('hex')}`;
    const first = await api('POST', '/v1/payments', { amount: 1200, customer, payment_method: pm }, key);
    assert.deepEqual([first.status, first.body.status], [201, 'succeeded'], first.text);
    const again = await api('POST', '/v1/payments', { amount: 1200, customer, payment_method: pm }, key);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assertNoneOpen(['acquirer.charge']);
    seen.splice(0);

    const later = (await api('POST', '/v1/payments', { amount: 700, customer, payment_method: pm, confirm: false })).body;
    const confirmed = await api('POST', `/v1/payments/${later.id}/confirm`, {});
    assert.deepEqual([confirmed.status, confirmed.body.status], [200, 'succeeded'], confirmed.text);
    assertNoneOpen(['acquirer.charge']);
  });

  it('the same Idempotency-Key twice at once: one executes, the other waits and replays its response', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer);
    const payment = (await api('POST', '/v1/payments', { amount: 650, customer, payment_method: pm, confirm: false })).body;
    const key = `twice-${payment.id}`;
    const [a, b] = await Promise.all([api('POST', `/v1/payments/${payment.id}/confirm`, {}, key), api('POST', `/v1/payments/${payment.id}/confirm`, {}, key)]);
    assert.deepEqual([a.status, b.status, a.body.status], [200, 200, 'succeeded'], `${a.text}\n${b.text}`);
    assert.equal(a.text, b.text);
    assert.deepEqual([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')].sort(), ['true', null].sort());
    const charges = (await simulator(env).listCharges(m.id, { limit: 100 })).filter((c) => c.idempotencyKey.startsWith(`${payment.id}:`));
    assert.equal(charges.length, 1);
  });

  it('paying in checkout, saving the card', async () => {
    const customer = await newCustomer();
    const s = await created(await hostedSession(m, { customer, save_payment_method: true }));
    const res = await payHosted({ baseUrl }, s.id, { save_payment_method: true });
    assert.deepEqual([res.status, res.body.outcome, res.body.status], [200, 'succeeded', 'complete'], res.text);
    assertNoneOpen(['acquirer.charge', 'acquirer.tokenizeCard']);
    const pms = (await api('GET', `/v1/payment_methods?customer=${customer}`)).body.data;
    assert.equal(pms.length, 1);
  });

  it('an answer lost after the charge: 503, the payment stays processing, the same request again gets the one charge', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer);
    const payment = (await api('POST', '/v1/payments', { amount: 900, customer, payment_method: pm, confirm: false })).body;
    planSimulatorFault({ merchantId: m.id, operation: 'charge', kind: 'timeout' });
    const key = `confirm-${payment.id}`;
    const lost = await api('POST', `/v1/payments/${payment.id}/confirm`, {}, key);
    expectError(lost, 503, 'service_unavailable');
    assert.equal((await api('GET', `/v1/payments/${payment.id}`)).body.status, 'processing');
    const retried = await api('POST', `/v1/payments/${payment.id}/confirm`, {}, key);
    assert.deepEqual([retried.status, retried.body.status], [200, 'succeeded'], retried.text);
    const row = await env.db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    assert.deepEqual([row.attemptCount, row.attemptHeldUntil], [1, null]);
    const charges = (await simulator(env).listCharges(m.id, { limit: 100 })).filter((c) => c.idempotencyKey.startsWith(`${payment.id}:`));
    assert.deepEqual(
      charges.map((c) => [c.idempotencyKey, c.status]),
      [[`${payment.id}:attempt:1`, 'succeeded']],
    );
    assertNoneOpen(['acquirer.tokenizeCard', 'acquirer.charge', 'acquirer.charge']);
  });

  it('POST /v1/payments whose answer was lost: the retry with its Idempotency-Key resumes the payment it created', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer);
    planSimulatorFault({ merchantId: m.id, operation: 'charge', kind: 'timeout' });
    const key = `create-${randomBytes(4).toString('hex')}`;
    expectError(await api('POST', '/v1/payments', { amount: 1300, customer, payment_method: pm }, key), 503, 'service_unavailable');
    const retried = await api('POST', '/v1/payments', { amount: 1300, customer, payment_method: pm }, key);
    assert.deepEqual([retried.status, retried.body.status, retried.body.amount], [201, 'succeeded', 1300], retried.text);
    const charges = (await simulator(env).listCharges(m.id, { limit: 100 })).filter((c) => c.idempotencyKey.startsWith(`${retried.body.id}:`));
    assert.deepEqual(
      charges.map((c) => c.idempotencyKey),
      [`${retried.body.id}:attempt:1`],
    );
    assert.equal(await env.db.payment.count({ where: { merchantId: m.id, amount: 1300n } }), 1);
    assertNoneOpen(['acquirer.tokenizeCard', 'acquirer.charge', 'acquirer.charge']);
  });

  it('a request that died between the charge and the outcome: refused while it holds the attempt, resumed after', async () => {
    const customer = await newCustomer();
    const pm = await saveCard(customer);
    const payment = (await api('POST', '/v1/payments', { amount: 1100, customer, payment_method: pm, confirm: false })).body;
    // The dead request: it recorded its attempt and the acquirer charged it; nothing more.
    const attempt = await scopedDb(env.db, tenant).$transaction((tx) => beginCardAttempt(tx, tenant, { paymentId: payment.id, source: { paymentMethodId: pm } }, new Date()));
    const token = (await env.db.paymentMethod.findUniqueOrThrow({ where: { id: pm } })).acquirerToken!;
    const charged = await simulator(env).charge({
      merchantId: m.id,
      token,
      amount: 1100,
      currency: 'ISK',
      description: attempt.description,
      idempotencyKey: `${payment.id}:attempt:1`,
    });
    assert.equal(charged.status, 'succeeded');
    expectError(await api('POST', `/v1/payments/${payment.id}/confirm`, {}), 409, 'invalid_state', 'payment');
    // Its hold runs out.
    await env.db.payment.update({ where: { id: payment.id }, data: { attemptHeldUntil: new Date(Date.now() - 1000) } });
    const resumed = await api('POST', `/v1/payments/${payment.id}/confirm`, {});
    assert.deepEqual([resumed.status, resumed.body.status], [200, 'succeeded'], resumed.text);
    const row = await env.db.payment.findUniqueOrThrow({ where: { id: payment.id } });
    assert.deepEqual([row.attemptCount, row.acquirerChargeId], [1, charged.status === 'succeeded' ? charged.chargeId : null]);
    const charges = (await simulator(env).listCharges(m.id, { limit: 100 })).filter((c) => c.idempotencyKey.startsWith(`${payment.id}:`));
    assert.equal(charges.length, 1);
    assertNoneOpen(['acquirer.tokenizeCard', 'acquirer.charge']);
  });
});
