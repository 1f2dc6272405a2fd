// The per-process auth cache: served from memory while LISTEN is up, invalidated in every
// process by NOTIFY at commit, bypassed when the notification channel is down.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../support/api';
import { hashKey } from '../../src/domain/api-keys/key-material';
import { notifyKeyChanged } from '../../src/domain/api-keys/invalidation';

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached');
}

describe('auth cache across API processes', () => {
  let env: TestEnv, m: TestMerchant;
  let otherUrl: string;
  before(async () => {
    [env, m] = await envAndMerchants(newMerchant);
    otherUrl = await env.startApp({});
  });

  it('serves a cached key from memory and drops it when a NOTIFY arrives', async () => {
    const created = (await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test' } })).body;
    const viaOther = () => call(env, 'GET', '/v1/merchants/current', { key: created.key, baseUrl: otherUrl });
    await eventually(async () => (await viaOther()).status === 200);
    // Remove the row behind the cache's back (no NOTIFY): the cached entry still answers,
    // which proves the request did not go to the database.
    await env.db.apiKey.update({ where: { id: created.id }, data: { revokedAt: new Date() } });
    assert.equal((await viaOther()).status, 200);
    await notifyKeyChanged(env.db, hashKey(created.key));
    await eventually(async () => (await viaOther()).status === 401);
  });

  it('ready() settles whether LISTEN succeeds or fails; only a listening cache stores entries', async () => {
    const { createAuthCache } = await import('../../api/middleware/auth-cache');
    const good = createAuthCache({ databaseUrl: env.databaseUrl });
    const bad = createAuthCache({ databaseUrl: 'postgresql://nobody@127.0.0.1:1/none' });
    try {
      await Promise.all([good.ready(), bad.ready()]);
      assert.equal(good.active, true);
      assert.equal(bad.active, false);
      const entry = {
        id: 'k',
        merchantId: 'm',
        mode: 'test' as const,
        type: 'secret' as const,
        keyHash: 'h',
        merchantName: 'n',
        merchantCreatedAt: new Date(),
        liveEnabledAt: null,
      };
      good.set('h', entry);
      bad.set('h', entry);
      assert.equal(good.get('h')?.id, 'k');
      assert.equal(bad.get('h'), undefined);
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('a rotation through one process invalidates the old value in the others', async () => {
    const created = (await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test' } })).body;
    assert.equal((await call(env, 'GET', '/v1/merchants/current', { key: created.key, baseUrl: otherUrl })).status, 200);
    const rotated = await m.call('POST', `/v1/api_keys/${created.id}/rotate`);
    assert.equal(rotated.status, 200);
    // same process: at once
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: created.key }), 401, 'unauthorized');
    // other process: as soon as the notification arrives (milliseconds)
    await eventually(async () => (await call(env, 'GET', '/v1/merchants/current', { key: created.key, baseUrl: otherUrl })).status === 401);
    assert.equal((await call(env, 'GET', '/v1/merchants/current', { key: rotated.body.key, baseUrl: otherUrl })).status, 200);
  });

  it('going live invalidates cached live keys of the merchant', async () => {
    const { createMerchant, insertKey, goLive } = await import('../../src/domain/merchants/create-merchant');
    const fresh = await createMerchant(env.db, { name: 'Goes live later' });
    const liveKey = await insertKey(env.db, fresh.merchant.id, 'secret', 'live', null);
    expectError(await call(env, 'GET', '/v1/merchants/current', { key: liveKey, baseUrl: otherUrl }), 403, 'live_mode_not_enabled');
    await goLive(env.db, fresh.merchant.id, new Date());
    await eventually(async () => (await call(env, 'GET', '/v1/merchants/current', { key: liveKey, baseUrl: otherUrl })).status === 200);
  });
});
