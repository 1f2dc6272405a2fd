// WORKER_SHARDS (boot/runtime/worker.ts, docs/operations.md): one worker process running several Temporal
// workers on the task queue, each with its share of the workflow cache and the activity slots.
// Subscriptions served by a process of two shards are billed and renewed exactly as by one: each
// period one invoice, paid by one successful charge.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Worker } from '@temporalio/worker';
import { testEnv, type TestEnv } from '../support/env';
import { call } from '../support/api';
import { createTemporalProvider } from '../../src/temporal/client';
import { createBillingWorker, sdkDefaultCachedWorkflows, type WorkerHandle } from '../../boot/runtime/worker';
import { attachCard, attachToClock, createClock, createCustomer, eventually, monthlyPrice, subMerchant } from '../api/subscriptions/fixtures';

describe('worker shards: one process, several Temporal workers', function () {
  this.timeout(300_000);
  let env: TestEnv;
  const handles: WorkerHandle[] = [];
  before(async () => {
    env = await testEnv();
  });
  after(async () => {
    for (const h of handles) await h.shutdown();
  });

  /** The slot counts the SDK compiled into the worker's tuner. */
  function slots(w: Worker): { workflowTasks: number; activities: number; localActivities: number } {
    const tuner = w.options.tuner as unknown as Record<string, { numSlots: number }>;
    return {
      workflowTasks: tuner.workflowTaskSlotSupplier.numSlots,
      activities: tuner.activityTaskSlotSupplier.numSlots,
      localActivities: tuner.localActivityTaskSlotSupplier.numSlots,
    };
  }

  function worker(taskQueue: string, settings: { workerShards: number | undefined; workerCachedWorkflows: number | undefined }): Promise<WorkerHandle> {
    return createBillingWorker({
      db: env.db,
      // 100 activity slots per process (WORKER_MAX_CONCURRENT_ACTIVITIES), whatever the pool: the shards divide them.
      config: { ...env.config, taskQueue, workerMaxConcurrentActivities: 100, ...settings },
      gateways: env.gateways,
      log: () => undefined,
      address: env.temporalAddress,
      namespace: env.config.temporalNamespace,
      taskQueue,
    }).then((h) => {
      handles.push(h);
      return h;
    });
  }

  it("one shard takes the SDK's own cache size when none is set (the size shards divide)", async () => {
    const h = await worker(`shards-default-${randomBytes(4).toString('hex')}`, { workerShards: 1, workerCachedWorkflows: undefined });
    assert.equal(h.workers.length, 1);
    assert.equal(h.worker, h.workers[0]);
    assert.equal(h.worker.options.maxCachedWorkflows, sdkDefaultCachedWorkflows());
    assert.deepEqual(slots(h.worker), { workflowTasks: 40, activities: 100, localActivities: 100 });
    // Run and stop it: a worker releases its connection only once it has run.
    const running = h.run();
    await h.shutdown();
    await running;
  });

  it('unset, runs one shard per 3,000 cached workflows, dividing the cache', async () => {
    const h = await worker(`shards-auto-${randomBytes(4).toString('hex')}`, { workerShards: undefined, workerCachedWorkflows: 7_000 });
    assert.equal(h.workers.length, 3);
    assert.equal(h.settings.shards, 3);
    for (const w of h.workers) {
      assert.equal(w.options.maxCachedWorkflows, 2_334);
      assert.deepEqual(slots(w), { workflowTasks: 14, activities: 34, localActivities: 34 });
    }
    const running = h.run();
    await h.shutdown();
    await running;
  });

  it('bills and renews subscriptions on two shards, each period once', async () => {
    const taskQueue = `shards-test-${randomBytes(4).toString('hex')}`;
    const h = await worker(taskQueue, { workerShards: 2, workerCachedWorkflows: 20 });
    assert.equal(h.workers.length, 2);
    for (const w of h.workers) {
      assert.equal(w.options.taskQueue, taskQueue);
      assert.equal(w.options.maxCachedWorkflows, 10, 'the process cache of 20, halved');
      assert.deepEqual(slots(w), { workflowTasks: 20, activities: 50, localActivities: 50 }, "the SDK's 40 and the process's 100 activity slots, halved");
    }
    const running = h.run();

    const temporal = createTemporalProvider({ address: env.temporalAddress, namespace: env.config.temporalNamespace, taskQueue });
    const baseUrl = await env.startApp({ taskQueue }, temporal);
    const m = await subMerchant(env);
    const api = (method: string, p: string, body?: unknown) => call(env, method, p, { baseUrl, key: m.secretKey, merchant: m.id, body });
    const clock = await createClock(m, '2025-03-10T00:00:00.000Z');
    const price = await monthlyPrice(m, 4900);
    const subIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const customer = await createCustomer(m);
      await attachToClock(m, clock.id, customer.id);
      await attachCard(m, customer.id);
      const created = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }] });
      assert.equal(created.status, 201, created.text);
      subIds.push(created.body.id);
    }
    const invoicesOf = (subId: string) => env.db.invoice.findMany({ where: { subscriptionId: subId }, orderBy: { periodStart: 'asc' } });
    const allPaid = (count: number) => async () => {
      for (const id of subIds) {
        const inv = await invoicesOf(id);
        if (inv.length < count || inv.some((i) => i.status !== 'paid')) return undefined;
      }
      return true;
    };
    await eventually(allPaid(1), 'every first invoice paid');
    // Both shards poll the queue; whichever took a subscription's first task keeps it cached.
    const cached = h.workers.map((w) => w.getStatus().numCachedWorkflows);
    assert.ok(cached.reduce((a, b) => a + b, 0) >= subIds.length, `the shards cache the ${subIds.length} subscriptions between them: ${cached.join(' + ')}`);
    assert.ok(
      cached.every((c) => c <= 10),
      `no shard caches beyond its share: ${cached.join(', ')}`,
    );

    const adv = await api('POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: '2025-04-10T00:00:00.000Z' });
    assert.equal(adv.status, 200, adv.text);
    await eventually(allPaid(2), 'every renewal invoice paid', 1200);

    for (const id of subIds) {
      const inv = await invoicesOf(id);
      assert.deepEqual(
        inv.map((i) => [i.periodStart.toISOString(), i.status, Number(i.amountPaid)]),
        [
          ['2025-03-10T00:00:00.000Z', 'paid', 4900],
          ['2025-04-10T00:00:00.000Z', 'paid', 4900],
        ],
      );
      for (const i of inv) {
        const charges = await env.db.simCharge.findMany({ where: { merchantId: m.id, idempotencyKey: { startsWith: `${i.id}:` } } });
        assert.deepEqual(
          charges.map((c) => c.status),
          ['succeeded'],
          `one successful charge for ${i.id}`,
        );
      }
    }
    await h.shutdown();
    await running;
    await temporal.close();
  });
});
