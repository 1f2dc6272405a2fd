// Signing secrets at rest and their rotation (docs/webhooks.md "Signing secrets"): the stored
// value is sealed, a rotation with `expires_in` signs with both secrets until it ends, and rows
// from before the encryption are sealed at start-up. Deliveries go through the real delivery
// workflow to a real HTTPS receiver; signatures are checked by the receiver's own verifier.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { createEndpoint, receiverVerifies, startHarness, startReceiver, type Harness, type Receiver } from '../api/webhooks/harness';
import { openEndpointSecret, sealPlaintextEndpointSecrets } from '../../src/domain/webhooks/endpoint-secrets';
import { isSealed, newEncryptionKey } from '../../src/crypto/secret-box';
import type { WebhookDeliveryResult } from '../../src/contracts/webhooks';

const customer = (id: string) => ({ id, object: 'customer', email: `${id}@example.is`, name: 'Guðrún', created_at: new Date().toISOString() });

describe('webhook signing secrets: sealed at rest, rotation with an overlap', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let h: Harness;
  let m: TestMerchant;
  let r: Receiver;

  before(async () => {
    env = await testEnv();
    h = await startHarness(env, { retryDelaysMs: [], attemptTimeoutMs: 5000 });
    r = await startReceiver();
  });
  beforeEach(async () => {
    m = await newMerchant(env);
  });
  after(async () => {
    await r?.close();
    await h?.close();
  });

  /** Emits an event, waits for its delivery and returns the request the receiver got. */
  const deliver = async (endpointId: string, tag: string) => {
    const before = r.requests.length;
    const evt = await h.emit(m.id, 'customer.created', customer(`cus_${tag}`));
    const result = (await h.deliveryHandle(evt.id, endpointId).result()) as WebhookDeliveryResult;
    assert.equal(result.outcome, 'delivered');
    const got = r.requests.slice(before).find((q) => q.json.id === evt.id);
    assert.ok(got, 'the receiver got the event');
    return got;
  };

  it('stores the secret sealed: the row does not contain it and it opens only for its own endpoint', async () => {
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'] });
    const row = await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
    assert.match(ep.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.ok(isSealed(row.secret), 'stored in the sealed format');
    assert.equal(row.secret.includes(ep.secret), false);
    assert.equal(row.secret.includes(ep.secret.slice('whsec_'.length, 20)), false);
    assert.equal(openEndpointSecret(env.config, ep.id, row.secret), ep.secret);
    // A sealed value copied to another endpoint's row does not open there (the id is bound in).
    assert.throws(() => openEndpointSecret(env.config, 'we_someoneElse', row.secret));
    // Nor under another key.
    assert.throws(() => openEndpointSecret({ accountingEncryptionKey: newEncryptionKey() }, ep.id, row.secret));
  });

  it('keeps no plaintext secret for replays: the create and rotate responses replay with secret null', async () => {
    const createKey = randomUUID();
    const body = { url: r.url(), events: ['customer.created'] };
    const created = await h.call(m, 'POST', '/v1/webhook_endpoints', { body, idempotencyKey: createKey });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const createReplay = await h.call(m, 'POST', '/v1/webhook_endpoints', { body, idempotencyKey: createKey });
    assert.equal(createReplay.status, 201);
    assert.equal(createReplay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(createReplay.body, { ...created.body, secret: null }, 'the same endpoint, its secret null');

    const rotateKey = randomUUID();
    const rotated = await h.call(m, 'POST', `/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { body: { expires_in: 600 }, idempotencyKey: rotateKey });
    assert.equal(rotated.status, 200, rotated.text);
    const newSecret = rotated.body.secret as string;
    assert.match(newSecret, /^whsec_[A-Za-z0-9_-]{43}$/);
    const rotateReplay = await h.call(m, 'POST', `/v1/webhook_endpoints/${created.body.id}/rotate_secret`, { body: { expires_in: 600 }, idempotencyKey: rotateKey });
    assert.equal(rotateReplay.status, 200);
    assert.equal(rotateReplay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(rotateReplay.body, { ...rotated.body, secret: null });
    // The replay did not rotate again: the new secret still signs, the old one during the overlap.
    const got = await deliver(created.body.id, 'replayed');
    assert.ok(receiverVerifies(newSecret, got.headers, got.body));
    assert.ok(receiverVerifies(created.body.secret, got.headers, got.body));

    // Neither stored row reveals a secret: the idempotency rows hold null, the endpoint row sealed values.
    const stored = await env.db.idempotencyKey.findMany({ where: { merchantId: m.id, key: { in: [createKey, rotateKey] } } });
    assert.equal(stored.length, 2);
    for (const row of stored) {
      const text = JSON.stringify(row);
      assert.equal((row.responseBody as { secret?: unknown }).secret, null);
      assert.equal(text.includes('whsec_'), false, 'no whsec_ value in the idempotency row');
      assert.equal(text.includes(created.body.secret) || text.includes(newSecret), false);
    }
    const endpointRow = JSON.stringify(await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.id } }));
    assert.equal(endpointRow.includes('whsec_'), false, 'no whsec_ value in the endpoint row');
    for (const secret of [created.body.secret as string, newSecret]) {
      assert.equal(endpointRow.includes(secret.slice('whsec_'.length)), false);
      assert.equal(endpointRow.includes(Buffer.from(secret).toString('base64')), false);
    }
  });

  it('during the overlap a delivery verifies with either secret and with neither fails; after it, only the new one', async () => {
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'] });
    const oldSecret = ep.secret;

    const rotated = await h.call(m, 'POST', `/v1/webhook_endpoints/${ep.id}/rotate_secret`, { body: { expires_in: 3600 } });
    assert.equal(rotated.status, 200, rotated.text);
    const newSecret = rotated.body.secret as string;
    assert.match(newSecret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(newSecret, oldSecret);
    assert.equal(rotated.body.id, ep.id);
    const row = await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
    assert.ok(isSealed(row.secret) && row.previousSecret !== null && isSealed(row.previousSecret));
    assert.equal(JSON.stringify(row).includes(newSecret) || JSON.stringify(row).includes(oldSecret), false, 'neither secret readable from the row');
    const expiresAt = row.previousSecretExpiresAt!.getTime();
    assert.ok(Math.abs(expiresAt - (Date.now() + 3600_000)) < 60_000, 'the old secret expires in an hour');
    // Never shown again.
    const got = await h.call(m, 'GET', `/v1/webhook_endpoints/${ep.id}`);
    assert.equal(got.body.secret, undefined);

    const during = await deliver(ep.id, 'overlap');
    assert.equal(String(during.headers['service-signature']).split(',').length, 2, 'one signature per live secret');
    assert.ok(receiverVerifies(newSecret, during.headers, during.body), 'verifies with the new secret');
    assert.ok(receiverVerifies(oldSecret, during.headers, during.body), 'verifies with the old secret');
    assert.equal(receiverVerifies('whsec_neitherNeitherNeitherNeitherNeitherNeith', during.headers, during.body), false, 'fails with neither');
    assert.equal(receiverVerifies(newSecret, during.headers, during.body.replace('Guðrún', 'Gudrun')), false, 'a changed body fails');

    // The overlap ends: from then on only the new secret signs.
    await env.db.webhookEndpoint.update({ where: { id: ep.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    const after = await deliver(ep.id, 'after');
    assert.equal(String(after.headers['service-signature']).split(',').length, 1);
    assert.ok(receiverVerifies(newSecret, after.headers, after.body));
    assert.equal(receiverVerifies(oldSecret, after.headers, after.body), false);
  });

  it('expires_in 0 (the default) stops the old secret at once; bounds and ids are checked', async () => {
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'] });
    const rotated = await h.call(m, 'POST', `/v1/webhook_endpoints/${ep.id}/rotate_secret`, { body: {} });
    assert.equal(rotated.status, 200, rotated.text);
    const row = await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
    assert.equal(row.previousSecret, null);
    const got = await deliver(ep.id, 'at-once');
    assert.ok(receiverVerifies(rotated.body.secret, got.headers, got.body));
    assert.equal(receiverVerifies(ep.secret, got.headers, got.body), false);

    for (const bad of [86_401, -1, 1.5, '60', null]) {
      const res = await h.call(m, 'POST', `/v1/webhook_endpoints/${ep.id}/rotate_secret`, { body: { expires_in: bad } });
      assert.equal(res.status, 400, `expires_in ${String(bad)}`);
      assert.equal(res.body.error.param, 'expires_in');
    }
    const max = await h.call(m, 'POST', `/v1/webhook_endpoints/${ep.id}/rotate_secret`, { body: { expires_in: 86_400 } });
    assert.equal(max.status, 200);
    const unknown = await h.call(m, 'POST', '/v1/webhook_endpoints/we_unknown/rotate_secret', { body: {} });
    assert.equal(unknown.status, 404);
    const stranger = await newMerchant(env);
    const foreign = await h.call(stranger, 'POST', `/v1/webhook_endpoints/${ep.id}/rotate_secret`, { body: {} });
    assert.equal(foreign.status, 404);
    await h.call(m, 'DELETE', `/v1/webhook_endpoints/${ep.id}`);
    const deleted = await h.call(m, 'POST', `/v1/webhook_endpoints/${ep.id}/rotate_secret`, { body: {} });
    assert.equal(deleted.status, 404);
  });

  it('seals secrets left in plain text by the migration, once, and they keep signing', async () => {
    const ep = await createEndpoint(h, m, { url: r.url(), events: ['customer.created'] });
    // A row as it was before the encryption: the secret in plain text.
    await env.db.webhookEndpoint.update({ where: { id: ep.id }, data: { secret: ep.secret } });
    const plain = await deliver(ep.id, 'plain');
    assert.ok(receiverVerifies(ep.secret, plain.headers, plain.body), 'a plain row still signs until sealed');

    assert.ok((await sealPlaintextEndpointSecrets(env.db, env.config)) >= 1);
    assert.equal(await sealPlaintextEndpointSecrets(env.db, env.config), 0, 'a second run seals nothing');
    const row = await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } });
    assert.ok(isSealed(row.secret));
    assert.equal(row.secret.includes(ep.secret), false);
    const sealed = await deliver(ep.id, 'sealed');
    assert.ok(receiverVerifies(ep.secret, sealed.headers, sealed.body), 'the same secret signs after sealing');
  });
});
