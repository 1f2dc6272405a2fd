// Failed authentication is rate limited per client address, before the body is read
// (api/middleware/auth-failures.ts, docs/auth.md "Failed authentication").
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../support/api';
import { createAuthFailureLimiter } from '../../api/middleware/auth-failures';
import { parseTrustedProxies, resolveClientAddress } from '../../api/middleware/client-address';

const badKey = (c: string) => `sk_test_${c.repeat(32)}`;

describe('failed authentication is rate limited per address', () => {
  let env: TestEnv, m: TestMerchant;
  let baseUrl: string;
  before(async () => {
    [env, m] = await envAndMerchants(newMerchant);
    baseUrl = await env.startApp({ authFailureLimit: 3, authFailureWindowSeconds: 3600 });
  });

  it('answers 429 with Retry-After after the budget, before reading the body; a known valid key still passes', async () => {
    // A valid key seen once is in this process's auth cache.
    assert.equal((await call(env, 'GET', '/v1/customers', { baseUrl, key: m.secretKey, merchant: m.id })).status, 200);
    for (let i = 0; i < 3; i++) {
      expectError(await call(env, 'GET', '/v1/customers', { baseUrl, key: `sk_test_${'A'.repeat(32)}`, merchant: m.id }), 401, 'unauthorized');
    }
    const blocked = await call(env, 'GET', '/v1/customers', { baseUrl, key: `sk_test_${'B'.repeat(32)}`, merchant: m.id });
    expectError(blocked, 429, 'rate_limited');
    assert.ok(Number(blocked.headers.get('retry-after')) > 0);
    // No key at all, or a large body: refused at once, the body unread.
    expectError(await call(env, 'GET', '/v1/customers', { baseUrl }), 429, 'rate_limited');
    const big = await call(env, 'POST', '/v1/customers', { baseUrl, key: `sk_test_${'C'.repeat(32)}`, merchant: m.id, body: { name: 'x'.repeat(900_000) } });
    expectError(big, 429, 'rate_limited');
    // The valid key of another client behind the same address is not locked out.
    assert.equal((await call(env, 'GET', '/v1/customers', { baseUrl, key: m.secretKey, merchant: m.id })).status, 200);
    // Pages outside the API are not gated.
    assert.notEqual((await call(env, 'GET', '/healthz', { baseUrl })).status, 429);
    // Counting is per process: the suite's main instance is unaffected.
    expectError(await call(env, 'GET', '/v1/customers', { key: `sk_test_${'D'.repeat(32)}`, merchant: m.id }), 401, 'unauthorized');
  });

  it('without a trusted proxy: a valid key the process has never seen passes from a blocked address; forwarding headers are ignored', async () => {
    const url = await env.startApp({ authFailureLimit: 3, authFailureWindowSeconds: 3600 });
    // Another client at this address (127.0.0.1) fails until the address is blocked.
    for (let i = 0; i < 3; i++) expectError(await call(env, 'GET', '/v1/customers', { baseUrl: url, key: badKey('E'), merchant: m.id }), 401, 'unauthorized');
    expectError(await call(env, 'GET', '/v1/customers', { baseUrl: url, key: badKey('F'), merchant: m.id }), 429, 'rate_limited');
    // A second merchant's key, never used against this process (not in its auth cache: the case of
    // a key the 30 s cache has forgotten), is still answered.
    const other = await newMerchant(env);
    assert.equal((await call(env, 'GET', '/v1/customers', { baseUrl: url, key: other.secretKey, merchant: other.id })).status, 200);
    assert.equal((await call(env, 'GET', '/v1/merchants/current', { baseUrl: url, key: other.secretKey })).status, 200);
    // The peer is not a trusted proxy: a made-up X-Forwarded-For does not escape the block.
    const spoofed = await call(env, 'GET', '/v1/customers', { baseUrl: url, key: badKey('G'), merchant: m.id, headers: { 'X-Forwarded-For': '198.51.100.9' } });
    expectError(spoofed, 429, 'rate_limited');
  });

  it('behind a trusted proxy: counted per forwarded client; a valid key passes from a blocked client address', async () => {
    const url = await env.startApp({ authFailureLimit: 3, authFailureWindowSeconds: 3600, trustedProxies: ['127.0.0.0/8'] });
    const from = (addr: string) => ({ 'X-Forwarded-For': `${addr}, 127.0.0.1` });
    for (let i = 0; i < 3; i++) {
      expectError(await call(env, 'GET', '/v1/customers', { baseUrl: url, key: badKey('H'), merchant: m.id, headers: from('203.0.113.5') }), 401, 'unauthorized');
    }
    expectError(await call(env, 'GET', '/v1/customers', { baseUrl: url, merchant: m.id, headers: from('203.0.113.5') }), 429, 'rate_limited');
    // RFC 7239 Forwarded names the same client.
    expectError(await call(env, 'GET', '/v1/customers', { baseUrl: url, headers: { Forwarded: 'for=203.0.113.5;proto=https' } }), 429, 'rate_limited');
    // Another client behind the same load balancer is not blocked: its bad key is a plain 401.
    expectError(await call(env, 'GET', '/v1/customers', { baseUrl: url, key: badKey('I'), merchant: m.id, headers: from('198.51.100.7') }), 401, 'unauthorized');
    // A valid key this process has never seen, from the blocked client address itself, passes.
    const other = await newMerchant(env);
    assert.equal((await call(env, 'GET', '/v1/customers', { baseUrl: url, key: other.secretKey, merchant: other.id, headers: from('203.0.113.5') })).status, 200);
  });

  it('the client address: forwarding headers count only from trusted proxies, read from the right', () => {
    const trusted = parseTrustedProxies('10.0.0.0/8, 192.168.1.7, 2001:db8::/32');
    assert.equal(parseTrustedProxies(''), null);
    assert.throws(() => parseTrustedProxies('10.0.0.0/33'), /TRUSTED_PROXIES/);
    assert.throws(() => parseTrustedProxies('proxy.example'), /TRUSTED_PROXIES/);
    const xff = (v: string) => ({ xForwardedFor: v });
    assert.equal(resolveClientAddress('203.0.113.1', xff('1.2.3.4'), trusted), '203.0.113.1', 'an untrusted peer: its headers are ignored');
    assert.equal(resolveClientAddress('203.0.113.1', xff('1.2.3.4'), null), '203.0.113.1', 'no trusted proxies: the peer');
    assert.equal(resolveClientAddress('::ffff:10.1.2.3', xff('1.2.3.4'), trusted), '1.2.3.4');
    // A client that sends its own X-Forwarded-For gets it appended to by the proxy: the left entry is not believed.
    assert.equal(resolveClientAddress('10.1.2.3', xff('6.6.6.6, 5.5.5.5, 192.168.1.7'), trusted), '5.5.5.5');
    assert.equal(resolveClientAddress('10.1.2.3', xff('10.9.9.9'), trusted), '10.9.9.9', 'every hop trusted: the leftmost');
    assert.equal(resolveClientAddress('10.1.2.3', xff('garbage, 5.5.5.5'), trusted), '5.5.5.5');
    assert.equal(resolveClientAddress('10.1.2.3', xff('unknown'), trusted), '10.1.2.3', 'nothing usable: the proxy itself');
    assert.equal(resolveClientAddress('10.1.2.3', { forwarded: 'for=1.1.1.1, for="[2001:db8::5]:443", for=7.7.7.7:80', xForwardedFor: '9.9.9.9' }, trusted), '7.7.7.7');
    assert.equal(resolveClientAddress('10.1.2.3', { forwarded: 'for=1.1.1.1, for="[2001:db8::5]"' }, trusted), '1.1.1.1');
  });

  it('the limiter: fixed windows per client, bounded memory', () => {
    const limiter = createAuthFailureLimiter({ limit: 2, windowSeconds: 10, maxClients: 3 });
    const t0 = 1_000_000_000_000;
    limiter.fail('a', t0);
    assert.equal(limiter.blockedFor('a', t0), 0);
    limiter.fail('a', t0 + 1);
    assert.equal(limiter.blockedFor('a', t0 + 1_000), 9);
    assert.equal(limiter.blockedFor('b', t0), 0);
    assert.equal(limiter.blockedFor('a', t0 + 10_000), 0, 'the next window starts afresh');
    for (const c of ['b', 'c', 'd', 'e']) {
      limiter.fail(c, t0);
      limiter.fail(c, t0);
    }
    // At most 3 addresses are tracked: the oldest made room.
    assert.equal(limiter.blockedFor('e', t0), 10);
    assert.equal(['a', 'b', 'c', 'd', 'e'].filter((c) => limiter.blockedFor(c, t0) > 0).length, 3);
  });
});
