// The subscription workflow since the patches `subscription-steps-in-one-activity` and
// `subscription-steps-local-activity`: a renewal's steps (period end, finalize, first charge) run
// in one local activity, inside one workflow task, that also acknowledges the test clock, and a
// run carries several periods before it continues as new. Checked on the workflow's own history
// (one local activity and one workflow task per renewal, no task-queue activity, no new run), and
// recorded as the replay history of this path (`subscription-steps-renewals.json` holds the
// earlier one, a task-queue activity per renewal, and still replays).
import assert from 'node:assert/strict';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { envAndMerchants, type TestEnv } from '../support/env';
import { maybeRecordHistory } from '../support/histories';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { advanceClock, clockCustomer, iskSubMerchant, monthlyPrice, ok, type SubMerchant, TEST_CARDS } from '../api/subscriptions/fixtures';

const E = temporal.api.enums.v1.EventType;

describe('subscription workflow: a renewal in one local activity', function () {
  this.timeout(300_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(iskSubMerchant)));

  it('renews two periods with one local activity each and at most one workflow task each, acknowledges the clock in it, and keeps one run', async () => {
    const { clock, customer } = await clockCustomer(m, '2025-03-10T08:00:00.000Z', { card: TEST_CARDS.visa });
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
    assert.equal(count(E.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED), 0, 'no task-queue activity');
    const markers = events.filter((e) => e.eventType === E.EVENT_TYPE_MARKER_RECORDED).map((e) => e.markerRecordedEventAttributes!);
    assert.deepEqual(
      markers.map((m) => m.markerName),
      ['core_local_activity', 'core_local_activity'],
      'one local activity per renewal; the clock was acknowledged inside it',
    );
    // The local activity's marker data (the SDK's payload: sequence, attempt, activity type, …).
    const types = markers.map((m) => defaultPayloadConverter.fromPayload<{ activity_type: string }>(m.details!.data!.payloads![0]!).activity_type);
    assert.deepEqual(types, ['runSubscriptionSteps', 'runSubscriptionSteps']);
    // The clock jumps two periods at once: both renewals may even run in the one workflow task that
    // the clock's signal started (the worker keeps a task open while its local activities run).
    const tasks = count(E.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    assert.ok(tasks >= 1 && tasks <= 2, `at most one workflow task per renewal, got ${tasks}`);
    const state: any = await handle.query('state');
    assert.equal(state.periodsBilled, 2);
    assert.deepEqual([state.next.reason, state.next.at], ['renewal', '2025-06-10T08:00:00.000Z']);
    await maybeRecordHistory(handle, 'subscription-local-renewals');
  });
});
