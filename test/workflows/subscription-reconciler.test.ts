// docs/architecture.md: "a subscription row never exists without its workflow". A subscription created
// while Temporal is unreachable (the after-commit start fails) gets its workflow from the
// reconciler, which then bills it like any other.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { testEnv, type TestEnv } from '../support/env';
import { call } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import type { TemporalProvider } from '../../src/temporal/client';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { SUBSCRIPTION_RECONCILER_WORKFLOW, type ReconcileSubscriptionsResult } from '../../src/contracts/subscriptions';
import { attachCard, createCustomer, eventually, monthlyPrice, subMerchant } from '../api/subscriptions/fixtures';

describe('subscription reconciler (real Temporal)', function () {
  this.timeout(120_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('starts the workflow of a subscription whose after-commit start was lost, and it bills', async () => {
    const m = await subMerchant(env);
    const customer = await createCustomer(m);
    await attachCard(m, customer.id);
    const price = await monthlyPrice(m, 2500);
    // An API instance whose Temporal is down: the row commits, the workflow start fails.
    const down = {
      taskQueue: env.config.taskQueue,
      address: 'nowhere',
      namespace: 'default',
      client: () => Promise.reject(new Error('connect ECONNREFUSED')),
      healthy: async () => false,
      close: async () => undefined,
    } as unknown as TemporalProvider;
    const baseUrl = await env.startApp({}, down);
    const res = await call(env, 'POST', '/v1/subscriptions', { baseUrl, key: m.secretKey, merchant: m.id, body: { customer: customer.id, items: [{ price: price.id }] } });
    assert.equal(res.status, 201, res.text);
    const subId = res.body.id;
    const handle = env.client.workflow.getHandle(workflowIds.subscription(subId));
    await assert.rejects(handle.describe(), /not found/i);
    assert.equal((await env.db.subscription.findUnique({ where: { id: subId } }))?.workflowAttachedAt, null);

    const rec = await env.client.workflow.start(SUBSCRIPTION_RECONCILER_WORKFLOW, {
      taskQueue: env.config.taskQueue,
      workflowId: `subscriptions/reconciler-test-${randomUUID()}`,
      args: [{ minAgeSeconds: 0, batchSize: 500 }],
    });
    const result = (await rec.result()) as ReconcileSubscriptionsResult;
    assert.ok(result.started >= 1, JSON.stringify(result));
    await maybeRecordHistory(rec, 'subscription-reconciler');

    assert.equal((await handle.describe()).status.name, 'RUNNING');
    const paid = await eventually(async () => {
      const inv = await env.db.invoice.findFirst({ where: { subscriptionId: subId } });
      return inv?.status === 'paid' ? inv : undefined;
    }, 'first invoice paid');
    assert.equal(Number(paid.amountPaid), 2500);
    assert.ok((await env.db.subscription.findUnique({ where: { id: subId } }))?.workflowAttachedAt);
    // Running it again starts nothing new and makes no second invoice.
    const again = await env.client.workflow.execute(SUBSCRIPTION_RECONCILER_WORKFLOW, {
      taskQueue: env.config.taskQueue,
      workflowId: `subscriptions/reconciler-test-${randomUUID()}`,
      args: [{ minAgeSeconds: 0, batchSize: 500 }],
    });
    assert.ok(again);
    assert.equal(await env.db.invoice.count({ where: { subscriptionId: subId } }), 1);
  });
});
