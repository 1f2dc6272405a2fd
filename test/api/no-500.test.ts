// Every route the app registers, called with bad input (garbage bodies, wrong types, oversized
// strings, unknown and foreign ids), must answer with a status below 500 and, for errors, the
// envelope. Routes are enumerated from the real router, so a new route is covered automatically.
import assert from 'node:assert/strict';
import Router from '@koa/router';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { AREA_ROUTES } from '../../api/app';
import type { AppDeps, AppState } from '../../api/context';
import { createWorkflowClients } from '../../src/temporal/workflow-clients';

const BODIES: unknown[] = [
  {},
  { id: 1, amount: 'ten', currency: 42, customer: { nested: true }, metadata: 'not-an-object', limit: [] },
  { amount: -1, quantity: 0, email: 7, events: 'x', items: {}, url: 12, type: null, mode: 3 },
  { amount: 1e30, description: 'x'.repeat(100_000), name: '\u0000', metadata: { k: 'v'.repeat(10_000) } },
  { customer: 'cus_doesnotexist', payment: 'pay_doesnotexist', price: 'price_nope', subscription: 'sub_nope', meter: 'mtr_nope' },
  { events: Array.from({ length: 3 }, () => ({ event_name: 5 })) },
];

function routes(deps: AppDeps): Array<{ method: string; path: string }> {
  const router = new Router<AppState>();
  const auth = () => async () => undefined;
  for (const register of AREA_ROUTES) register(router, deps, auth as never);
  const out: Array<{ method: string; path: string }> = [];
  for (const layer of router.stack) {
    for (const method of layer.methods) {
      if (method === 'HEAD') continue;
      out.push({ method, path: layer.path as string });
    }
  }
  return out;
}

describe('no route answers bad input with a 5xx', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let m: TestMerchant;
  let other: TestMerchant;
  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    other = await newMerchant(env);
  });

  it('garbage bodies, wrong types, unknown and foreign ids on every route', async () => {
    const otherKey = (await other.call('GET', '/v1/api_keys')).body.data[0].id as string;
    const list = routes({ db: env.db, config: env.config, temporal: env.temporal, workflows: createWorkflowClients(env.temporal), log: () => undefined });
    assert.ok(list.length > 40, `only ${list.length} routes found`);
    const failures: string[] = [];
    for (const { method, path } of list) {
      for (const id of ['nope', otherKey, 'x'.repeat(300)]) {
        const concrete = path.replace(/:[A-Za-z_]+/g, encodeURIComponent(id));
        const bodies = method === 'GET' || method === 'DELETE' ? [undefined] : BODIES;
        for (const body of bodies) {
          const res = await m.call(method, concrete + (method === 'GET' ? '?limit=abc&customer=cus_nope&starting_after=nope' : ''), {
            body,
            idempotencyKey: undefined,
          });
          if (res.status >= 500) failures.push(`${method} ${concrete.slice(0, 80)} body=${JSON.stringify(body)?.slice(0, 80)} → ${res.status} ${res.text.slice(0, 200)}`);
          else if (res.status >= 400 && (typeof res.body?.error?.code !== 'string' || typeof res.body?.error?.request_id !== 'string')) {
            if (!concrete.startsWith('/checkout')) failures.push(`${method} ${concrete.slice(0, 80)} → ${res.status} without the error envelope: ${res.text.slice(0, 120)}`);
          }
        }
      }
    }
    assert.deepEqual(failures, []);
  });
});
