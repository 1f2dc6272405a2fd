// The subscription workflow since the patch `subscription-steps-in-one-activity`: a renewal's
// steps (period end, finalize, first charge) run in one activity that also acknowledges the test
// clock, and a run carries several periods before it continues as new. Checked on the workflow's
// own history (one activity per renewal, no local activity, no new run), and recorded as the
// replay history of this path.
import assert from 'node:assert/strict';
import { temporal } from '@temporalio/proto';
import { testEnv, type TestEnv } from '../support/env';
import { maybeRecordHistory } from '../support/histories';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { advanceClock, attachCard, attachToClock, createClock, createCustomer, monthlyPrice, ok, subMerchant, TEST_CARDS, type SubMerchant } from '../api/subscriptions/fixtures';

const E = temporal.api.enums.v1.EventType;

describe('subscription workflow: a renewal in one activity', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let m: SubMerchant;
  before(async () => {
    env = await testEnv();
    m = await subMerchant(env, { currency: 'ISK' });
  });

  it('renews two periods with one activity each, acknowledges the clock without a local activity, and keeps one run', async () => {
    const clock = await createClock(m, '2025-03-10T08:00:00.000Z');
    const customer = await createCustomer(m);
    await attachToClock(m, clock.id, customer.id);
    await attachCard(m, customer.id, TEST_CARDS.visa);
    const price = await monthlyPrice(m, 2490);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    await advanceClock(m, clock.id, '2025-03-10T09:00:00.000Z');
    const handle = env.client.workflow.getHandle(workflowIds.subscription(s.id));
    const runId = (await handle.describe()).runId;
    const before = (await handle.fetchHistory()).events!.length;

    await advanceClock(m, clock.id, '2025-05-20T00:00:00.000Z');
    const invoices = (await ok(m.call('GET', `/v1/invoices?subscription=${s.id}&limit=10`))).data.reverse() as any[];
    assert.deepEqual(
      invoices.map((i) => [i.billing_reason, i.status, i.amount_paid, i.period_start, i.finalized_at, i.paid_at]),
      [
        ['subscription_create', 'paid', 2490, '2025-03-10T08:00:00.000Z', '2025-03-10T08:00:00.000Z', '2025-03-10T08:00:00.000Z'],
        ['subscription_cycle', 'paid', 2490, '2025-04-10T08:00:00.000Z', '2025-04-10T08:00:00.000Z', '2025-04-10T08:00:00.000Z'],
        ['subscription_cycle', 'paid', 2490, '2025-05-10T08:00:00.000Z', '2025-05-10T08:00:00.000Z', '2025-05-10T08:00:00.000Z'],
      ],
    );
    const row = await env.db.subscription.findUniqueOrThrow({ where: { id: s.id } });
    assert.equal(row.clockSyncedTo?.toISOString(), '2025-05-20T00:00:00.000Z');

    const after = await handle.describe();
    assert.equal(after.runId, runId, 'the two renewals ran in the same run');
    const events = (await handle.fetchHistory()).events!.slice(before);
    const count = (t: number) => events.filter((e) => e.eventType === t).length;
    const scheduled = events.filter((e) => e.eventType === E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
    assert.deepEqual(scheduled, ['runSubscriptionSteps', 'runSubscriptionSteps'], 'one activity per renewal');
    assert.equal(count(E.EVENT_TYPE_MARKER_RECORDED), 0, 'the clock was acknowledged by the renewal activity, not by a local activity');
    const state: any = await handle.query('state');
    assert.equal(state.periodsBilled, 2);
    assert.deepEqual([state.next.reason, state.next.at], ['renewal', '2025-06-10T08:00:00.000Z']);
    await maybeRecordHistory(handle, 'subscription-steps-renewals');
  });
});
