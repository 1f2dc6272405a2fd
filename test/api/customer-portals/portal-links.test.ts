// POST/GET/list/DELETE /v1/customer_portals (docs/portal.md): statuses always true when read,
// the token stored only as a hash, a bounded list, idempotent revocation, tenancy and modes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testEnv, type TestEnv, envAndMerchants } from '../../support/env';
import { expectError, twoModeMerchant, uniqueName, type TwoModeMerchant, type TestMerchant, newMerchant } from '../../support/api';

async function customer(m: TestMerchant, email = 'portal@example.is', live = false): Promise<string> {
  const res = live ? await (m as TwoModeMerchant).live('POST', '/v1/customers', { body: { email } }) : await m.call('POST', '/v1/customers', { body: { email } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

describe('customer portal links (API)', function () {
  this.timeout(60_000);
  let env: TestEnv, m: TwoModeMerchant, other: TestMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(twoModeMerchant, newMerchant)));

  it('creates a link: 201 cprt_ with the url (once), defaults, and only the token hash stored', async () => {
    const cus = await customer(m);
    const before = Date.now();
    const res = await m.call('POST', '/v1/customer_portals', { body: { customer: cus, metadata: { ticket: 'T-9' } } });
    assert.equal(res.status, 201, res.text);
    const l = res.body;
    assert.match(l.id, /^cprt_/);
    assert.deepEqual([l.object, l.customer, l.status, l.reusable, l.revoked_at, l.last_accessed_at], ['customer_portal', cus, 'active', true, null, null]);
    assert.deepEqual(l.metadata, { ticket: 'T-9' });
    const ttl = Date.parse(l.expires_at) - Date.parse(l.created_at);
    assert.equal(ttl, 3600 * 1000, 'default expires_in is 3600 s');
    assert.ok(Date.parse(l.created_at) >= before - 1000);
    const url = new URL(l.url);
    assert.equal(url.origin, new URL(env.config.publicBaseUrl).origin);
    const token = url.pathname.split('/').pop()!;
    assert.match(token, /^cpt_[0-9A-Za-z]{32}$/, '32 base62 characters: ~190 bits');
    const row = await env.db.customerPortalLink.findUnique({ where: { id: l.id } });
    assert.equal(row!.tokenHash, createHash('sha256').update(token).digest('hex'));
    assert.equal(JSON.stringify(row).includes(token), false, 'the token itself is not stored');

    const got = await m.call('GET', `/v1/customer_portals/${l.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, { ...l, url: null }, 'read back without the url');
  });

  it('expires_in and reusable: bounds 60 and 86400, wrong types → validation_failed', async () => {
    const cus = await customer(m);
    const short = await m.call('POST', '/v1/customer_portals', { body: { customer: cus, expires_in: 60, reusable: false } });
    assert.equal(short.status, 201, short.text);
    assert.equal(Date.parse(short.body.expires_at) - Date.parse(short.body.created_at), 60_000);
    assert.equal(short.body.reusable, false);
    const long = await m.call('POST', '/v1/customer_portals', { body: { customer: cus, expires_in: 86_400 } });
    assert.equal(Date.parse(long.body.expires_at) - Date.parse(long.body.created_at), 86_400_000);

    for (const [body, param] of [
      [{ customer: cus, expires_in: 59 }, 'expires_in'],
      [{ customer: cus, expires_in: 86_401 }, 'expires_in'],
      [{ customer: cus, expires_in: '3600' }, 'expires_in'],
      [{ customer: cus, expires_in: 90.5 }, 'expires_in'],
      [{ customer: cus, reusable: 'yes' }, 'reusable'],
      [{ customer: 42 }, 'customer'],
      [{}, 'customer'],
      [{ customer: cus, metadata: 'x' }, 'metadata'],
      [{ customer: cus, metadata: { k: 'v'.repeat(501) } }, 'metadata'],
    ] as const) {
      expectError(await m.call('POST', '/v1/customer_portals', { body }), 400, 'validation_failed', param);
    }
    // Unknown fields are ignored.
    assert.equal((await m.call('POST', '/v1/customer_portals', { body: { customer: cus, colour: 'blue' } })).status, 201);
  });

  it('unknown, foreign and other-mode customers → 404 with param customer; foreign links are unknown', async () => {
    expectError(await m.call('POST', '/v1/customer_portals', { body: { customer: 'cus_nope' } }), 404, 'resource_not_found', 'customer');
    const foreign = await customer(other);
    expectError(await m.call('POST', '/v1/customer_portals', { body: { customer: foreign } }), 404, 'resource_not_found', 'customer');
    const liveCus = await customer(m, 'live@example.is', true);
    expectError(await m.call('POST', '/v1/customer_portals', { body: { customer: liveCus } }), 404, 'resource_not_found', 'customer');

    const mine = (await m.call('POST', '/v1/customer_portals', { body: { customer: await customer(m) } })).body;
    expectError(await other.call('GET', `/v1/customer_portals/${mine.id}`), 404, 'resource_missing', 'id');
    expectError(await other.call('DELETE', `/v1/customer_portals/${mine.id}`), 404, 'resource_missing', 'id');
    expectError(await m.live('GET', `/v1/customer_portals/${mine.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', '/v1/customer_portals/cprt_unknown'), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', `/v1/customer_portals?customer=${foreign}`), 404, 'resource_not_found', 'customer');
    assert.equal((await m.call('GET', `/v1/customer_portals/${mine.id}`)).body.status, 'active', 'still active after the foreign DELETE');
  });

  it('the list is paged: at most limit (default 25, up to 100), newest first, has_more, starting_after', async () => {
    const cus = await customer(m);
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) ids.push((await m.call('POST', '/v1/customer_portals', { body: { customer: cus } })).body.id);
    const def = await m.call('GET', `/v1/customer_portals?customer=${cus}`);
    assert.equal(def.status, 200);
    assert.deepEqual(Object.keys(def.body), ['data', 'has_more']);
    assert.equal(def.body.data.length, 25);
    assert.equal(def.body.has_more, true);
    assert.deepEqual(
      def.body.data.map((l: any) => l.id),
      ids.slice().reverse().slice(0, 25),
    );
    assert.ok(def.body.data.every((l: any) => l.url === null && l.customer === cus));
    const three = await m.call('GET', `/v1/customer_portals?customer=${cus}&limit=3`);
    assert.deepEqual(
      three.body.data.map((l: any) => l.id),
      ids.slice(-3).reverse(),
    );
    assert.equal((await m.call('GET', `/v1/customer_portals?customer=${cus}&limit=500`)).body.data.length, 27, 'above 100 falls back to the maximum');
    const next = (await m.call('GET', `/v1/customer_portals?customer=${cus}&limit=2&starting_after=${ids[26]}`)).body;
    assert.deepEqual(
      next.data.map((l: any) => l.id),
      [ids[25], ids[24]],
    );
    assert.equal(next.has_more, true);
    const last = (await m.call('GET', `/v1/customer_portals?customer=${cus}&starting_after=${ids[2]}`)).body;
    assert.deepEqual(
      last.data.map((l: any) => l.id),
      [ids[1], ids[0]],
    );
    assert.equal(last.has_more, false);
    expectError(await m.call('GET', `/v1/customer_portals?customer=${cus}&starting_after=cprt_unknown`), 404, 'resource_missing', 'starting_after');
    expectError(await m.call('GET', `/v1/customer_portals?customer=${cus}&limit=abc`), 400, 'validation_failed', 'limit');
    // Without a customer: the tenant's links, still bounded.
    const all = await m.call('GET', '/v1/customer_portals?limit=100');
    assert.ok(all.body.data.length <= 100 && all.body.data.length >= 27);
  });

  it('DELETE revokes at once; a second DELETE answers the same object; statuses are true when read', async () => {
    const cus = await customer(m);
    const l = (await m.call('POST', '/v1/customer_portals', { body: { customer: cus } })).body;
    const r1 = await m.call('DELETE', `/v1/customer_portals/${l.id}`);
    assert.equal(r1.status, 200, r1.text);
    assert.equal(r1.body.status, 'revoked');
    assert.ok(r1.body.revoked_at);
    const r2 = await m.call('DELETE', `/v1/customer_portals/${l.id}`);
    assert.deepEqual(r2.body, r1.body, 'revoking a revoked link is a no-op');
    assert.equal((await m.call('GET', `/v1/customer_portals/${l.id}`)).body.status, 'revoked');

    // Expired the moment expires_at passes, with nothing running: move the row's expiry into the past.
    const e = (await m.call('POST', '/v1/customer_portals', { body: { customer: cus } })).body;
    await env.db.customerPortalLink.update({ where: { id: e.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    assert.equal((await m.call('GET', `/v1/customer_portals/${e.id}`)).body.status, 'expired');
    // A revoked link reads revoked even after its expiry.
    await m.call('DELETE', `/v1/customer_portals/${e.id}`);
    assert.equal((await m.call('GET', `/v1/customer_portals/${e.id}`)).body.status, 'revoked');
  });

  it('an Idempotency-Key replay returns the same link without the url', async () => {
    const cus = await customer(m);
    const key = uniqueName('cprt');
    const a = await m.call('POST', '/v1/customer_portals', { body: { customer: cus }, idempotencyKey: key });
    const b = await m.call('POST', '/v1/customer_portals', { body: { customer: cus }, idempotencyKey: key });
    assert.equal(b.headers.get('idempotent-replayed'), 'true');
    assert.equal(b.body.id, a.body.id);
    assert.ok(a.body.url);
    assert.equal(b.body.url, null);
    assert.equal(await env.db.customerPortalLink.count({ where: { customerId: cus } }), 1);
  });
});

describe('customer portal links: the token is never logged', function () {
  this.timeout(60_000);
  it('the access log prints the portal route pattern without the token', async () => {
    const env = await testEnv();
    const { createApp } = await import('../../../api/app');
    const { createWorkflowClients } = await import('../../../src/temporal/workflow-clients');
    const { listen } = await import('../../../boot/runtime/http');
    const { createLogger } = await import('../../../src/observability/logger');
    const lines: string[] = [];
    const logger = createLogger({ service: 'test', level: 'info', destination: { write: (l: string) => void lines.push(l) } });
    const app = createApp({
      db: env.db,
      config: { ...env.config, logRequests: true },
      temporal: env.temporal,
      workflows: createWorkflowClients(env.temporal),
      gateways: env.gateways,
      log: (l) => lines.push(l),
      logger,
    });
    const h = await listen(app, 0, '127.0.0.1');
    try {
      const m = await newMerchant(env);
      const cus = await customer(m);
      const link = (await m.call('POST', '/v1/customer_portals', { body: { customer: cus } })).body;
      const token = new URL(link.url).pathname.split('/').pop()!;
      await fetch(`http://127.0.0.1:${h.port}/portal/open/${token}`, { redirect: 'manual' });
      await fetch(`http://127.0.0.1:${h.port}/portal/open/${token}x`, { redirect: 'manual' });
      assert.ok(
        lines.some((l) => /"route":"\/portal\/open\/:[a-z_]+"/i.test(l)),
        lines.join('\n'),
      );
      assert.equal(
        lines.some((l) => l.includes(token)),
        false,
      );
    } finally {
      await h.close(1000);
      await app.shutdown();
    }
  });
});
