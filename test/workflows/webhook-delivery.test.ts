// Webhook delivery end to end on the real Temporal dev server: events recorded in a transaction,
// dispatched after commit, delivered by the delivery workflow to real HTTPS receivers on
// 127.0.0.1 (own CA), signatures checked by the receiver's own implementation.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import { createEndpoint, receiverVerifies, startHarness, startReceiver, type Harness, type Receiver } from '../api/webhooks/harness';
import { attemptDelivery } from '../../src/domain/webhooks/attempt-delivery';
import { webhookTestingFor } from '../../src/domain/webhooks/testing';
import type { WebhookDeliveryResult } from '../../src/contracts/webhooks';

const customer = (id: string) => ({ id, object: 'customer', email: `${id}@example.is`, name: 'Jón Jónsson', created_at: new Date().toISOString() });

describe('webhook delivery workflow (real HTTPS receivers, real Temporal)', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let h: Harness;
  let m: TestMerchant & { liveSecretKey?: string };
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };

  before(async () => {
    env = await testEnv();
    // Four retries one second apart: five automatic attempts in about five seconds. The attempt
    // timeout is generous (a loaded machine must not turn a healthy answer into a timeout); the
    // hanging-receiver test has a harness of its own with a short one.
    h = await startHarness(env, { retryDelaysMs: [1000, 1000, 1000, 1000], attemptTimeoutMs: 5000 });
  });
  // A merchant per test: no endpoint of one test receives another test's events.
  beforeEach(async () => {
    m = await newMerchant(env, { live: true });
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await h?.close();
  });

  /** Polls until the delivery's first attempt is recorded. */
  const attemptRecorded = async (eventId: string, endpointId: string) => {
    for (;;) {
      const a = await env.db.webhookDeliveryAttempt.findFirst({ where: { delivery: { eventId, endpointId }, attemptNumber: 1 } });
      if (a) return a;
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  const deliveriesOf = async (endpointId: string) => (await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${endpointId}`)).body.data as any[];

  it('delivers a signed { id, type, created_at, data } that an independent verifier accepts', async () => {
    const r = await receiver();
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'], description: 'CRM sync' });
    const data = customer('cus_sig');
    const evt = await h.emit(m.id, 'customer.created', data);
    const result = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.equal(result.outcome, 'delivered');
    assert.equal(r.requests.length, 1);
    const got = r.requests[0]!;
    assert.equal(got.headers['content-type'], 'application/json');
    assert.ok(receiverVerifies(ep.secret, got.headers, got.body), 'signature verifies with the endpoint secret');
    assert.equal(receiverVerifies('whsec_wrong', got.headers, got.body), false);
    assert.equal(receiverVerifies(ep.secret, got.headers, got.body.replace('Jón', 'Jon')), false, 'a changed body fails');
    const ts = Number(got.headers['service-timestamp']);
    assert.equal(receiverVerifies(ep.secret, got.headers, got.body, ts + 301), false, 'outside the 300 s tolerance');
    assert.equal(receiverVerifies(ep.secret, got.headers, got.body, ts + 300), true);
    assert.deepEqual(Object.keys(got.json).sort(), ['created_at', 'data', 'id', 'type']);
    assert.equal(got.json.id, evt.id);
    assert.equal(got.json.type, 'customer.created');
    assert.equal(got.json.created_at, evt.createdAt.toISOString());
    assert.deepEqual(got.json.data, data);

    const [d] = await deliveriesOf(ep.id);
    assert.match(d.id, /^del_/);
    assert.equal(d.event, evt.id);
    assert.equal(d.event_type, 'customer.created');
    assert.equal(d.status, 'succeeded');
    assert.equal(d.status_code, 200);
    assert.equal(typeof d.latency_ms, 'number');
    assert.equal(d.attempt_count, 1);
    assert.equal(d.next_retry_at, null);
    assert.equal(d.attempts.length, 1);
    assert.equal(d.attempts[0].attempt_number, 1);
    assert.equal(d.attempts[0].trigger, 'automatic');
    assert.equal(d.attempts[0].error, null);
    await maybeRecordHistory(h.deliveryHandle(evt.id, ep.id), 'webhook-delivery-succeeded');
  });

  it('retries a receiver that answers 500, then delivers when it answers 200', async () => {
    const r = await receiver((n) => (n === 1 ? 500 : 200));
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.updated'] });
    const evt = await h.emit(m.id, 'customer.updated', customer('cus_500'));
    const result = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.deepEqual([result.outcome, result.attempts], ['delivered', 2]);
    assert.equal(r.requests.length, 2);
    assert.ok(r.requests.every((q) => receiverVerifies(ep.secret, q.headers, q.body)));
    assert.equal(r.requests[0]!.json.id, r.requests[1]!.json.id, 'the same event id on every attempt');
    const [d] = await deliveriesOf(ep.id);
    assert.equal(d.status, 'succeeded');
    assert.equal(d.attempt_count, 2);
    const [second, first] = d.attempts;
    assert.equal(first.status_code, 500);
    assert.match(first.error, /unexpected_status/);
    assert.equal(first.response_body, 'answer 500');
    assert.ok(first.next_retry_at, 'the failed attempt recorded when the next one was due');
    assert.ok(Date.parse(first.next_retry_at) >= Date.parse(first.attempted_at) + 1000);
    assert.equal(second.status_code, 200);
    assert.equal(second.next_retry_at, null);
    assert.ok(r.requests[1]!.at >= Date.parse(first.next_retry_at) - 50, 'the retry waited for its timer');
    await maybeRecordHistory(h.deliveryHandle(evt.id, ep.id), 'webhook-delivery-retried');
  });

  it('times out a receiver that hangs, records the timeout, and retries', async () => {
    const short = await startHarness(env, { retryDelaysMs: [1000], attemptTimeoutMs: 1500 });
    try {
      const r = await receiver((n) => (n === 1 ? 'hang' : 204));
      const ep = await createEndpoint(short, m, { url: r.url(), events: ['customer.updated'] });
      const evt = await short.emit(m.id, 'customer.updated', customer('cus_hang'));
      const result = (await short.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
      assert.deepEqual([result.outcome, result.attempts], ['delivered', 2]);
      const [d] = (await short.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${ep.id}`)).body.data;
      const first = d.attempts[1];
      assert.equal(first.error, 'timeout');
      assert.equal(first.status_code, null);
      assert.ok(first.latency_ms >= 1400, `latency ${first.latency_ms} covers the timeout`);
      assert.equal(d.status_code, 204);
    } finally {
      await short.close();
    }
  });

  it('retries a receiver that is down until it comes back', async () => {
    const r = await receiver(() => 200, { listening: false });
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'] });
    const evt = await h.emit(m.id, 'customer.created', customer('cus_down'));
    // Bring the receiver up once the first attempt has failed and been recorded.
    for (;;) {
      const [d] = await deliveriesOf(ep.id);
      if (d && d.attempt_count >= 1) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    await r.listen();
    const result = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.equal(result.outcome, 'delivered');
    assert.ok(result.attempts >= 2);
    const [d] = await deliveriesOf(ep.id);
    assert.equal(d.status, 'succeeded');
    const firstAttempt = d.attempts[d.attempts.length - 1];
    assert.equal(firstAttempt.status_code, null);
    assert.match(firstAttempt.error, /ECONNREFUSED/);
    assert.equal(r.requests.length, 1, 'delivered once');
  });

  it('gives up after the last scheduled attempt; a manual retry then delivers, and a second retry is safe', async () => {
    let healthy = false;
    const r = await receiver(() => (healthy ? 200 : 503));
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'] });
    const evt = await h.emit(m.id, 'customer.created', customer('cus_manual'));
    const result = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.deepEqual([result.outcome, result.attempts], ['failed', 5]);
    let [d] = await deliveriesOf(ep.id);
    assert.equal(d.status, 'failed');
    assert.equal(d.attempt_count, 5);
    assert.equal(d.next_retry_at, null);
    assert.equal(d.attempts[0].next_retry_at, null);

    healthy = true;
    const retried = await h.call(m, 'POST', `/v1/webhook_deliveries/${d.id}/retry`, { idempotencyKey: `retry-${d.id}-1` });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.status, 'pending');
    // A new run under the same workflow id: wait for it.
    const manual = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.equal(manual.outcome, 'delivered');
    [d] = await deliveriesOf(ep.id);
    assert.equal(d.status, 'succeeded');
    assert.equal(d.attempt_count, 6);
    assert.equal(d.attempts[0].attempt_number, 6);
    assert.equal(d.attempts[0].trigger, 'manual');
    assert.equal(r.requests.length, 6);

    // The same request again (same Idempotency-Key) is a replay; a new one resends once.
    const replay = await h.call(m, 'POST', `/v1/webhook_deliveries/${d.id}/retry`, { idempotencyKey: `retry-${d.id}-1` });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const again = await h.call(m, 'POST', `/v1/webhook_deliveries/${d.id}/retry`, { idempotencyKey: `retry-${d.id}-2` });
    assert.equal(again.status, 200);
    const resent = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.equal(resent.outcome, 'delivered');
    [d] = await deliveriesOf(ep.id);
    assert.equal(d.status, 'succeeded');
    assert.equal(d.attempt_count, 7);
    assert.deepEqual(
      d.attempts.map((a: any) => a.attempt_number),
      [7, 6, 5, 4, 3, 2, 1],
      'no attempt recorded twice',
    );
    await maybeRecordHistory(h.deliveryHandle(evt.id, ep.id), 'webhook-delivery-manual');
  });

  it('a manual retry wakes a delivery waiting for its next attempt', async () => {
    const slow = await startHarness(env, { retryDelaysMs: [3_600_000], attemptTimeoutMs: 1500 });
    try {
      const r = await receiver((n) => (n === 1 ? 500 : 200));
      const ep = await createEndpoint(slow, m, { url: r.url(), events: ['customer.created'] });
      const evt = await slow.emit(m.id, 'customer.created', customer('cus_wake'));
      await r.waitFor(1);
      let d: any;
      for (;;) {
        [d] = (await slow.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${ep.id}`)).body.data;
        if (d && d.attempt_count === 1) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      assert.equal(d.status, 'pending');
      assert.ok(Date.parse(d.next_retry_at) > Date.now() + 3_000_000, 'next automatic attempt an hour away');
      const res = await slow.call(m, 'POST', `/v1/webhook_deliveries/${d.id}/retry`);
      assert.equal(res.status, 200);
      const result = (await slow.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
      assert.deepEqual([result.outcome, result.attempts], ['delivered', 2]);
      [d] = (await slow.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${ep.id}`)).body.data;
      assert.equal(d.attempts[0].trigger, 'manual');
      assert.equal(d.status, 'succeeded');
      await maybeRecordHistory(slow.deliveryHandle(evt.id, ep.id), 'webhook-delivery-woken');
    } finally {
      await slow.close();
    }
  });

  it('delivers only the event types an endpoint chose; "*" gets every type', async () => {
    const only = await receiver();
    const all = await receiver();
    const epOnly = await createEndpoint(h, m, { url: only.url(), events: ['invoice.paid'] });
    const epAll = await createEndpoint(h, m, { url: all.url('/all'), events: ['*'] });
    const paid = await h.emit(m.id, 'invoice.paid', { id: 'inv_1', object: 'invoice', status: 'paid' });
    const created = await h.emit(m.id, 'subscription.created', { id: 'sub_1', object: 'subscription', status: 'active' });
    await h.deliveryHandle(paid.id, epOnly.id).result();
    await h.deliveryHandle(paid.id, epAll.id).result();
    await h.deliveryHandle(created.id, epAll.id).result();
    assert.deepEqual(
      only.requests.map((q) => q.json.type),
      ['invoice.paid'],
    );
    assert.deepEqual(all.requests.map((q) => q.json.type).sort(), ['invoice.paid', 'subscription.created']);
    assert.equal((await deliveriesOf(epOnly.id)).length, 1);
    // No delivery, and no workflow, for the type the endpoint did not choose.
    await assert.rejects(h.deliveryHandle(created.id, epOnly.id).describe(), /not found/i);
    // Dispatching again changes nothing (deterministic ids, rows unique per event and endpoint).
    const { dispatchEvents } = await import('../../src/events/dispatch');
    await env.db.event.update({ where: { id: paid.id }, data: { dispatchedAt: null } });
    const again = await dispatchEvents({ db: env.db, client: env.client, taskQueue: h.taskQueue }, [paid]);
    assert.deepEqual(again, { dispatched: 1, workflowsStarted: 0, failed: 0 });
    assert.equal(only.requests.length, 1);
  });

  it('does not deliver events recorded before the endpoint existed, nor to a disabled endpoint', async () => {
    const r = await receiver();
    const before = await h.emit(m.id, 'customer.created', customer('cus_before'));
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'] });
    const off = await createEndpoint(h, m, { url: r.url('/off'), events: ['customer.created'] });
    await h.call(m, 'PATCH', `/v1/webhook_endpoints/${off.id}`, { body: { disabled: true } });
    const after = await h.emit(m.id, 'customer.created', customer('cus_after'));
    await h.deliveryHandle(after.id, ep.id).result();
    assert.deepEqual(
      r.requests.map((q) => q.json.id),
      [after.id],
    );
    assert.equal(await env.db.webhookDelivery.count({ where: { eventId: before.id } }), 0);
    assert.equal((await deliveriesOf(off.id)).length, 0);
  });

  it('disabling an endpoint stops its pending retries; deleting does too', async () => {
    for (const how of ['disable', 'delete'] as const) {
      const r = await receiver(() => 500);
      const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.updated'] });
      const evt = await h.emit(m.id, 'customer.updated', customer(`cus_${how}`));
      await attemptRecorded(evt.id, ep.id);
      const res =
        how === 'disable' ? await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { disabled: true } }) : await h.call(m, 'DELETE', `/v1/webhook_endpoints/${ep.id}`);
      assert.equal(res.status, 200);
      const stoppedAt = Date.now();
      const result = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
      // 'stopped' when the workflow woke and found the endpoint gone; 'failed' when an attempt
      // was under way during the change (its record stops the retries).
      assert.ok(['stopped', 'failed'].includes(result.outcome), result.outcome);
      const d = await env.db.webhookDelivery.findFirstOrThrow({ where: { eventId: evt.id, endpointId: ep.id }, include: { attempts: true } });
      assert.equal(d.status, 'failed');
      assert.equal(d.nextRetryAt, null);
      assert.match(d.lastError ?? '', how === 'disable' ? /endpoint_disabled/ : /endpoint_deleted/);
      assert.ok(
        d.attempts.every((a) => a.attemptedAt.getTime() <= stoppedAt),
        'no attempt started after the change',
      );
      assert.equal(r.requests.length, d.attempts.length);
    }
  });

  it("a manual retry of a disabled endpoint's delivery is refused until it is enabled again", async () => {
    const r = await receiver((n) => (n === 1 ? 500 : 200));
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.updated'] });
    const evt = await h.emit(m.id, 'customer.updated', customer('cus_reenable'));
    await attemptRecorded(evt.id, ep.id);
    await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { disabled: true } });
    await h.deliveryHandle(evt.id, ep.id).result();
    const [d] = await deliveriesOf(ep.id);
    const refused = await h.call(m, 'POST', `/v1/webhook_deliveries/${d.id}/retry`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'invalid_state');
    await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { disabled: false } });
    assert.equal((await h.call(m, 'POST', `/v1/webhook_deliveries/${d.id}/retry`)).status, 200);
    const result = (await h.deliveryHandle(evt.id, ep.id).result()) as WebhookDeliveryResult;
    assert.equal(result.outcome, 'delivered');
  });

  it('checks the address again at delivery time (DNS rebinding) and never relaxes the guard in live mode', async () => {
    const r = await receiver();
    // Test mode: the name resolved to a public address at creation, to a private one now.
    h.dns.table.set('rebind.example.com', ['93.184.216.34']);
    const ep = await createEndpoint(h, m, { url: `https://rebind.example.com:${r.port}/hook`, events: ['customer.created'] });
    h.dns.table.set('rebind.example.com', ['10.0.0.7']);
    const evt = await h.emit(m.id, 'customer.created', customer('cus_rebind'));
    const a1 = await attemptRecorded(evt.id, ep.id);
    assert.equal(a1.statusCode, null);
    assert.match(a1.error ?? '', /^forbidden_address/);
    await h.call(m, 'DELETE', `/v1/webhook_endpoints/${ep.id}`);

    // Live mode: the harness allows loopback receivers for test mode only.
    h.dns.table.set('live-rebind.example.com', ['93.184.216.34']);
    const live = await createEndpoint(h, m, { url: `https://live-rebind.example.com:${r.port}/hook`, events: ['customer.created'] }, m.liveSecretKey);
    h.dns.table.set('live-rebind.example.com', ['127.0.0.1']);
    const liveEvt = await h.emit(m.id, 'customer.created', customer('cus_live'), { mode: 'live' });
    const a2 = await attemptRecorded(liveEvt.id, live.id);
    assert.match(a2.error ?? '', /^forbidden_address/);
    await h.call(m, 'DELETE', `/v1/webhook_endpoints/${live.id}`, { live: m.liveSecretKey });
    assert.equal(r.requests.length, 0, 'nothing reached the loopback receiver');
    assert.deepEqual(webhookTestingFor('live', h.testing), { lookup: h.testing.lookup });
  });

  it('the attempt activity is safe to run twice: one request, one record', async () => {
    const r = await receiver(() => 500);
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.updated'] });
    const evt = await h.emit(m.id, 'customer.updated', customer('cus_twice'), { dispatch: false });
    const delivery = await env.db.webhookDelivery.create({
      data: { id: `del_twice${Date.now()}`, merchantId: m.id, mode: 'test', eventId: evt.id, endpointId: ep.id, eventType: evt.type },
    });
    const input = { deliveryId: delivery.id, attemptNumber: 1, scheduleStep: 1, trigger: 'automatic' as const, automaticRetries: true };
    const deps = { db: env.db, config: env.config, testing: h.testing };
    const [a, b] = await Promise.all([attemptDelivery(deps, input), attemptDelivery(deps, input)]);
    const c = await attemptDelivery(deps, input);
    assert.equal(a.outcome, 'failed');
    assert.equal(b.statusCode, 500);
    assert.equal(c.statusCode, 500);
    assert.ok(c.retryDelayMs !== null && c.retryDelayMs <= 1000);
    assert.equal(await env.db.webhookDeliveryAttempt.count({ where: { deliveryId: delivery.id } }), 1);
    // Two racing executions may both have sent (at-least-once); a later one never sends again.
    assert.ok(r.requests.length <= 2);
    const sent = r.requests.length;
    await attemptDelivery(deps, input);
    assert.equal(r.requests.length, sent);
    await env.db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: 'failed' } });
  });
});
