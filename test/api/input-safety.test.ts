// The input-safety layer (api/middleware/input-safety.ts, docs/errors.md "Input limits"),
// checked on the very requests that used to answer 500 or 503, or a huge error body.
// test/api/fuzz.test.ts covers every route; this file pins each rule with a readable case.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../support/api';

const LISTS = [
  'api_keys',
  'customers',
  'products',
  'prices',
  'meters',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_events',
  'payments',
  'payment_methods',
  'invoices',
  'invoice_items',
  'test_helpers/test_clocks',
  'subscriptions',
  'refunds',
  'credit_notes',
];

/** `levels` nested arrays around a value, as JSON text (built without recursion). */
function nestedJson(levels: number, inner = '1'): string {
  return '['.repeat(levels) + inner + ']'.repeat(levels);
}

describe('input safety: hostile input is a bounded 400, never a 5xx', function () {
  this.timeout(120_000);
  let env: TestEnv, m: TestMerchant;
  before(async () => ([env, m] = await envAndMerchants(newMerchant)));

  it('a NUL byte in starting_after is validation_failed on every list (was 500 on 15)', async () => {
    for (const list of LISTS) {
      for (const q of ['%00', 'cus_%00abc']) {
        expectError(await m.call('GET', `/v1/${list}?starting_after=${q}`), 400, 'validation_failed', 'starting_after');
      }
    }
  });

  it('a malformed starting_after or path id is an unknown id (404 resource_missing)', async () => {
    expectError(await m.call('GET', `/v1/customers?starting_after=${'x'.repeat(300)}`), 404, 'resource_missing', 'starting_after');
    expectError(await m.call('GET', '/v1/customers?starting_after=cus%20x'), 404, 'resource_missing', 'starting_after');
    for (const id of ['%00', 'cus_%00', '%ED%A0%80', '%ZZ', 'x'.repeat(300), 'caf%C3%A9']) {
      expectError(await m.call('GET', `/v1/customers/${id}`), 404, 'resource_missing', 'id');
      expectError(await m.call('POST', `/v1/subscriptions/${id}/cancel`, { body: {} }), 404, 'resource_missing', 'id');
    }
  });

  it('lone surrogates and NUL in metadata values and keys are refused on every body route (was 500 on payments, refunds, invoice items, sessions)', async () => {
    // param is the top-level field; the message names the exact place (a value at its key, a key at its object).
    const bodies: Array<[unknown, RegExp]> = [
      [{ k: '\ud800' }, /^metadata\.k must be valid Unicode/],
      [{ '\udc00': 'v' }, /^metadata has an invalid key "\\udc00": keys must be valid Unicode/],
      [{ k: 'a\u0000b' }, /^metadata\.k must not contain NUL/],
      [{ 'k\u0000': 'v' }, /^metadata has an invalid key "k\\u0000": keys must not contain NUL/],
    ];
    for (const path of ['/v1/payments', '/v1/refunds', '/v1/invoice_items', '/v1/payment_sessions', '/v1/customers']) {
      for (const [metadata, message] of bodies) {
        const err = expectError(await m.call('POST', path, { body: { amount: 100, currency: 'ISK', metadata } }), 400, 'validation_failed', 'metadata');
        assert.match(err.message, message);
      }
    }
  });

  it('NUL or a lone surrogate in an API key label or a webhook endpoint description is refused (was 500)', async () => {
    for (const bad of ['a\u0000b', '\ud800', 'x\udfff']) {
      expectError(await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', label: bad } }), 400, 'validation_failed', 'label');
      expectError(
        await m.call('POST', '/v1/webhook_endpoints', { body: { url: 'https://example.com/hook', events: ['payment.succeeded'], description: bad } }),
        400,
        'validation_failed',
        'description',
      );
      expectError(await m.call('PATCH', '/v1/webhook_endpoints/we_nope', { body: { description: bad } }), 400, 'validation_failed', 'description');
    }
  });

  it('deep nesting is refused at 33 levels with the param, in a small error (was 500, or 503 on subscription updates)', async () => {
    const deep = (levels: number) => `{"name":${nestedJson(levels)},"metadata":{"k":"v"}}`;
    for (const [method, path] of [
      ['POST', '/v1/customers'],
      ['POST', '/v1/subscriptions/sub_nope'],
      ['POST', '/v1/subscription_items/si_nope'],
      ['POST', '/v1/events'],
    ] as const) {
      for (const levels of [40, 5_000, 100_000]) {
        const res = await m.call(method, path, { rawBody: deep(levels), headers: { 'Content-Type': 'application/json' } });
        const err = expectError(res, 400, 'validation_failed', 'name');
        assert.match(err.message, /nested too deeply/);
        assert.ok(res.text.length < 2048, `${res.text.length} bytes`);
      }
    }
    // 31 levels of arrays inside the body object (32 in all) pass the layer and reach the schema.
    const ok = await m.call('POST', '/v1/customers', { rawBody: deep(31), headers: { 'Content-Type': 'application/json' } });
    expectError(ok, 400, 'validation_failed', 'name');
    assert.doesNotMatch(ok.body.error.message, /nested too deeply/);
  });

  it('error bodies stay small whatever the rejected value (was 18 MB for an 18 KB request)', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/v1/customers', { name: JSON.parse(nestedJson(30, '{"a":1}')) }],
      ['POST', '/v1/customers', { name: Array.from({ length: 900 }, () => Array.from({ length: 30 }, () => 'x'.repeat(30))) }],
      ['POST', '/v1/customers', { name: 'x'.repeat(1_000_000) }],
      ['POST', '/v1/customers', { email: 'y'.repeat(9_000) }],
      ['POST', '/v1/customers', { metadata: { ['k'.repeat(200)]: 'v' } }],
      ['POST', '/v1/prices', { currency: { a: 'b'.repeat(9_000) }, unit_amount: 'z'.repeat(9_000) }],
      ['POST', '/v1/events/batch', { events: Array.from({ length: 1_001 }, () => ({ event_name: 'q'.repeat(900) })) }],
    ];
    for (const [method, path, body] of cases) {
      const res = await m.call(method, path, { body });
      assert.ok(res.status === 400 || res.status === 413, `${method} ${path} → ${res.status}`);
      assert.ok(res.text.length < 2048, `${method} ${path}: ${res.text.length} bytes: ${res.text.slice(0, 200)}`);
    }
  });

  it('an error stored for idempotent replay is small, and the replay is the same bytes', async () => {
    const key = randomUUID();
    const body = { name: JSON.parse(nestedJson(20, JSON.stringify('x'.repeat(9_000)))) };
    const first = await m.call('POST', '/v1/customers', { body, idempotencyKey: key });
    expectError(first, 400, 'validation_failed', 'name');
    const again = await m.call('POST', '/v1/customers', { body: {}, idempotencyKey: key });
    assert.equal(again.status, 400);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('x-request-id'), first.body.error.request_id);
    assert.ok(first.text.length < 2048);
  });

  it('a replayed success is the same bytes as the first response', async () => {
    const key = randomUUID();
    const body = { name: 'Zoë', email: 'zoe@example.com', metadata: { zeta: '1', alpha: '2', '10': 'ten', mid: 'ü' } };
    const first = await m.call('POST', '/v1/customers', { body, idempotencyKey: key });
    assert.equal(first.status, 201, first.text);
    const again = await m.call('POST', '/v1/customers', { body: {}, idempotencyKey: key });
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
  });

  it('list filters and starting_after: one rule for unknown and foreign ids on every list', async () => {
    const other = await newMerchant(env);
    const theirCustomer = (await other.call('POST', '/v1/customers', { body: { name: 'Theirs' } })).body.id as string;
    const theirProduct = (await other.call('POST', '/v1/products', { body: { name: 'Theirs' } })).body.id as string;
    // A filter naming an object that is not the caller's: 404 resource_not_found naming the filter.
    for (const [path, param] of [
      [`/v1/events?customer=${theirCustomer}`, 'customer'],
      ['/v1/events?customer=cus_unknown', 'customer'],
      [`/v1/prices?product=${theirProduct}`, 'product'],
      ['/v1/invoices?subscription=sub_unknown', 'subscription'],
      [`/v1/invoices?customer=${theirCustomer}`, 'customer'],
      [`/v1/payment_methods?customer=${theirCustomer}`, 'customer'],
      [`/v1/subscriptions?customer=${theirCustomer}`, 'customer'],
      [`/v1/payments?customer=${theirCustomer}`, 'customer'],
      [`/v1/invoice_items?customer=${theirCustomer}`, 'customer'],
      ['/v1/refunds?payment=pay_unknown', 'payment'],
      ['/v1/credit_notes?invoice=in_unknown', 'invoice'],
    ] as const) {
      expectError(await m.call('GET', path), 404, 'resource_not_found', param);
    }
    // starting_after naming a row that is not in the list: resource_missing, bounded lists included.
    for (const list of ['refunds', 'credit_notes', 'customers']) {
      expectError(await m.call('GET', `/v1/${list}?starting_after=${theirCustomer}`), 404, 'resource_missing', 'starting_after');
    }
  });

  it('strings and collections have size limits, each naming the param', async () => {
    expectError(await m.call('POST', '/v1/customers', { body: { name: 'x'.repeat(10_001) } }), 400, 'validation_failed', 'name');
    expectError(await m.call('POST', '/v1/customers', { body: { metadata: { k: ['x'], l: Array.from({ length: 1_001 }, () => 0) } } }), 400, 'validation_failed', 'metadata');
    const many = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, 'v']));
    expectError(await m.call('POST', '/v1/customers', { body: { metadata: many } }), 400, 'validation_failed', 'metadata');
    expectError(await m.call('POST', '/v1/customers', { rawBody: '{"amount":1e400}', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed', 'amount');
    expectError(await m.call('GET', `/v1/customers?email=${'x'.repeat(2_049)}`), 400, 'validation_failed', 'email');
    // Emoji count once: 10,000 of them is within the limit (the schema then applies its own).
    const emoji = await m.call('POST', '/v1/customers', { body: { name: '😀'.repeat(10_000) } });
    expectError(emoji, 400, 'validation_failed', 'name');
    assert.doesNotMatch(emoji.body.error.message, /10000/);
  });

  it('a body that is not UTF-8 or not JSON gets invalid_json without echoing the body', async () => {
    const res = await call(env, 'POST', '/v1/customers', {
      key: m.secretKey,
      merchant: m.id,
      rawBody: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) as unknown as string,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(res, 400, 'invalid_json');
    const secret = 'SECRET-CONTENT-'.repeat(50);
    const bad = await m.call('POST', '/v1/customers', { rawBody: `{"name": ${secret}`, headers: { 'Content-Type': 'application/json' } });
    expectError(bad, 400, 'invalid_json');
    assert.doesNotMatch(bad.text, /SECRET/);
  });

  it('a request the HTTP parser refuses still gets the envelope and an X-Request-Id', async () => {
    const res = await m.call('GET', `/v1/customers?email=${'x'.repeat(20_000)}`);
    const err = expectError(res, 431, 'request_header_too_large');
    assert.match(err.request_id, /^req_/);
  });

  it('the Bearer scheme is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr', 'Bearer ']) {
      const res = await call(env, 'GET', '/v1/customers', { headers: { Authorization: `${scheme} ${m.secretKey}`, 'X-Merchant-Id': m.id } });
      assert.equal(res.status, 200, `${scheme}: ${res.text.slice(0, 200)}`);
    }
    expectError(await call(env, 'GET', '/v1/customers', { headers: { Authorization: `Basic ${m.secretKey}`, 'X-Merchant-Id': m.id } }), 401, 'unauthorized');
  });
});
