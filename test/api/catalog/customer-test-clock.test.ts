// POST /v1/customers with `test_clock`: the customer is attached in the same transaction.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, liveMerchant, type LiveMerchant } from '../../support/api';

describe('customers attached to a test clock at creation', () => {
  let env: TestEnv, m: LiveMerchant;
  before(async () => ([env, m] = await envAndMerchants(liveMerchant)));

  it('attaches the customer, shows the clock on create and retrieve, and the clock lists it', async () => {
    const clock = await m.call('POST', '/v1/test_helpers/test_clocks', { body: { frozen_time: '2026-01-15T00:00:00.000Z', name: 'c1' } });
    assert.equal(clock.status, 201, clock.text);
    const cus = await m.call('POST', '/v1/customers', { body: { email: 'clock@example.is', test_clock: clock.body.id } });
    assert.equal(cus.status, 201, cus.text);
    assert.equal(cus.body.test_clock, clock.body.id);
    assert.equal((await m.call('GET', `/v1/customers/${cus.body.id}`)).body.test_clock, clock.body.id);
    const plain = await m.call('POST', '/v1/customers', { body: { email: 'plain@example.is' } });
    assert.equal(plain.body.test_clock, null);
    const link = await env.db.testClockCustomer.findFirst({ where: { customerId: cus.body.id } });
    assert.equal(link?.testClockId, clock.body.id);
    // The list and PATCH present the same customer as retrieve does.
    const listed = (await m.call('GET', '/v1/customers?limit=100')).body.data as any[];
    assert.equal(listed.find((c) => c.id === cus.body.id)?.test_clock, clock.body.id);
    assert.equal(listed.find((c) => c.id === plain.body.id)?.test_clock, null);
    const patched = await m.call('PATCH', `/v1/customers/${cus.body.id}`, { body: { name: 'On a clock' } });
    assert.deepEqual([patched.status, patched.body.name, patched.body.test_clock], [200, 'On a clock', clock.body.id]);
  });

  it('an unknown or other merchant clock is refused and no customer is created', async () => {
    const other = await newMerchant(env);
    const otherClock = (await other.call('POST', '/v1/test_helpers/test_clocks', { body: { frozen_time: '2026-01-15T00:00:00.000Z' } })).body.id;
    const before = await env.db.customer.count({ where: { merchantId: m.id } });
    for (const id of ['clock_nope', otherClock]) {
      const res = await m.call('POST', '/v1/customers', { body: { email: 'x@example.is', test_clock: id } });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.error.param, 'test_clock');
    }
    expectError(await m.call('POST', '/v1/customers', { body: { email: 'x@example.is', test_clock: 5 } }), 400, 'validation_failed', 'test_clock');
    assert.equal(await env.db.customer.count({ where: { merchantId: m.id } }), before);
  });

  it('live keys cannot attach customers to test clocks', async () => {
    const res = await call(env, 'POST', '/v1/customers', { key: m.liveSecretKey, merchant: m.id, body: { email: 'live@example.is', test_clock: 'clock_x' } });
    expectError(res, 403, 'test_mode_only');
  });
});
