import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { call, expectError, newMerchant, type TestMerchant } from '../support/api';

describe('API conventions', () => {
  let env: TestEnv, m: TestMerchant;
  before(async () => ([env, m] = await envAndMerchants(newMerchant)));

  it('sets X-Request-Id on successes and errors, and echoes a sane client-supplied one', async () => {
    const ok = await m.call('GET', '/v1/api_keys');
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('x-request-id') ?? '', /^req_[0-9a-f]{32}$/);
    const err = await call(env, 'GET', '/v1/api_keys');
    expectError(err, 401, 'unauthorized');
    const echoed = await m.call('GET', '/v1/api_keys', { headers: { 'X-Request-Id': 'client-trace-12345678' } });
    assert.equal(echoed.headers.get('x-request-id'), 'client-trace-12345678');
    const garbage = await m.call('GET', '/v1/api_keys', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    assert.match(garbage.headers.get('x-request-id') ?? '', /^req_/);
  });

  it('refuses bodies that are not JSON with 415', async () => {
    const res = await m.call('POST', '/v1/api_keys', { rawBody: 'type=secret&mode=test', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('refuses malformed JSON with 400 invalid_json and non-object JSON with validation_failed', async () => {
    expectError(await m.call('POST', '/v1/api_keys', { rawBody: '{"type": "secret",', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_json');
    expectError(await m.call('POST', '/v1/api_keys', { rawBody: '[1,2]', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
    expectError(await m.call('POST', '/v1/api_keys', { rawBody: '"x"', headers: { 'Content-Type': 'application/json' } }), 400, 'validation_failed');
  });

  it('refuses bodies over the size limit with 413 and writes nothing', async () => {
    const before = (await m.call('GET', '/v1/api_keys?limit=100')).body.data.length;
    const big = JSON.stringify({ type: 'secret', mode: 'test', label: 'x'.repeat(env.config.bodyLimitBytes + 10) });
    expectError(await m.call('POST', '/v1/api_keys', { rawBody: big, headers: { 'Content-Type': 'application/json' } }), 413, 'body_too_large');
    assert.equal((await m.call('GET', '/v1/api_keys?limit=100')).body.data.length, before);
  });

  it('names the param of a wrongly typed field, ignores unknown fields, reports missing required fields', async () => {
    const wrongType = await m.call('POST', '/v1/api_keys', { body: { type: 7, mode: 'test' } });
    expectError(wrongType, 400, 'validation_failed', 'type');
    const missing = await m.call('POST', '/v1/api_keys', { body: { type: 'secret' } });
    expectError(missing, 400, 'validation_failed', 'mode');
    const wrongLabel = await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', label: ['a'] } });
    expectError(wrongLabel, 400, 'validation_failed', 'label');
    const extra = await m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', unknown_field: { nested: true }, another: 1 } });
    assert.equal(extra.status, 201);
    assert.equal(extra.body.unknown_field, undefined);
  });

  it('answers unknown routes and wrong methods in the envelope', async () => {
    expectError(await m.call('GET', '/v1/nope'), 404, 'route_not_found');
    expectError(await m.call('PUT', '/v1/api_keys'), 405, 'method_not_allowed');
  });

  it('uses snake_case fields and ISO 8601 UTC timestamps', async () => {
    const res = await m.call('POST', '/v1/api_keys', { body: { type: 'publishable', mode: 'test', label: 'web' } });
    assert.equal(res.status, 201);
    assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const k of Object.keys(res.body)) assert.match(k, /^[a-z0-9_]+$/);
  });
});
