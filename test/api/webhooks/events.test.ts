import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { testEnv, type TestEnv } from '../../support/env';
import { expectError, newMerchant, type TestMerchant } from '../../support/api';
import { startHarness, type Harness } from './harness';
import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../../../src/events/types';
import { recordEvent } from '../../../src/events/record-event';
import { scopedDb } from '../../../src/db/tenancy';

describe('docs/events.md', () => {
  const doc = readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'docs', 'events.md'), 'utf8');

  it('has one valid sample per event type of src/events/types.ts, and no other', () => {
    const samples = new Map<string, any>();
    for (const m of doc.matchAll(/^### `([a-z_.]+)`\n[\s\S]*?```json\n([\s\S]*?)\n```/gm)) {
      samples.set(m[1]!, JSON.parse(m[2]!));
    }
    assert.deepEqual([...samples.keys()].sort(), [...EVENT_TYPE_NAMES].sort());
    for (const [type, sample] of samples) {
      assert.deepEqual(Object.keys(sample).sort(), ['created_at', 'data', 'id', 'type'], type);
      assert.equal(sample.type, type);
      assert.match(sample.id, /^evt_/);
      assert.ok(Date.parse(sample.created_at), type);
      assert.equal(typeof sample.data, 'object');
      assert.match(sample.data.id, /^[a-z]+_/, type);
    }
  });

  it('every catalogued type is recorded somewhere in the service (none is documented but never sent)', () => {
    // A static check that backs the behavioural tests of each area: the type's literal must
    // appear in the service's own code (not the catalogue, not the generated client, not tests).
    const root = path.resolve(__dirname, '..', '..', '..', '..');
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== 'generated' && e.name !== 'node_modules') walk(full);
        } else if (e.name.endsWith('.ts') && full !== path.join(root, 'src', 'events', 'types.ts')) sources.push(readFileSync(full, 'utf8'));
      }
    };
    for (const dir of ['api', 'src', 'activities', 'workflows']) walk(path.join(root, dir));
    const all = sources.join('\n');
    const unsent = EVENT_TYPE_NAMES.filter((t) => !all.includes(`'${t}'`));
    assert.deepEqual(unsent, []);
  });

  it('lists every type in the catalogue table', () => {
    for (const type of EVENT_TYPE_NAMES) assert.ok(doc.includes(`| \`${type}\` |`), type);
    assert.equal(Object.keys(EVENT_TYPES).length, EVENT_TYPE_NAMES.length);
  });
});

