// Crash recovery of the outbox: an event committed without a dispatch (the process died between
// commit and dispatch, or Temporal was down) is dispatched by the reconciler and delivered once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import { createEndpoint, startHarness, startReceiver, type Harness, type Receiver } from '../api/webhooks/harness';
import { ensureWebhookSchedules } from '../../src/temporal/schedules';
import { dispatchEvents } from '../../src/events/dispatch';
import type { TemporalProvider } from '../../src/temporal/client';
import type { Client } from '@temporalio/client';
import { scheduleIds } from '../../src/temporal/workflow-ids';
import { newId } from '../../src/ids';
import type { DispatchReconcileResult, WebhookDeliveryResult } from '../../src/contracts/webhooks';

describe('webhook outbox reconciler (real Temporal)', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let h: Harness;
  let r: Receiver;
  before(async () => {
    env = await testEnv();
    h = await startHarness(env, { retryDelaysMs: [1000] });
    r = await startReceiver();
  });
  after(async () => {
    await r?.close();
    await h?.close();
  });

  const runReconciler = async () => {
    const handle = await env.client.workflow.start('webhookDispatchReconcilerWorkflow', {
      taskQueue: h.taskQueue,
      workflowId: `webhooks/dispatch-reconciler-test-${randomUUID()}`,
      args: [{ minAgeSeconds: 0, batchSize: 2 }],
    });
    return { handle, result: (await handle.result()) as DispatchReconcileResult };
  };

  it('delivers events that were committed but never dispatched, exactly once', async () => {
    const m = await newMerchant(env);
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['payment.succeeded', 'payment.failed'] });
    // Crash right after commit: the event row exists, nothing was dispatched.
    const lost = await h.emit(m.id, 'payment.succeeded', { id: 'pay_lost', status: 'succeeded', amount: 1990, currency: 'ISK' }, { dispatch: false });
    // Crash in the middle of a dispatch: the delivery row was written, its workflow never started.
    const half = await h.emit(m.id, 'payment.failed', { id: 'pay_half', status: 'failed', amount: 500, currency: 'ISK' }, { dispatch: false });
    await env.db.webhookDelivery.create({
      data: { id: newId('webhookDelivery'), merchantId: m.id, mode: 'test', eventId: half.id, endpointId: ep.id, eventType: half.type },
    });
    await assert.rejects(h.deliveryHandle(lost.id, ep.id).describe(), /not found/i);

    // Oldest first, in small batches: events other test files left undispatched in the shared
    // database come first, so run it until ours are done (each run is bounded).
    let { handle, result } = await runReconciler();
    let dispatched = result.dispatched;
    for (let run = 1; run < 10 && (await env.db.event.count({ where: { id: { in: [lost.id, half.id] }, dispatchedAt: null } })) > 0; run++) {
      ({ handle, result } = await runReconciler());
      dispatched += result.dispatched;
    }
    assert.ok(dispatched >= 2, JSON.stringify(result));
    const delivered = await Promise.all([h.deliveryHandle(lost.id, ep.id).result(), h.deliveryHandle(half.id, ep.id).result()]);
    assert.deepEqual(
      (delivered as WebhookDeliveryResult[]).map((d) => d.outcome),
      ['delivered', 'delivered'],
    );
    assert.deepEqual(r.requests.map((q) => q.json.id).sort(), [lost.id, half.id].sort());
    const rows = await env.db.event.findMany({ where: { id: { in: [lost.id, half.id] } } });
    assert.ok(rows.every((e) => e.dispatchedAt !== null));
    assert.equal(await env.db.webhookDelivery.count({ where: { eventId: { in: [lost.id, half.id] } } }), 2);
    await maybeRecordHistory(handle, 'webhook-dispatch-reconciler');

    // Running it again, or dispatching again, delivers nothing twice.
    await runReconciler();
    await env.db.event.updateMany({ where: { id: lost.id }, data: { dispatchedAt: null } });
    await runReconciler();
    assert.equal(r.requests.length, 2);
  });

  it('leaves an event to the reconciler when Temporal is unreachable at commit time', async () => {
    const m = await newMerchant(env);
    const ep = await createEndpoint(h, m, { url: r.url('/down'), events: ['invoice.paid'] });
    const evt = await h.emit(m.id, 'invoice.paid', { id: 'inv_down', status: 'paid' }, { dispatch: false });
    const logged: string[] = [];
    const log = (l: string) => logged.push(l);
    // Temporal unreachable when the API wants a client.
    const down = { taskQueue: h.taskQueue, client: () => Promise.reject(new Error('connect ECONNREFUSED')) } as unknown as TemporalProvider;
    assert.deepEqual(await dispatchEvents({ db: env.db, temporal: down, log }, [evt]), { dispatched: 0, workflowsStarted: 0, failed: 1 });
    // Temporal failing in the middle of the dispatch: the delivery row is written, no workflow.
    const failing = { workflow: { start: () => Promise.reject(new Error('UNAVAILABLE')) } } as unknown as Client;
    assert.deepEqual(await dispatchEvents({ db: env.db, client: failing, taskQueue: h.taskQueue, log }, [evt]), { dispatched: 0, workflowsStarted: 0, failed: 1 });
    assert.equal(logged.filter((l) => l.includes('reconciler')).length, 2);
    assert.equal((await env.db.event.findUniqueOrThrow({ where: { id: evt.id } })).dispatchedAt, null);
    assert.equal(await env.db.webhookDelivery.count({ where: { eventId: evt.id } }), 1);
    await runReconciler();
    const result = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.equal(result.outcome, 'delivered');
  });

  it('registers the every-minute reconciler schedule idempotently', async () => {
    await ensureWebhookSchedules(env.client, { taskQueue: h.taskQueue });
    await ensureWebhookSchedules(env.client, { taskQueue: h.taskQueue });
    const schedule = env.client.schedule.getHandle(scheduleIds.webhookDispatchReconciler);
    const desc = await schedule.describe();
    assert.equal(desc.spec.intervals?.[0]?.every, 60_000);
    assert.equal(desc.action.type, 'startWorkflow');
    assert.equal((desc.action as { workflowType: string }).workflowType, 'webhookDispatchReconcilerWorkflow');
    const args = (desc.action as { args?: unknown[] }).args as Array<{ minAgeSeconds: number }>;
    assert.equal(args[0]!.minAgeSeconds, 60);
    await schedule.delete();
  });

  it('dispatches a batch in one pass where no endpoint listens, and one by one where one does', async () => {
    const own = await startReceiver();
    try {
      const quiet = await newMerchant(env); // no endpoint at all
      const busy = await newMerchant(env);
      const ep = await createEndpoint(h, busy, { url: own.url(), events: ['invoice.paid'] });
      // A crashed dispatch left a delivery for an event of a merchant whose endpoint was deleted
      // since: that event still goes the long way, so its delivery row is not left pending.
      const gone = await newMerchant(env);
      const goneEp = await createEndpoint(h, gone, { url: own.url(), events: ['invoice.paid'] });
      const q1 = await h.emit(quiet.id, 'invoice.paid', { id: 'inv_q1', status: 'paid' }, { dispatch: false });
      const q2 = await h.emit(quiet.id, 'payment.succeeded', { id: 'pay_q2', status: 'succeeded' }, { dispatch: false });
      const b1 = await h.emit(busy.id, 'invoice.paid', { id: 'inv_b1', status: 'paid' }, { dispatch: false });
      const g1 = await h.emit(gone.id, 'invoice.paid', { id: 'inv_g1', status: 'paid' }, { dispatch: false });
      // (A dispatch that read the endpoint before the DELETE committed wrote its row after.)
      assert.equal((await h.call(gone, 'DELETE', `/v1/webhook_endpoints/${goneEp.id}`)).status, 200);
      await env.db.webhookDelivery.create({
        data: { id: newId('webhookDelivery'), merchantId: gone.id, mode: 'test', eventId: g1.id, endpointId: goneEp.id, eventType: g1.type },
      });

      const all = [q1, q2, b1, g1];
      const summary = await dispatchEvents({ db: env.db, client: env.client, taskQueue: h.taskQueue }, all);
      assert.deepEqual(summary, { dispatched: 4, workflowsStarted: 2, failed: 0 });
      const rows = await env.db.event.findMany({ where: { id: { in: all.map((e) => e.id) } } });
      assert.ok(rows.every((e) => e.dispatchedAt !== null));
      assert.equal(await env.db.webhookDelivery.count({ where: { eventId: { in: [q1.id, q2.id] } } }), 0);
      const result = (await h.deliveryHandle(b1.id, ep.id).result()) as WebhookDeliveryResult;
      assert.equal(result.outcome, 'delivered');
      // The leftover delivery of the deleted endpoint was started and stopped, not left pending.
      assert.equal(((await h.deliveryHandle(g1.id, goneEp.id).result()) as WebhookDeliveryResult).outcome, 'stopped');
      assert.equal((await env.db.webhookDelivery.findFirstOrThrow({ where: { eventId: g1.id } })).status, 'failed');
      assert.deepEqual(
        own.requests.map((q) => q.json.id),
        [b1.id],
      );
      // Again: nothing is dispatched twice.
      assert.deepEqual(await dispatchEvents({ db: env.db, client: env.client, taskQueue: h.taskQueue }, all), { dispatched: 0, workflowsStarted: 0, failed: 0 });
    } finally {
      await own.close();
    }
  });
});
