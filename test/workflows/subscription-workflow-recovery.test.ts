// "The impossible still gets caught" (docs/subscriptions.md "When a workflow ends anyway"): an
// operator terminates a subscription's workflow mid-life; the reconciler notices that the row
// still needs it, restarts it from the row, reports it (recovery row, ALERT log, /healthz), and
// billing continues with every step exactly once. A crash loop is halted after three restarts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { subscriptionWorkflowsWithStatus, type TestEnv, envAndMerchants } from '../support/env';
import { call } from '../support/api';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { createGateways } from '../../src/gateways';
import { SUBSCRIPTION_RECONCILER_WORKFLOW, type ReconcileSubscriptionsResult } from '../../src/contracts/subscriptions';
import { MAX_RESTARTS_PER_DAY } from '../../src/domain/subscriptions/revive-subscription-workflows';
import { advanceClock, attachCard, clockCustomer, createCustomer, eventually, iskSubMerchant, monthlyPrice, ok, type SubMerchant } from '../api/subscriptions/fixtures';

describe('subscription workflows that end anyway are restarted by the reconciler', function () {
  this.timeout(240_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(iskSubMerchant)));

  const reconcile = async (): Promise<ReconcileSubscriptionsResult> =>
    (await env.client.workflow.execute(SUBSCRIPTION_RECONCILER_WORKFLOW, {
      taskQueue: env.config.taskQueue,
      workflowId: `subscriptions/reconciler-test-${randomUUID()}`,
      args: [{ minAgeSeconds: 30, batchSize: 500 }],
    })) as ReconcileSubscriptionsResult;
  /** Runs the reconciler until the terminated run shows in visibility and is handled. */
  const reconcileUntil = (what: 'restarted' | 'halted', subId: string) =>
    eventually(
      async () => {
        await reconcile();
        const rows = await env.db.subscriptionWorkflowRecovery.findMany({ where: { subscriptionId: subId, action: what } });
        return rows.length > 0 ? rows : undefined;
      },
      `reconciler ${what} ${subId}`,
      100,
      300,
    );
  const invoices = async (subId: string) => (await ok(m.call('GET', `/v1/invoices?subscription=${subId}&limit=100`))).data.reverse() as any[];

  it('terminated mid-life: restarted from the row, reported, and the next periods bill exactly once', async () => {
    const { clock, customer } = await clockCustomer(m, '2028-01-10T08:00:00.000Z');
    const price = await monthlyPrice(m, 3300);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    await advanceClock(m, clock.id, '2028-01-20T00:00:00.000Z');
    assert.deepEqual(
      (await invoices(s.id)).map((i) => i.status),
      ['paid'],
    );

    const handle = env.client.workflow.getHandle(workflowIds.subscription(s.id));
    const terminatedRun = (await handle.describe()).runId;
    await handle.terminate('operator test: terminate a subscription workflow');
    assert.equal((await handle.describe()).status.name, 'TERMINATED');
    // The suite's end-of-run check lists workflows by status through the same visibility query.
    await eventually(
      async () => ((await subscriptionWorkflowsWithStatus('Terminated')).some((w) => w.startsWith(`subscription/${s.id} `)) ? true : undefined),
      'visible as terminated',
    );

    const [recovery] = await reconcileUntil('restarted', s.id);
    assert.deepEqual([recovery!.closedRunId, recovery!.closedStatus, recovery!.merchantId], [terminatedRun, 'TERMINATED', m.id]);
    const running = await handle.describe();
    assert.equal(running.status.name, 'RUNNING');
    assert.notEqual(running.runId, terminatedRun);
    const health = await call(env, 'GET', '/healthz');
    assert.ok(health.body.subscription_workflows.restarted >= 1, JSON.stringify(health.body));
    // A second pass finds it running: nothing more.
    await reconcile();
    assert.equal(await env.db.subscriptionWorkflowRecovery.count({ where: { subscriptionId: s.id } }), 1);

    // Billing continues from the row: the renewals come, each invoiced and charged once.
    await advanceClock(m, clock.id, '2028-03-15T00:00:00.000Z');
    const all = await invoices(s.id);
    assert.deepEqual(
      all.map((i) => [i.status, i.period_start]),
      [
        ['paid', '2028-01-10T08:00:00.000Z'],
        ['paid', '2028-02-10T08:00:00.000Z'],
        ['paid', '2028-03-10T08:00:00.000Z'],
      ],
    );
    const charges = await createGateways({ mode: 'test', db: env.db }).cardAcquirer.listCharges(m.id, { limit: 100 });
    const mine = charges.filter((c) => all.some((i) => c.idempotencyKey.startsWith(`${i.id}:`)));
    assert.equal(mine.length, 3);
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${s.id}`))).status, 'active');
  });

  it(`a crash loop is halted after ${MAX_RESTARTS_PER_DAY} restarts in a day and left to an operator`, async () => {
    const customer = await createCustomer(m);
    await attachCard(m, customer.id);
    const price = await monthlyPrice(m, 1000);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    const handle = env.client.workflow.getHandle(workflowIds.subscription(s.id));
    for (let i = 1; i <= MAX_RESTARTS_PER_DAY; i++) {
      await eventually(async () => ((await handle.describe()).status.name === 'RUNNING' ? true : undefined), 'running');
      await handle.terminate(`crash loop ${i}`);
      await eventually(
        async () => {
          await reconcile();
          return (await env.db.subscriptionWorkflowRecovery.count({ where: { subscriptionId: s.id, action: 'restarted' } })) === i ? true : undefined;
        },
        `restart ${i}`,
        100,
        300,
      );
    }
    await eventually(async () => ((await handle.describe()).status.name === 'RUNNING' ? true : undefined), 'running');
    await handle.terminate('crash loop: one too many');
    const [halted] = await reconcileUntil('halted', s.id);
    assert.equal(halted!.closedStatus, 'TERMINATED');
    assert.equal((await handle.describe()).status.name, 'TERMINATED', 'not restarted again');
    const health = await call(env, 'GET', '/healthz');
    assert.ok(health.body.subscription_workflows.halted >= 1, JSON.stringify(health.body));
    // Still halted on the next pass (one recovery row per closed run).
    await reconcile();
    assert.equal(await env.db.subscriptionWorkflowRecovery.count({ where: { subscriptionId: s.id, action: 'halted' } }), 1);
    assert.equal((await handle.describe()).status.name, 'TERMINATED');
  });
});
