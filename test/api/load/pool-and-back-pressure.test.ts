// Under load the service refuses fast instead of wedging (docs/operations.md "Pools and
// back-pressure"): a request that cannot get a database connection in time answers 503
// service_unavailable with Retry-After (never a 500), whatever layer found the pool empty; the
// health endpoints answer from a connection of their own and name what is exhausted; beyond
// API_MAX_IN_FLIGHT a request is refused at once; and a refused request succeeds when resent
// with its Idempotency-Key after recovery.
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { testEnv, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, type ApiResponse, type TestMerchant } from '../../support/api';
import { createApp, type BillingApp } from '../../../api/app';
import { createWorkflowClients } from '../../../src/temporal/workflow-clients';
import { listen, type HttpHandle } from '../../../boot/runtime/http';
import { closeProbe, createDb, poolUse, type Db } from '../../../src/db/client';
import { attachCard, createCustomer, createPrice, ok } from '../subscriptions/fixtures';

const year = new Date().getUTCFullYear() + 3;

/** Holds every connection of `db`'s pool in an open transaction until `release()`. */
async function holdPool(db: Db, size: number): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const entered: Array<Promise<void>> = [];
  const held: Array<Promise<unknown>> = [];
  for (let i = 0; i < size; i++) {
    let inside!: () => void;
    entered.push(new Promise<void>((resolve) => (inside = resolve)));
    held.push(
      db.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          inside();
          await released;
        },
        { timeout: 120_000, maxWait: 10_000 },
      ),
    );
  }
  await Promise.all(entered);
  return {
    release: async () => {
      release();
      await Promise.all(held);
    },
  };
}

function assertRefusedForLoad(res: ApiResponse, what: string): void {
  assert.equal(res.status, 503, `${what}: ${res.status} ${res.text}`);
  expectError(res, 503, 'service_unavailable');
  assert.match(res.headers.get('retry-after') ?? '', /^[0-9]+$/, `${what}: Retry-After`);
}

