// Test clocks: create, retrieve, list, advance (advancing → ready through the clock's workflow),
// attach customers, delete; test mode only; tenant isolation and input errors.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { maybeRecordHistory } from '../../support/histories';
import { temporal } from '@temporalio/proto';
import { workflowIds } from '../../../src/temporal/workflow-ids';
import { advanceClock, attachToClock, clockCustomer, createClock, createCustomer, eventually, monthlyPrice, ok, subMerchant, type SubMerchant, TEST_CARDS } from './fixtures';

const E = temporal.api.enums.v1.EventType;

describe('test clocks', function () {
  this.timeout(120_000);
  let env: TestEnv, m: SubMerchant, other: SubMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(subMerchant, subMerchant)));

  it('creates a clock at a frozen time and retrieves it', async () => {
    const res = await m.call('POST', '/v1/test_helpers/test_clocks', { body: { frozen_time: '2025-01-31T10:00:00+00:00', name: 'Year of billing' } });
    assert.equal(res.status, 201, res.text);
    const c = res.body;
    assert.match(c.id, /^clock_/);
    assert.deepEqual([c.object, c.name, c.frozen_time, c.status], ['test_clock', 'Year of billing', '2025-01-31T10:00:00.000Z', 'ready']);
    assert.deepEqual(await ok(m.call('GET', `/v1/test_helpers/test_clocks/${c.id}`)), c);
  });

  it('refuses live keys with 403 test_mode_only on every route', async () => {
    const c = await createClock(m, '2025-01-01T00:00:00.000Z');
    expectError(await m.live('POST', '/v1/test_helpers/test_clocks', { body: { frozen_time: '2025-01-01T00:00:00.000Z' } }), 403, 'test_mode_only');
    expectError(await m.live('GET', '/v1/test_helpers/test_clocks'), 403, 'test_mode_only');
    expectError(await m.live('GET', `/v1/test_helpers/test_clocks/${c.id}`), 403, 'test_mode_only');
    expectError(await m.live('POST', `/v1/test_helpers/test_clocks/${c.id}/advance`, { body: { frozen_time: '2025-02-01T00:00:00.000Z' } }), 403, 'test_mode_only');
    expectError(await m.live('DELETE', `/v1/test_helpers/test_clocks/${c.id}`), 403, 'test_mode_only');
  });

  it('rejects bad input', async () => {
    const post = (body: unknown) => m.call('POST', '/v1/test_helpers/test_clocks', { body });
    expectError(await post({}), 400, 'validation_failed', 'frozen_time');
    expectError(await post({ frozen_time: 1735689600 }), 400, 'validation_failed', 'frozen_time');
    expectError(await post({ frozen_time: '2025-02-30T00:00:00Z' }), 400, 'validation_failed', 'frozen_time');
    expectError(await post({ frozen_time: '2025-01-01' }), 400, 'validation_failed', 'frozen_time');
    expectError(await post({ frozen_time: '1999-12-31T23:59:59Z' }), 400, 'validation_failed', 'frozen_time');
    expectError(await post({ frozen_time: '2025-01-01T00:00:00Z', name: 'x'.repeat(301) }), 400, 'validation_failed', 'name');
    expectError(await post({ frozen_time: '2025-01-01T00:00:00Z', name: 7 }), 400, 'validation_failed', 'name');
    // unknown fields are ignored
    assert.equal((await post({ frozen_time: '2025-01-01T00:00:00Z', colour: 'red' })).status, 201);
  });

  it('lists newest first with paging; other merchants and unknown ids are resource_missing', async () => {
    const a = await createClock(m, '2025-01-01T00:00:00.000Z', 'a');
    const b = await createClock(m, '2025-01-01T00:00:00.000Z', 'b');
    const page = await ok(m.call('GET', '/v1/test_helpers/test_clocks?limit=1'));
    assert.equal(page.data[0].id, b.id);
    assert.equal(page.has_more, true);
    const next = await ok(m.call('GET', `/v1/test_helpers/test_clocks?limit=1&starting_after=${b.id}`));
    assert.equal(next.data[0].id, a.id);
    expectError(await other.call('GET', `/v1/test_helpers/test_clocks/${a.id}`), 404, 'resource_missing', 'id');
    expectError(await other.call('GET', `/v1/test_helpers/test_clocks?starting_after=${a.id}`), 404, 'resource_missing', 'starting_after');
    expectError(await m.call('GET', '/v1/test_helpers/test_clocks/clock_nope'), 404, 'resource_missing', 'id');
    expectError(await other.call('POST', `/v1/test_helpers/test_clocks/${a.id}/advance`, { body: { frozen_time: '2025-02-01T00:00:00Z' } }), 404, 'resource_missing', 'id');
    expectError(await other.call('DELETE', `/v1/test_helpers/test_clocks/${a.id}`), 404, 'resource_missing', 'id');
  });

  it('advances: advancing until the clock workflow has caught up, then ready; the time only moves forward', async () => {
    const c = await createClock(m, '2025-01-31T00:00:00.000Z');
    expectError(
      await m.call('POST', `/v1/test_helpers/test_clocks/${c.id}/advance`, { body: { frozen_time: '2025-01-31T00:00:00.000Z' } }),
      400,
      'validation_failed',
      'frozen_time',
    );
    expectError(
      await m.call('POST', `/v1/test_helpers/test_clocks/${c.id}/advance`, { body: { frozen_time: '2025-01-30T00:00:00.000Z' } }),
      400,
      'validation_failed',
      'frozen_time',
    );
    expectError(await m.call('POST', `/v1/test_helpers/test_clocks/${c.id}/advance`, { body: {} }), 400, 'validation_failed', 'frozen_time');
    const res = await m.call('POST', `/v1/test_helpers/test_clocks/${c.id}/advance`, { body: { frozen_time: '2025-02-28T00:00:00.000Z' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'advancing');
    assert.equal(res.body.frozen_time, '2025-02-28T00:00:00.000Z');
    const ready = await eventually(async () => {
      const g = await ok(m.call('GET', `/v1/test_helpers/test_clocks/${c.id}`));
      return g.status === 'ready' ? g : undefined;
    }, 'clock ready');
    assert.equal(ready.frozen_time, '2025-02-28T00:00:00.000Z');
    const handle = env.client.workflow.getHandle(workflowIds.testClock(c.id));
    assert.deepEqual(await handle.result(), { advances: 1 });
    await maybeRecordHistory(handle, 'test-clock');
    // again: a new run of the clock's workflow
    const again = await advanceClock(m, c.id, '2025-03-31T00:00:00.000Z');
    assert.equal(again.frozen_time, '2025-03-31T00:00:00.000Z');
  });

  it('an advance wakes only the subscriptions with something due by the new time; a later one bills them exactly; a command applies at the clock time', async () => {
    const { clock: c, customer } = await clockCustomer(m, '2025-03-10T08:00:00.000Z', { card: TEST_CARDS.visa });
    const price = await monthlyPrice(m, 3100);
    const billed = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    const canceled = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    // Each workflow recorded from when it has something due: its first renewal.
    for (const id of [billed.id, canceled.id]) {
      await eventually(async () => {
        const row = await env.db.subscription.findUniqueOrThrow({ where: { id } });
        return row.clockWakeAt?.toISOString() === '2025-04-10T08:00:00.000Z' ? true : undefined;
      }, `${id} wake time recorded`);
    }
    const handle = env.client.workflow.getHandle(workflowIds.subscription(billed.id));
    const signals = async () => (await handle.fetchHistory()).events!.filter((e) => e.eventType === E.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED).length;
    const before = await signals();

    // Two advances before anything is due: ready at once, neither subscription is signalled.
    await advanceClock(m, c.id, '2025-03-12T00:00:00.000Z');
    await advanceClock(m, c.id, '2025-03-20T00:00:00.000Z');
    assert.equal(await signals(), before, 'a subscription with nothing due was not woken');
    assert.equal((await env.db.subscription.findUniqueOrThrow({ where: { id: billed.id } })).clockSyncedTo?.toISOString(), '2025-03-10T08:00:00.000Z');

    // A command applies at the clock's time, which the workflow was not told.
    const cancel = await ok(m.call('POST', `/v1/subscriptions/${canceled.id}/cancel`, { body: {} }));
    assert.equal(cancel.canceled_at, '2025-03-20T00:00:00.000Z');

    // An advance past the renewals: woken, each period billed at its boundary.
    await advanceClock(m, c.id, '2025-05-20T00:00:00.000Z');
    assert.ok((await signals()) > before, 'woken by the advance past its due time');
    const invoices = (await ok(m.call('GET', `/v1/invoices?subscription=${billed.id}&limit=10`))).data.reverse() as any[];
    assert.deepEqual(
      invoices.map((i) => [i.billing_reason, i.status, i.period_start, i.paid_at]),
      [
        ['subscription_create', 'paid', '2025-03-10T08:00:00.000Z', '2025-03-10T08:00:00.000Z'],
        ['subscription_cycle', 'paid', '2025-04-10T08:00:00.000Z', '2025-04-10T08:00:00.000Z'],
        ['subscription_cycle', 'paid', '2025-05-10T08:00:00.000Z', '2025-05-10T08:00:00.000Z'],
      ],
    );
    const row = await env.db.subscription.findUniqueOrThrow({ where: { id: billed.id } });
    assert.equal(row.clockSyncedTo?.toISOString(), '2025-05-20T00:00:00.000Z');
    assert.equal(row.clockWakeAt?.toISOString(), '2025-06-10T08:00:00.000Z');
    const canceledInvoices = (await ok(m.call('GET', `/v1/invoices?subscription=${canceled.id}&limit=10`))).data as any[];
    assert.deepEqual(
      canceledInvoices.map((i) => i.billing_reason),
      ['subscription_create'],
      'the canceled subscription billed nothing more',
    );
  });

  it('refuses an advance while the previous one is still being processed (409 invalid_state)', async () => {
    const c = await createClock(m, '2025-01-01T00:00:00.000Z');
    await env.db.testClock.update({ where: { id: c.id }, data: { status: 'advancing' } });
    expectError(await m.call('POST', `/v1/test_helpers/test_clocks/${c.id}/advance`, { body: { frozen_time: '2025-02-01T00:00:00Z' } }), 409, 'invalid_state', 'frozen_time');
  });

  it("attaches customers once, before they have subscriptions; other tenants' customers are resource_not_found", async () => {
    const c1 = await createClock(m, '2025-01-01T00:00:00.000Z');
    const c2 = await createClock(m, '2025-01-01T00:00:00.000Z');
    const cus = await createCustomer(m);
    await attachToClock(m, c1.id, cus.id);
    // repeating is harmless
    await attachToClock(m, c1.id, cus.id);
    expectError(await m.call('POST', `/v1/test_helpers/test_clocks/${c2.id}/customers`, { body: { customer: cus.id } }), 409, 'invalid_state', 'customer');
    const foreign = await createCustomer(other);
    expectError(await m.call('POST', `/v1/test_helpers/test_clocks/${c2.id}/customers`, { body: { customer: foreign.id } }), 404, 'resource_not_found', 'customer');
    expectError(await m.call('POST', `/v1/test_helpers/test_clocks/${c2.id}/customers`, { body: { customer: 'cus_unknown' } }), 404, 'resource_not_found', 'customer');
    expectError(await m.call('POST', `/v1/test_helpers/test_clocks/${c2.id}/customers`, { body: { customer: 12 } }), 400, 'validation_failed', 'customer');
    expectError(await m.call('POST', `/v1/test_helpers/test_clocks/${c2.id}/customers`, { body: {} }), 400, 'validation_failed', 'customer');
    const row = await env.db.testClockCustomer.findFirst({ where: { customerId: cus.id } });
    assert.equal(row?.testClockId, c1.id);
  });

  it('deletes a clock: gone for the API, deleting twice is resource_missing', async () => {
    const c = await createClock(m, '2025-01-01T00:00:00.000Z');
    const res = await m.call('DELETE', `/v1/test_helpers/test_clocks/${c.id}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id: c.id, object: 'test_clock', deleted: true });
    expectError(await m.call('GET', `/v1/test_helpers/test_clocks/${c.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('DELETE', `/v1/test_helpers/test_clocks/${c.id}`), 404, 'resource_missing', 'id');
    const list = await ok(m.call('GET', '/v1/test_helpers/test_clocks?limit=100'));
    assert.equal(
      list.data.some((x: any) => x.id === c.id),
      false,
    );
  });

  it('deleting a clock cancels the subscriptions of its customers, whose workflows end; they cannot subscribe again', async () => {
    const { clock: c, customer: cus } = await clockCustomer(m, '2025-01-01T00:00:00.000Z', { card: TEST_CARDS.alwaysDeclines });
    const price = await monthlyPrice(m, 1000);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: cus.id, items: [{ price: price.id }] } }), 201);
    // The first charge fails: a retry is pending three clock-days later.
    await advanceClock(m, c.id, '2025-01-01T00:00:01.000Z');
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${s.id}`))).status, 'past_due');
    assert.equal((await ok(m.call('DELETE', `/v1/test_helpers/test_clocks/${c.id}`))).deleted, true);
    const canceled = await eventually(async () => {
      const g = await ok(m.call('GET', `/v1/subscriptions/${s.id}`));
      return g.status === 'canceled' ? g : undefined;
    }, 'subscription canceled');
    assert.equal(canceled.ended_at, '2025-01-01T00:00:01.000Z');
    const result = await env.client.workflow.getHandle(workflowIds.subscription(s.id)).result();
    assert.deepEqual(result, { subscriptionId: s.id, status: 'canceled' });
    expectError(await m.call('POST', '/v1/subscriptions', { body: { customer: cus.id, items: [{ price: price.id }] } }), 400, 'invalid_subscription', 'customer');
  });
});
