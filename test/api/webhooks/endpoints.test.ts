import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../../support/api';
import { createEndpoint, startHarness, type Harness } from './harness';
import { EVENT_TYPE_NAMES } from '../../../src/events/types';

describe('webhook endpoints API', () => {
  let env: TestEnv;
  let h: Harness;
  let m: TestMerchant & { liveSecretKey?: string };
  let other: TestMerchant;
  before(async () => {
    env = await testEnv();
    h = await startHarness(env, { retryDelaysMs: [1000] });
    m = await newMerchant(env, { live: true });
    other = await newMerchant(env);
  });
  after(async () => {
    await h?.close();
  });

  const url = 'https://hooks.test:8443/billing';

  it('creates an endpoint whose secret appears only in the create response', async () => {
    const res = await h.call(m, 'POST', '/v1/webhook_endpoints', {
      body: { url, events: ['invoice.paid', 'payment.succeeded', 'invoice.paid'], description: 'ledger', unknown_field: 1 },
    });
    assert.equal(res.status, 201, res.text);
    const ep = res.body;
    assert.match(ep.id, /^we_/);
    assert.match(ep.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(ep.object, 'webhook_endpoint');
    assert.equal(ep.url, url);
    assert.deepEqual(ep.events, ['payment.succeeded', 'invoice.paid'], 'deduplicated, catalogue order');
    assert.equal(ep.description, 'ledger');
    assert.equal(ep.status, 'enabled');
    assert.ok(Date.parse(ep.created_at));

    const got = await h.call(m, 'GET', `/v1/webhook_endpoints/${ep.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.secret, undefined);
    const { secret: _secret, ...withoutSecret } = ep;
    assert.deepEqual({ ...got.body, updated_at: null }, { ...withoutSecret, updated_at: null });
    const list = await h.call(m, 'GET', '/v1/webhook_endpoints');
    assert.ok(list.body.data.some((e: any) => e.id === ep.id));
    assert.equal(list.text.includes(ep.secret), false);
    const patched = await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { description: 'x' } });
    assert.equal(patched.text.includes(ep.secret), false);
  });

  it('accepts "*" for every event type, alone', async () => {
    const ep = await createEndpoint(h, m, { url, events: ['invoice.paid', '*'] });
    assert.deepEqual(ep.events, ['*']);
  });

  it('validates the body', async () => {
    const post = (body: unknown) => h.call(m, 'POST', '/v1/webhook_endpoints', { body });
    expectError(await post({ events: ['invoice.paid'] }), 400, 'validation_failed', 'url');
    expectError(await post({ url }), 400, 'validation_failed', 'events');
    expectError(await post({ url, events: [] }), 400, 'validation_failed', 'events');
    expectError(await post({ url, events: ['invoice.exploded'] }), 400, 'validation_failed', 'events');
    expectError(await post({ url, events: 'invoice.paid' }), 400, 'validation_failed', 'events');
    expectError(await post({ url, events: [42] }), 400, 'validation_failed');
    expectError(await post({ url, events: Array(101).fill('invoice.paid') }), 400, 'validation_failed', 'events');
    expectError(await post({ url: 42, events: ['invoice.paid'] }), 400, 'validation_failed', 'url');
    expectError(await post({ url: 'not a url', events: ['invoice.paid'] }), 400, 'validation_failed', 'url');
    expectError(await post({ url: `https://hooks.test/${'a'.repeat(2048)}`, events: ['invoice.paid'] }), 400, 'validation_failed', 'url');
    expectError(await post({ url, events: ['invoice.paid'], description: 7 }), 400, 'validation_failed', 'description');
    expectError(await post({ url, events: ['invoice.paid'], description: 'd'.repeat(1001) }), 400, 'validation_failed', 'description');
    expectError(await h.call(m, 'POST', '/v1/webhook_endpoints', { rawBody: '[1]', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
    expectError(await post({ url: 'https://nowhere.invalid/hook', events: ['invoice.paid'] }), 400, 'url_not_allowed', 'url');
  });

  describe('refuses addresses inside our network (SSRF), at create and update', () => {
    // The shared app runs without any test relaxation: literals are refused before DNS.
    const literals: Array<[string, string]> = [
      ['plain http', 'http://hooks.example.com/hook'],
      ['localhost', 'https://localhost/hook'],
      ['a localhost subdomain', 'https://api.localhost/hook'],
      ['loopback IPv4', 'https://127.0.0.1/hook'],
      ['loopback IPv4, other spelling', 'https://2130706433/hook'],
      ['loopback IPv6', 'https://[::1]/hook'],
      ['private 10/8', 'https://10.0.0.1/hook'],
      ['private 172.16/12', 'https://172.16.5.4/hook'],
      ['private 192.168/16', 'https://192.168.0.1/hook'],
      ['unique local IPv6', 'https://[fd00::1]/hook'],
      ['link-local IPv4', 'https://169.254.1.1/hook'],
      ['link-local IPv6', 'https://[fe80::1]/hook'],
      ['cloud metadata', 'https://169.254.169.254/latest/meta-data'],
      ['cloud metadata IPv6', 'https://[fd00:ec2::254]/'],
      ['cloud metadata name', 'https://metadata.google.internal/computeMetadata/v1/'],
      ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/hook'],
      ['unspecified', 'https://0.0.0.0/hook'],
      ['CGNAT', 'https://100.64.0.1/hook'],
      ['credentials in the URL', 'https://user:pw@hooks.example.com/hook'],
      ['a single-label name', 'https://intranet/hook'],
    ];
    for (const [what, bad] of literals) {
      it(`${what}: ${bad}`, async () => {
        const err = expectError(
          await newMerchant(env).then((x) => x.call('POST', '/v1/webhook_endpoints', { body: { url: bad, events: ['invoice.paid'] } })),
          400,
          'url_not_allowed',
          'url',
        );
        assert.ok(err.message.length > 0);
      });
    }

    // Names that resolve inside our network: refused after DNS even by the test harness, which
    // allows loopback receivers in test mode and nothing else.
    const resolved: Array<[string, string]> = [
      ['resolves to 10/8', 'private10.example.com'],
      ['resolves to 172.16/12', 'private172.example.com'],
      ['resolves to 192.168/16', 'private192.example.com'],
      ['resolves to a unique local IPv6', 'ula6.example.com'],
      ['resolves to link-local', 'linklocal.example.com'],
      ['resolves to link-local IPv6', 'linklocal6.example.com'],
      ['resolves to the metadata address', 'metadata.example.com'],
      ['resolves to the IPv6 metadata address', 'metadata6.example.com'],
      ['resolves to an IPv4-mapped private address', 'mapped.example.com'],
      ['has one public and one private address', 'mixed.example.com'],
      ['resolves to 0.0.0.0', 'unspecified.example.com'],
    ];
    for (const [what, host] of resolved) {
      it(`a name that ${what}`, async () => {
        expectError(await h.call(m, 'POST', '/v1/webhook_endpoints', { body: { url: `https://${host}/hook`, events: ['*'] } }), 400, 'url_not_allowed', 'url');
      });
    }

    it('loopback is refused in live mode even where test mode allows a loopback receiver', async () => {
      for (const bad of ['https://127.0.0.1:8443/hook', 'https://loopback.example.com/hook', 'https://hooks.test/hook', 'https://localhost/hook']) {
        expectError(await h.call(m, 'POST', '/v1/webhook_endpoints', { body: { url: bad, events: ['*'] }, live: m.liveSecretKey }), 400, 'url_not_allowed', 'url');
      }
      const ok = await h.call(m, 'POST', '/v1/webhook_endpoints', { body: { url: 'https://public.example.com/hook', events: ['*'] }, live: m.liveSecretKey });
      assert.equal(ok.status, 201, ok.text);
      // And the same loopback URL is accepted for a test-mode endpoint of the harness.
      assert.equal((await h.call(m, 'POST', '/v1/webhook_endpoints', { body: { url: 'https://127.0.0.1:8443/hook', events: ['*'] } })).status, 201);
    });

    it('an update to a forbidden URL is refused and changes nothing', async () => {
      const ep = await createEndpoint(h, m, { url, events: ['*'] });
      for (const bad of ['http://hooks.test/x', 'https://10.1.1.1/x', 'https://metadata.example.com/x', 'https://169.254.169.254/']) {
        expectError(await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { url: bad, disabled: true } }), 400, 'url_not_allowed', 'url');
      }
      const got = await h.call(m, 'GET', `/v1/webhook_endpoints/${ep.id}`);
      assert.deepEqual([got.body.url, got.body.status], [url, 'enabled']);
    });
  });

  it('updates url, events, description and enabled state', async () => {
    const ep = await createEndpoint(h, m, { url, events: ['invoice.paid'], description: 'a' });
    const res = await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, {
      body: { url: 'https://public.example.com/new', events: ['subscription.created', 'subscription.canceled'], description: null, disabled: true },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.url, 'https://public.example.com/new');
    assert.deepEqual(res.body.events, ['subscription.created', 'subscription.canceled']);
    assert.equal(res.body.description, null);
    assert.equal(res.body.status, 'disabled');
    const back = await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { disabled: false } });
    assert.equal(back.body.status, 'enabled');
    assert.deepEqual(back.body.events, ['subscription.created', 'subscription.canceled']);
    const same = await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: {} });
    assert.equal(same.status, 200);
    expectError(await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { disabled: 'yes' } }), 400, 'validation_failed', 'disabled');
    expectError(await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { events: [] } }), 400, 'validation_failed', 'events');
    expectError(await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { url: null } }), 400, 'validation_failed', 'url');
    expectError(await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { events: ['nope'] } }), 400, 'validation_failed', 'events');
  });

  it('deletes an endpoint: it is gone from the API', async () => {
    const ep = await createEndpoint(h, m, { url, events: ['*'] });
    const del = await h.call(m, 'DELETE', `/v1/webhook_endpoints/${ep.id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { id: ep.id, object: 'webhook_endpoint', deleted: true });
    expectError(await h.call(m, 'GET', `/v1/webhook_endpoints/${ep.id}`), 404, 'resource_missing', 'id');
    expectError(await h.call(m, 'DELETE', `/v1/webhook_endpoints/${ep.id}`), 404, 'resource_missing', 'id');
    expectError(await h.call(m, 'PATCH', `/v1/webhook_endpoints/${ep.id}`, { body: { disabled: false } }), 404, 'resource_missing', 'id');
    const list = await h.call(m, 'GET', '/v1/webhook_endpoints?limit=100');
    assert.equal(
      list.body.data.some((e: any) => e.id === ep.id),
      false,
    );
    expectError(await h.call(m, 'GET', `/v1/webhook_endpoints?starting_after=${ep.id}`), 404, 'resource_missing', 'starting_after');
  });

  it('pages the list newest first', async () => {
    const fresh = await newMerchant(env);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createEndpoint(h, fresh, { url, events: ['*'] })).id);
    const p1 = await h.call(fresh, 'GET', '/v1/webhook_endpoints?limit=2');
    assert.deepEqual(
      p1.body.data.map((e: any) => e.id),
      [ids[2], ids[1]],
    );
    assert.equal(p1.body.has_more, true);
    const p2 = await h.call(fresh, 'GET', `/v1/webhook_endpoints?limit=2&starting_after=${ids[1]}`);
    assert.deepEqual(
      p2.body.data.map((e: any) => e.id),
      [ids[0]],
    );
    assert.equal(p2.body.has_more, false);
    expectError(await h.call(fresh, 'GET', '/v1/webhook_endpoints?limit=abc'), 400, 'validation_failed', 'limit');
  });

  it('endpoints of another merchant and of the other mode are invisible', async () => {
    const ep = await createEndpoint(h, m, { url, events: ['*'] });
    const liveEp = await createEndpoint(h, m, { url: 'https://public.example.com/live', events: ['*'] }, m.liveSecretKey);
    for (const [who, opts] of [
      ['another merchant', { as: other }],
      ['the other mode', { as: m, live: m.liveSecretKey }],
    ] as const) {
      const c = (method: string, path: string, body?: unknown) => h.call(opts.as, method, path, { body, live: 'live' in opts ? opts.live : undefined });
      expectError(await c('GET', `/v1/webhook_endpoints/${ep.id}`), 404, 'resource_missing', 'id');
      expectError(await c('PATCH', `/v1/webhook_endpoints/${ep.id}`, { disabled: true }), 404, 'resource_missing', 'id');
      expectError(await c('DELETE', `/v1/webhook_endpoints/${ep.id}`), 404, 'resource_missing', 'id');
      expectError(await c('GET', `/v1/webhook_endpoints?starting_after=${ep.id}`), 404, 'resource_missing', 'starting_after');
      const list = await c('GET', '/v1/webhook_endpoints?limit=100');
      assert.equal(
        list.body.data.some((e: any) => e.id === ep.id),
        false,
        who,
      );
    }
    // The live endpoint is visible with the live key only.
    assert.equal((await h.call(m, 'GET', `/v1/webhook_endpoints/${liveEp.id}`, { live: m.liveSecretKey })).status, 200);
    expectError(await h.call(m, 'GET', `/v1/webhook_endpoints/${liveEp.id}`), 404, 'resource_missing', 'id');
    assert.equal((await h.call(m, 'GET', `/v1/webhook_endpoints/${ep.id}`)).body.status, 'enabled');
  });

  it('requires a secret key', async () => {
    expectError(await call(env, 'GET', '/v1/webhook_endpoints', { key: m.publishableKey, merchant: m.id }), 403, 'secret_key_required');
    expectError(await call(env, 'GET', '/v1/webhook_endpoints'), 401, 'unauthorized');
  });

  it('replays a create with the same Idempotency-Key instead of creating a second endpoint', async () => {
    const fresh = await newMerchant(env);
    const key = `we-${Date.now()}`;
    const a = await h.call(fresh, 'POST', '/v1/webhook_endpoints', { body: { url, events: ['*'] }, idempotencyKey: key });
    const b = await h.call(fresh, 'POST', '/v1/webhook_endpoints', { body: { url, events: ['*'] }, idempotencyKey: key });
    assert.equal(a.body.id, b.body.id);
    assert.equal((await h.call(fresh, 'GET', '/v1/webhook_endpoints')).body.data.length, 1);
  });

  it('knows every catalogue type', async () => {
    const ep = await createEndpoint(h, m, { url, events: [...EVENT_TYPE_NAMES] });
    assert.deepEqual(ep.events, [...EVENT_TYPE_NAMES]);
  });
});
