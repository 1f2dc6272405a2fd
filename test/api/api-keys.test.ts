import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../support/api';

describe('API keys', () => {
  let env: TestEnv, m: TestMerchant;
  before(async () => ([env, m] = await envAndMerchants(newMerchant)));

  it('creates a key whose full value appears only in the create response and works at once', async () => {
    const res = await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', label: 'backend' } });
    assert.equal(res.status, 201);
    assert.match(res.body.id, /^key_/);
    assert.match(res.body.key, /^sk_test_[0-9A-Za-z]{32}$/);
    assert.equal(res.body.last4, res.body.key.slice(-4));
    assert.deepEqual([res.body.type, res.body.mode, res.body.label], ['secret', 'test', 'backend']);
    const list = await m.call('GET', '/v1/api_keys');
    const listed = list.body.data.find((k: any) => k.id === res.body.id);
    assert.ok(listed);
    assert.equal(listed.key, undefined);
    assert.equal(listed.last4, res.body.last4);
    assert.equal(list.text.includes(res.body.key), false);
    const viaNew = await call(env, 'GET', '/v1/merchants/current', { key: res.body.key });
    assert.equal(viaNew.body.id, m.id);
    // stored as a hash only
    const row = await env.db.apiKey.findUnique({ where: { id: res.body.id } });
    assert.notEqual(row!.keyHash, res.body.key);
    assert.match(row!.keyHash, /^[0-9a-f]{64}$/);
  });

  it('creates publishable keys', async () => {
    const res = await m.call('POST', '/v1/api_keys', { body: { type: 'publishable', mode: 'test' } });
    assert.equal(res.status, 201);
    assert.match(res.body.key, /^pk_test_/);
    assert.equal(res.body.label, null);
  });

  it("rejects bad input: unknown type, wrong types, a mode other than the key's", async () => {
    expectError(await m.call('POST', '/v1/api_keys', { body: { type: 'admin', mode: 'test' } }), 400, 'validation_failed', 'type');
    expectError(await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: true } }), 400, 'validation_failed', 'mode');
    expectError(await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', label: 'x'.repeat(201) } }), 400, 'validation_failed', 'label');
    expectError(await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'live' } }), 400, 'validation_failed', 'mode');
  });

  it('rotation returns a new value, invalidates the old one at once and keeps id and created_at', async () => {
    const created = (await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test' } })).body;
    const rotated = await m.call('POST', `/v1/api_keys/${created.id}/rotate`);
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.id, created.id);
    assert.equal(rotated.body.created_at, created.created_at);
    assert.notEqual(rotated.body.key, created.key);
    assert.equal(rotated.body.last4, rotated.body.key.slice(-4));
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: created.key }), 401, 'unauthorized');
    assert.equal((await call(env, 'GET', '/v1/merchants/current', { key: rotated.body.key })).status, 200);
  });

  it('revocation is immediate and permanent', async () => {
    const created = (await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test' } })).body;
    const del = await m.call('DELETE', `/v1/api_keys/${created.id}`);
    assert.equal(del.status, 204);
    assert.equal(del.text, '');
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: created.key }), 401, 'unauthorized');
    expectError(await m.call('POST', `/v1/api_keys/${created.id}/rotate`), 404, 'resource_missing');
    expectError(await m.call('DELETE', `/v1/api_keys/${created.id}`), 404, 'resource_missing');
    const list = await m.call('GET', '/v1/api_keys?limit=100');
    assert.equal(
      list.body.data.some((k: any) => k.id === created.id),
      false,
    );
  });

  it('a key can revoke itself, after which it is refused', async () => {
    const created = (await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test' } })).body;
    const del = await call(env, 'DELETE', `/v1/api_keys/${created.id}`, { key: created.key, merchant: m.id });
    assert.equal(del.status, 204);
    expectError(await call(env, 'GET', '/v1/api_keys', { key: created.key, merchant: m.id }), 401, 'unauthorized');
  });
});