describe('pool exhaustion and back-pressure', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let m: TestMerchant;

  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
  });

  describe('an exhausted pool', () => {
    const POOL = 2;
    let db: Db;
    let app: BillingApp;
    let http: HttpHandle;
    let baseUrl: string;
    const log: string[] = [];

    before(async () => {
      db = createDb(env.config.databaseUrl!, { poolSize: POOL, connectTimeoutMs: 1500 });
      app = createApp({
        db,
        config: { ...env.config, transactionMaxWaitMs: 1500 },
        temporal: env.temporal,
        workflows: createWorkflowClients(env.temporal),
        gateways: env.gateways,
        log: (l) => void log.push(l),
      });
      http = await listen(app, 0, '127.0.0.1');
      baseUrl = `http://127.0.0.1:${http.port}`;
    });
    after(async () => {
      await http.close(1000);
      await app.shutdown();
      await closeProbe(db);
      await db.$disconnect();
    });

    const api = (method: string, path: string, body?: unknown, idempotencyKey?: string) =>
      call({ baseUrl }, method, path, { key: m.secretKey, merchant: m.id, body, ...(idempotencyKey ? { idempotencyKey } : {}) });

    it('reads, writes, card saving, payment confirm and commands answer 503 with Retry-After; health names the pool; the same requests succeed after', async () => {
      // Set up on the test environment's own app (its pool is not held).
      const customer = await createCustomer(m);
      const pm = await attachCard(m, customer.id);
      const price = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 1000, recurring: { interval: 'month' } });
      const sub = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
      const payment = await ok(m.call('POST', '/v1/payments', { body: { amount: 500, customer: customer.id, payment_method: pm.id, confirm: false } }), 201);
      // Authenticated once on this app, so its auth cache knows the key.
      assert.equal((await api('GET', '/v1/merchants/current')).status, 200);

      const tag = randomBytes(4).toString('hex');
      const hold = await holdPool(db, POOL);
      const use = poolUse(db)!;
      assert.deepEqual([use.size, use.inUse, use.idle], [POOL, POOL, 0]);
      const requests: Array<[string, string, string, unknown, string | undefined]> = [
        ['list customers', 'GET', '/v1/customers', undefined, undefined],
        ['read a subscription', 'GET', `/v1/subscriptions/${sub.id}`, undefined, undefined],
        ['create a customer', 'POST', '/v1/customers', { email: `c-${tag}@example.is` }, `cust-${tag}`],
        [
          'save a test card',
          'POST',
          `/v1/test_helpers/customers/${customer.id}/payment_methods`,
          { card_number: '4242424242424242', exp_month: 12, exp_year: year, cvc: '123' },
          `pm-${tag}`,
        ],
        ['confirm a payment', 'POST', `/v1/payments/${payment.id}/confirm`, {}, `confirm-${tag}`],
        ['pause a subscription', 'POST', `/v1/subscriptions/${sub.id}/pause`, {}, `pause-${tag}`],
        // Without an Idempotency-Key a batch runs on node-postgres directly (rawTransaction), not in a Prisma transaction.
        ['ingest a batch without a key', 'POST', '/v1/events/batch', { events: [{ event_name: `pool_${tag}`, customer: customer.id, idempotency_key: `ev-${tag}` }] }, undefined],
      ];
      let health: ApiResponse;
      let ready: ApiResponse;
      try {
        for (const [what, method, path, body, key] of requests) assertRefusedForLoad(await api(method, path, body, key), what);
        // While callers queue on the pool, the health endpoints answer on their own connection.
        const waiting = api('GET', '/v1/customers');
        [health, ready] = await Promise.all([call({ baseUrl }, 'GET', '/healthz'), call({ baseUrl }, 'GET', '/readyz')]);
        assertRefusedForLoad(await waiting, 'a read queued during the health checks');
      } finally {
        await hold.release();
      }
      assert.equal(health.status, 200, health.text);
      assert.equal(health.body.database.ok, true);
      assert.equal(health.body.status, 'saturated');
      assert.deepEqual(health.body.saturated, ['database_pool']);
      assert.equal(health.body.pool.size, POOL);
      assert.equal(ready.status, 200, ready.text);
      assert.deepEqual(ready.body.saturated, ['database_pool']);
      assert.equal(ready.body.checks.pool.ok, false);
      assert.equal(log.filter((l) => /unhandled error/.test(l)).length, 0, log.join('\n'));

      // Recovered: every refused write succeeds when resent with its key, once.
      const after = new Map<string, ApiResponse>();
      for (const [what, method, path, body, key] of requests) after.set(what, await api(method, path, body, key));
      assert.deepEqual(
        [...after].map(([what, r]) => [what, r.status]),
        [
          ['list customers', 200],
          ['read a subscription', 200],
          ['create a customer', 201],
          ['save a test card', 201],
          ['confirm a payment', 200],
          ['pause a subscription', 200],
          ['ingest a batch without a key', 200],
        ],
      );
      assert.deepEqual(after.get('ingest a batch without a key')!.body, { ingested: 1, duplicates: 0, errors: [] });
      assert.equal(await env.db.usageEvent.count({ where: { merchantId: m.id, eventName: `pool_${tag}` } }), 1);
      assert.equal(after.get('confirm a payment')!.body.status, 'succeeded');
      assert.notEqual(after.get('pause a subscription')!.body.pause_collection, null);
      assert.equal(await env.db.customer.count({ where: { merchantId: m.id, email: `c-${tag}@example.is` } }), 1);
      const health2 = await call({ baseUrl }, 'GET', '/healthz');
      assert.deepEqual([health2.body.status, health2.body.saturated], ['ok', []]);
    });
  });

  describe('requests in flight beyond API_MAX_IN_FLIGHT', () => {
    const LIMIT = 2;
    let app: BillingApp;
    let http: HttpHandle;
    let baseUrl: string;

    before(async () => {
      app = createApp({
        db: env.db,
        config: { ...env.config, apiMaxInFlight: LIMIT },
        temporal: env.temporal,
        workflows: createWorkflowClients(env.temporal),
        gateways: env.gateways,
        metrics: undefined,
        log: () => undefined,
      });
      http = await listen(app, 0, '127.0.0.1');
      baseUrl = `http://127.0.0.1:${http.port}`;
    });
    after(async () => {
      await http.close(1000);
      await app.shutdown();
    });

    /** A request whose body is still arriving: it stays in flight until `finish()`. */
    async function slowRequest(): Promise<{ finish: () => Promise<string> }> {
      const body = JSON.stringify({ email: `slow-${randomBytes(3).toString('hex')}@example.is` });
      const socket = net.connect(http.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
      socket.write(
        `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer ${m.secretKey}\r\nX-Merchant-Id: ${m.id}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 5)}`,
      );
      return {
        finish: async () => {
          // The rest of the body; the server answers and closes (Connection: close).
          socket.write(body.slice(5));
          await ended;
          return answer;
        },
      };
    }

    it('refuses the next request at once with 503 and Retry-After, keeps the health endpoints open, and serves again when the load drops', async () => {
      const slow = [await slowRequest(), await slowRequest()];
      // Both are in flight (their bodies are still arriving) before the next one is sent.
      for (let i = 0; i < 50 && (await call({ baseUrl }, 'GET', '/healthz')).body.requests.current < LIMIT; i++) await new Promise((r) => setTimeout(r, 50));
      const refused = await call({ baseUrl }, 'GET', '/v1/customers', { key: m.secretKey, merchant: m.id });
      assertRefusedForLoad(refused, 'a request beyond the bound');
      assert.match(refused.body.error.message, /limit of 2 requests/);
      const [health, ready, live] = await Promise.all([call({ baseUrl }, 'GET', '/healthz'), call({ baseUrl }, 'GET', '/readyz'), call({ baseUrl }, 'GET', '/livez')]);
      assert.deepEqual(
        [health.status, health.body.status, health.body.saturated, health.body.requests],
        [200, 'saturated', ['requests_in_flight'], { current: 2, limit: 2, refused: 1 }],
      );
      assert.deepEqual([ready.status, ready.body.saturated, ready.body.checks.requests.ok], [200, ['requests_in_flight'], false]);
      assert.equal(live.status, 200);
      const answers = await Promise.all(slow.map((s) => s.finish()));
      for (const a of answers) assert.match(a, /^HTTP\/1\.1 201 /);
      const served = await call({ baseUrl }, 'GET', '/v1/customers', { key: m.secretKey, merchant: m.id });
      assert.equal(served.status, 200, served.text);
      const metrics = await call({ baseUrl }, 'GET', '/metrics');
      assert.match(metrics.text, /^billing_requests_shed_total 1$/m);
      assert.match(metrics.text, /^billing_http_in_flight\{kind="limit"\} 2$/m);
    });
  });

  describe('a command refused because its workflow update failed', () => {
    it('succeeds when resent with the same Idempotency-Key after recovery, and is applied once', async () => {
      const customer = await createCustomer(m);
      await attachCard(m, customer.id);
      const price = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 1000, recurring: { interval: 'month' } });
      const sub = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
      // Every attempt of the command's activity fails while the trigger is there (a planted fault:
      // the database refuses the command's record), so the workflow update fails for good.
      const fn = `fail_commands_${randomBytes(4).toString('hex')}`;
      await env.db.$executeRawUnsafe(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'planted: commands refused'; END $$`);
      await env.db.$executeRawUnsafe(`CREATE TRIGGER ${fn} BEFORE INSERT ON subscription_commands FOR EACH ROW WHEN (NEW.subscription_id = '${sub.id}') EXECUTE FUNCTION ${fn}()`);
      const key = `pause-${randomBytes(4).toString('hex')}`;
      let refused: ApiResponse;
      try {
        refused = await m.call('POST', `/v1/subscriptions/${sub.id}/pause`, { body: {}, idempotencyKey: key });
      } finally {
        await env.db.$executeRawUnsafe(`DROP TRIGGER ${fn} ON subscription_commands`);
        await env.db.$executeRawUnsafe(`DROP FUNCTION ${fn}()`);
      }
      assertRefusedForLoad(refused, 'the failed command');
      // Released (-1). The attempt moved on (1) when the update failed for good within the call's
      // deadline, the usual case; on a loaded machine the deadline (TEMPORAL_CALL_TIMEOUT_MS) can
      // pass first while the update's activity still retries (0): the resend then asks the same
      // update again, which the activity's next retry, the fault gone, completes. Either way the
      // resend succeeds and the command is applied once, under the key's command id.
      const stored = await env.db.idempotencyKey.findFirstOrThrow({ where: { merchantId: m.id, key } });
      assert.equal(stored.responseStatus, -1);
      assert.ok([0, 1].includes(stored.updateAttempt), `update_attempt ${stored.updateAttempt}`);

      const resent = await m.call('POST', `/v1/subscriptions/${sub.id}/pause`, { body: {}, idempotencyKey: key });
      assert.equal(resent.status, 200, resent.text);
      assert.notEqual(resent.body.pause_collection, null);
      const again = await m.call('POST', `/v1/subscriptions/${sub.id}/pause`, { body: {}, idempotencyKey: key });
      assert.equal(again.text, resent.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const commands = await env.db.subscriptionCommand.findMany({ where: { subscriptionId: sub.id, kind: 'pause' } });
      assert.deepEqual(
        commands.map((c) => c.id),
        [`${sub.id}:idem:${key}`],
      );
    });
  });
});
