import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { call } from '../support/api';
import { createTemporalProvider } from '../../src/temporal/client';
import { freePort } from '../../src/temporal/dev-server';

describe('GET /healthz', () => {
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('reports database and Temporal reachability without auth', async () => {
    const res = await call(env, 'GET', '/healthz');
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'ok');
    assert.equal(res.body.database.ok, true);
    assert.equal(res.body.temporal.ok, true);
  });

  it('answers 503 degraded when Temporal is unreachable', async () => {
    const dead = createTemporalProvider({ address: `127.0.0.1:${await freePort()}`, namespace: 'default', taskQueue: 'x' });
    const url = await env.startApp({}, dead);
    const res = await call(env, 'GET', '/healthz', { baseUrl: url });
    assert.equal(res.status, 503);
    assert.equal(res.body.status, 'degraded');
    assert.equal(res.body.database.ok, true);
    assert.equal(res.body.temporal.ok, false);
    await dead.close();
  });
});