describe('webhook events API (/v1/webhook_events)', () => {
  let env: TestEnv;
  let h: Harness;
  let m: TestMerchant & { liveSecretKey?: string };
  let other: TestMerchant;
  const ids: string[] = [];

  before(async () => {
    env = await testEnv();
    h = await startHarness(env, { retryDelaysMs: [1000] });
    m = await newMerchant(env, { live: true });
    other = await newMerchant(env);
    for (const [i, type] of (['customer.created', 'subscription.created', 'customer.updated', 'subscription.created'] as const).entries()) {
      ids.push((await h.emit(m.id, type, { id: `obj_${i}`, n: i, at: new Date(0) })).id);
    }
  });
  after(async () => {
    await h?.close();
  });

  it("lists the merchant's events newest first and retrieves one", async () => {
    const res = await h.call(m, 'GET', '/v1/webhook_events');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((e: any) => e.id),
      [...ids].reverse(),
    );
    assert.equal(res.body.has_more, false);
    const one = await h.call(m, 'GET', `/v1/webhook_events/${ids[0]}`);
    assert.deepEqual(Object.keys(one.body).sort(), ['created_at', 'data', 'id', 'object', 'type']);
    assert.equal(one.body.type, 'customer.created');
    assert.equal(one.body.object, 'event');
    assert.deepEqual(one.body.data, { id: 'obj_0', n: 0, at: '1970-01-01T00:00:00.000Z' }, 'data stored as JSON (dates as ISO strings)');
  });

  it('filters by type and pages', async () => {
    const subs = await h.call(m, 'GET', '/v1/webhook_events?type=subscription.created');
    assert.deepEqual(
      subs.body.data.map((e: any) => e.id),
      [ids[3], ids[1]],
    );
    const p1 = await h.call(m, 'GET', '/v1/webhook_events?limit=3');
    assert.equal(p1.body.has_more, true);
    const p2 = await h.call(m, 'GET', `/v1/webhook_events?limit=3&starting_after=${p1.body.data[2].id}`);
    assert.deepEqual(
      p2.body.data.map((e: any) => e.id),
      [ids[0]],
    );
    assert.equal(p2.body.has_more, false);
    const typed = await h.call(m, 'GET', `/v1/webhook_events?type=subscription.created&starting_after=${ids[3]}`);
    assert.deepEqual(
      typed.body.data.map((e: any) => e.id),
      [ids[1]],
    );
  });

  it('validates the query and ids', async () => {
    expectError(await h.call(m, 'GET', '/v1/webhook_events?type=invoice.exploded'), 400, 'validation_failed', 'type');
    expectError(await h.call(m, 'GET', '/v1/webhook_events?type=a&type=b'), 400, 'validation_failed', 'type');
    expectError(await h.call(m, 'GET', '/v1/webhook_events?limit=1.5'), 400, 'validation_failed', 'limit');
    expectError(await h.call(m, 'GET', '/v1/webhook_events/evt_nope'), 404, 'resource_missing', 'id');
    expectError(await h.call(m, 'GET', '/v1/webhook_events/not%20an%20id'), 404, 'resource_missing', 'id');
    expectError(await h.call(m, 'GET', '/v1/webhook_events?starting_after=evt_nope'), 404, 'resource_missing', 'starting_after');
  });

  it('events of another merchant and of the other mode are invisible', async () => {
    for (const c of [(p: string) => h.call(other, 'GET', p), (p: string) => h.call(m, 'GET', p, { live: m.liveSecretKey })]) {
      expectError(await c(`/v1/webhook_events/${ids[0]}`), 404, 'resource_missing', 'id');
      expectError(await c(`/v1/webhook_events?starting_after=${ids[0]}`), 404, 'resource_missing', 'starting_after');
      assert.deepEqual((await c('/v1/webhook_events')).body.data, []);
    }
  });

  it('recordEvent refuses unknown types and non-object data (a programming error), and rolls back with its transaction', async () => {
    const tenant = { merchantId: other.id, mode: 'test' as const };
    const scoped = scopedDb(env.db, tenant);
    await assert.rejects(
      scoped.$transaction((tx) => recordEvent(tx, tenant, { type: 'invoice.exploded' as never, data: {} })),
      TypeError,
    );
    await assert.rejects(
      scoped.$transaction((tx) => recordEvent(tx, tenant, { type: 'invoice.paid', data: [] as never })),
      TypeError,
    );
    await assert.rejects(
      scoped.$transaction(async (tx) => {
        await recordEvent(tx, tenant, { type: 'invoice.paid', data: { id: 'inv_rolled_back' } });
        throw new Error('the state change failed');
      }),
      /state change failed/,
    );
    assert.equal(await env.db.event.count({ where: { merchantId: other.id } }), 0, 'no event without its change');
  });

  it('events recorded one after another list in that order (created_at strictly increases, no millisecond ties)', async () => {
    const fresh = await newMerchant(env);
    const tenant = { merchantId: fresh.id, mode: 'test' as const };
    const recorded = await scopedDb(env.db, tenant).$transaction(async (tx) => {
      const out = [];
      for (let i = 0; i < 40; i++) out.push(await recordEvent(tx, tenant, { type: i % 2 ? 'invoice.paid' : 'payment.succeeded', data: { id: `obj_${i}` } }));
      return out;
    });
    for (let i = 1; i < recorded.length; i++) assert.ok(recorded[i]!.createdAt > recorded[i - 1]!.createdAt, `event ${i} after event ${i - 1}`);
    const listed = (await fresh.call('GET', '/v1/webhook_events?limit=100')).body.data as any[];
    assert.deepEqual(
      listed.map((e) => e.id),
      recorded.map((e) => e.id).reverse(),
    );
  });
});
