import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant, liveMerchant, type LiveMerchant } from '../support/api';

describe('Idempotency-Key on POST', () => {
  let env: TestEnv, m: LiveMerchant, other: TestMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(liveMerchant, newMerchant)));

  const count = async (t: TestMerchant) => (await t.call('GET', '/v1/api_keys?limit=100')).body.data.length;

  it('replays the first response for a repeated key, whatever the later body, without executing again', async () => {
    const key = randomUUID();
    const before = await count(m);
    const first = await m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'secret', mode: 'test', label: 'first' } });
    assert.equal(first.status, 201);
    const again = await m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'publishable', mode: 'test', label: 'second' } });
    assert.equal(again.status, 201);
    // the same object; the key value itself is shown once and never stored (docs/idempotency.md)
    assert.deepEqual(again.body, { ...first.body, key: null });
    const stored = await env.db.idempotencyKey.findFirst({ where: { merchantId: m.id, key } });
    assert.equal(JSON.stringify(stored!.responseBody).includes(first.body.key), false);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(await count(m), before + 1);
  });

  it('executes concurrent requests with the same key exactly once; every caller sees that one result', async () => {
    const key = randomUUID();
    const before = await count(m);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'secret', mode: 'test', label: `c${i}` } })),
    );
    for (const r of results) assert.equal(r.status, 201, r.text);
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
    // exactly one caller saw the secret; the replays carry null
    assert.equal(results.filter((r) => typeof r.body.key === 'string').length, 1);
    assert.equal(await count(m), before + 1);
  });

  it('keys are per merchant and per mode', async () => {
    const key = randomUUID();
    const a = await m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'secret', mode: 'test' } });
    const b = await other.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'secret', mode: 'test' } });
    const live = await call(env, 'POST', '/v1/api_keys', { key: m.liveSecretKey, merchant: m.id, idempotencyKey: key, body: { type: 'secret', mode: 'live' } });
    assert.equal(live.status, 201);
    assert.equal(new Set([a.body.id, b.body.id, live.body.id]).size, 3);
    assert.equal(live.body.mode, 'live');
  });

  it('stores a 4xx outcome and replays it; the failed request wrote nothing', async () => {
    const key = randomUUID();
    const before = await count(m);
    const bad = await m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'nope', mode: 'test' } });
    expectError(bad, 400, 'validation_failed', 'type');
    const retry = await m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'secret', mode: 'test' } });
    assert.equal(retry.status, 400);
    assert.deepEqual(retry.body, bad.body);
    assert.equal(await count(m), before);
  });

  it('rejects oversized or non-ASCII keys', async () => {
    expectError(await m.call('POST', '/v1/api_keys', { idempotencyKey: 'k'.repeat(256), body: { type: 'secret', mode: 'test' } }), 400, 'validation_failed', 'Idempotency-Key');
  });

  it('forgets keys after the retention period (expired records are taken over, then purged)', async () => {
    const key = randomUUID();
    const first = await m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'secret', mode: 'test' } });
    const old = new Date(Date.now() - (env.config.idempotencyRetentionHours + 1) * 3_600_000);
    await env.db.idempotencyKey.updateMany({ where: { merchantId: m.id, key }, data: { createdAt: old } });
    const second = await m.call('POST', '/v1/api_keys', { idempotencyKey: key, body: { type: 'secret', mode: 'test' } });
    assert.equal(second.status, 201);
    assert.notEqual(second.body.id, first.body.id);
    assert.equal(second.headers.get('idempotent-replayed'), null);
  });

  // The claim sets its own lock timeout in the claiming statement (api/middleware/transaction.ts):
  // a key held by a transaction that neither commits nor rolls back is waited for a bounded time,
  // on a route with a request transaction (POST /v1/api_keys) and on a step-wise one (POST /v1/payments).
  it('waits a bounded time for a key another transaction holds, answers 409 idempotency_key_in_use, and runs once the key is free', async function () {
    this.timeout(60_000);
    const held = randomUUID();
    const heldStepwise = randomUUID();
    const holder = new Client({ connectionString: env.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      for (const key of [held, heldStepwise]) {
        await holder.query(
          `INSERT INTO idempotency_keys (merchant_id, mode, key, request_method, request_path, response_status, created_at) VALUES ($1, 'test', $2, 'POST', '/held', 0, now())`,
          [m.id, key],
        );
      }
      const before = await count(m);
      const [tx, stepwise] = await Promise.all([
        m.call('POST', '/v1/api_keys', { idempotencyKey: held, body: { type: 'secret', mode: 'test' } }),
        m.call('POST', '/v1/payments', { idempotencyKey: heldStepwise, body: { amount: 1000, currency: 'ISK' } }),
      ]);
      expectError(tx, 409, 'idempotency_key_in_use', 'Idempotency-Key');
      expectError(stepwise, 409, 'idempotency_key_in_use', 'Idempotency-Key');
      assert.equal(await count(m), before);
      await holder.query('ROLLBACK');
      const free = await m.call('POST', '/v1/api_keys', { idempotencyKey: held, body: { type: 'secret', mode: 'test' } });
      assert.equal(free.status, 201, free.text);
      assert.equal(await count(m), before + 1);
    } finally {
      await holder.end();
    }
  });
});
