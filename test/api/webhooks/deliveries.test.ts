import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../../support/env';
import { expectError, newMerchant, type TestMerchant } from '../../support/api';
import { createEndpoint, startHarness, startReceiver, type Harness, type Receiver } from './harness';
import type { RecordedEvent } from '../../../src/events/record-event';

describe('webhook deliveries API', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let h: Harness;
  let r: Receiver;
  let m: TestMerchant & { liveSecretKey?: string };
  let other: TestMerchant;
  let epA: { id: string };
  let epB: { id: string };
  const events: RecordedEvent[] = [];

  before(async () => {
    env = await testEnv();
    h = await startHarness(env, { retryDelaysMs: [1000] });
    let firstToB = true;
    r = await startReceiver((_n, req) => {
      if (req.path === '/b' && firstToB) {
        firstToB = false;
        return 500;
      }
      return 200;
    });
    m = await newMerchant(env, { live: true });
    other = await newMerchant(env);
    epA = await createEndpoint(h, m, { url: r.url('/a'), events: ['*'] });
    epB = await createEndpoint(h, m, { url: r.url('/b'), events: ['refund.created'] });
    for (const [i, type] of (['refund.created', 'refund.succeeded', 'refund.created'] as const).entries()) {
      const evt = await h.emit(m.id, type, { id: `ref_${i}`, object: 'refund', amount: 100 * (i + 1), currency: 'ISK', status: 'pending' });
      events.push(evt);
    }
    for (const evt of events) {
      for (const ep of [epA, epB]) {
        if (ep === epB && evt.type !== 'refund.created') continue;
        await h.deliveryHandle(evt.id, ep.id).result();
      }
    }
  });
  after(async () => {
    await r?.close();
    await h?.close();
  });

  it("lists an endpoint's deliveries newest first with event, type, status, status code, latency and attempts", async () => {
    const res = await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${epA.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.has_more, false);
    const data = res.body.data as any[];
    assert.deepEqual(
      data.map((d) => d.event),
      [...events].reverse().map((e) => e.id),
    );
    for (const d of data) {
      assert.match(d.id, /^del_/);
      assert.equal(d.object, 'webhook_delivery');
      assert.equal(d.endpoint, epA.id);
      assert.ok(['refund.created', 'refund.succeeded'].includes(d.event_type));
      assert.equal(d.status, 'succeeded');
      assert.equal(d.status_code, 200);
      assert.equal(typeof d.latency_ms, 'number');
      assert.equal(d.attempt_count, d.attempts.length);
      assert.ok(d.attempts.length >= 1);
      for (const a of d.attempts) {
        assert.deepEqual(Object.keys(a).sort(), ['attempt_number', 'attempted_at', 'error', 'latency_ms', 'next_retry_at', 'response_body', 'status_code', 'trigger']);
      }
    }
    const b = await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${epB.id}`);
    assert.deepEqual(
      b.body.data.map((d: any) => d.event_type),
      ['refund.created', 'refund.created'],
    );
  });

  it('an endpoint whose host name does not resolve yet is accepted; its attempts fail with dns_failed until the name resolves', async () => {
    const later = await startReceiver(() => 200);
    const own = await newMerchant(env);
    try {
      const url = later.url('/later').replace('127.0.0.1', 'later.hooks.test');
      // The certificate names later.hooks.test; the fake DNS does not know the name yet.
      const res = await h.call(own, 'POST', '/v1/webhook_endpoints', { body: { url, events: ['refund.created'] } });
      assert.equal(res.status, 201, res.text);
      const ep = res.body;
      const evt = await h.emit(own.id, 'refund.created', { id: 'ref_dns', object: 'refund', amount: 100, currency: 'ISK', status: 'pending' });
      const failedAttempt = async () => {
        for (let i = 0; i < 100; i++) {
          const list = await h.call(own, 'GET', `/v1/webhook_deliveries?endpoint=${ep.id}`);
          const d = list.body.data.find((x: any) => x.event === evt.id);
          if (d && d.attempts.length > 0) return d;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error('no attempt recorded');
      };
      const d = await failedAttempt();
      assert.match(d.attempts[d.attempts.length - 1].error, /later\.hooks\.test could not be resolved/);
      assert.equal(later.requests.length, 0);
      h.dns.table.set('later.hooks.test', ['127.0.0.1']);
      await h.deliveryHandle(evt.id, ep.id).result();
      const done = (await h.call(own, 'GET', `/v1/webhook_deliveries?endpoint=${ep.id}`)).body.data.find((x: any) => x.event === evt.id);
      assert.equal(done.status, 'succeeded');
      assert.equal(later.requests.length, 1);
    } finally {
      h.dns.table.delete('later.hooks.test');
      await later.close();
    }
  });

  it('pages with limit and starting_after, and filters by event', async () => {
    const p1 = await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${epA.id}&limit=2`);
    assert.equal(p1.body.data.length, 2);
    assert.equal(p1.body.has_more, true);
    const p2 = await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${epA.id}&limit=2&starting_after=${p1.body.data[1].id}`);
    assert.equal(p2.body.data.length, 1);
    assert.equal(p2.body.has_more, false);
    assert.equal(p2.body.data[0].event, events[0]!.id);
    const all = await h.call(m, 'GET', '/v1/webhook_deliveries?limit=100');
    assert.equal(all.body.data.length, 5);
    const byEvent = await h.call(m, 'GET', `/v1/webhook_deliveries?event=${events[0]!.id}`);
    assert.deepEqual(byEvent.body.data.map((d: any) => d.endpoint).sort(), [epA.id, epB.id].sort());
    const one = await h.call(m, 'GET', `/v1/webhook_deliveries/${p2.body.data[0].id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, p2.body.data[0]);
  });

  it('validates the query', async () => {
    expectError(await h.call(m, 'GET', '/v1/webhook_deliveries?endpoint=we_nope'), 404, 'resource_not_found', 'endpoint');
    expectError(await h.call(m, 'GET', '/v1/webhook_deliveries?event=evt_nope'), 404, 'resource_not_found', 'event');
    expectError(await h.call(m, 'GET', '/v1/webhook_deliveries?endpoint=a%20b'), 400, 'validation_failed', 'endpoint');
    expectError(await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${epA.id}&endpoint=${epB.id}`), 400, 'validation_failed', 'endpoint');
    expectError(await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${epA.id}&limit=x`), 400, 'validation_failed', 'limit');
    expectError(await h.call(m, 'GET', `/v1/webhook_deliveries?starting_after=del_nope`), 404, 'resource_missing', 'starting_after');
    expectError(await h.call(m, 'GET', '/v1/webhook_deliveries/del_nope'), 404, 'resource_missing', 'id');
    expectError(await h.call(m, 'POST', '/v1/webhook_deliveries/del_nope/retry'), 404, 'resource_missing', 'id');
  });

  it('deliveries of another merchant and of the other mode are invisible', async () => {
    const [d] = (await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${epA.id}&limit=1`)).body.data;
    for (const c of [(method: string, path: string) => h.call(other, method, path), (method: string, path: string) => h.call(m, method, path, { live: m.liveSecretKey })]) {
      expectError(await c('GET', `/v1/webhook_deliveries?endpoint=${epA.id}`), 404, 'resource_not_found', 'endpoint');
      expectError(await c('GET', `/v1/webhook_deliveries?event=${events[0]!.id}`), 404, 'resource_not_found', 'event');
      expectError(await c('GET', `/v1/webhook_deliveries/${d.id}`), 404, 'resource_missing', 'id');
      expectError(await c('POST', `/v1/webhook_deliveries/${d.id}/retry`), 404, 'resource_missing', 'id');
      expectError(await c('GET', `/v1/webhook_deliveries?starting_after=${d.id}`), 404, 'resource_missing', 'starting_after');
      const list = await c('GET', '/v1/webhook_deliveries?limit=100');
      assert.equal(list.body.data.length, 0);
    }
  });

  it('the deliveries of a deleted endpoint stay listed without the filter; retrying them is refused', async () => {
    const ep = await createEndpoint(h, m, { url: r.url('/c'), events: ['credit_note.created'] });
    const evt = await h.emit(m.id, 'credit_note.created', { id: 'cn_1', object: 'credit_note', amount: 100, currency: 'ISK', status: 'issued' });
    await h.deliveryHandle(evt.id, ep.id).result();
    await h.call(m, 'DELETE', `/v1/webhook_endpoints/${ep.id}`);
    expectError(await h.call(m, 'GET', `/v1/webhook_deliveries?endpoint=${ep.id}`), 404, 'resource_not_found', 'endpoint');
    const listed = (await h.call(m, 'GET', `/v1/webhook_deliveries?event=${evt.id}`)).body.data as any[];
    assert.deepEqual(listed.map((x) => x.endpoint).sort(), [epA.id, ep.id].sort());
    const d = listed.find((x) => x.endpoint === ep.id);
    const err = expectError(await h.call(m, 'POST', `/v1/webhook_deliveries/${d.id}/retry`), 409, 'invalid_state');
    assert.match(err.message, /deleted/);
  });
});
