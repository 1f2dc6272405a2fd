// GET /metrics, /livez and /readyz: the series that API calls, an idempotent replay, a 429 and a
// subscription's renewal on a test clock change, read back from the Prometheus text.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../../support/env';
import { call } from '../../support/api';
import { advanceClock, clockCustomer, createCustomer, monthlyPrice, ok, subMerchant, type SubMerchant } from '../subscriptions/fixtures';

/** The value of one series in Prometheus text (0 when absent). Labels must be given in exposition order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = m[2] ? m[2].split(/,(?=[a-z_]+=")/) : [];
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[3]);
  }
  return 0;
}

/**
 * GET of an operations endpoint: plain fetch, not the API test client, because /livez, /readyz
 * and /metrics are deliberately outside the merchant API's OpenAPI document (docs/operations.md).
 */
async function opsGet(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const res = await fetch(`${baseUrl}${path}`, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

describe('operations endpoints: /metrics, /livez, /readyz', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let m: SubMerchant;
  const scrape = async (baseUrl?: string) => {
    const res = await opsGet(baseUrl ?? env.baseUrl, '/metrics');
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    return res.text;
  };

  before(async () => {
    env = await testEnv();
    m = await subMerchant(env);
  });

  it('counts API requests per route pattern and status, and idempotent replays', async () => {
    const before = await scrape();
    const cus = await createCustomer(m);
    await ok(m.call('GET', `/v1/customers/${cus.id}`));
    await ok(m.call('GET', `/v1/customers/${cus.id}`));
    assert.equal((await m.call('GET', '/v1/customers/cus_doesnotexist000000000000')).status, 404);
    const key = `metrics-${Date.now()}`;
    const first = await m.call('POST', '/v1/customers', { body: { email: 'replay@example.is' }, idempotencyKey: key });
    const again = await m.call('POST', '/v1/customers', { body: { email: 'replay@example.is' }, idempotencyKey: key });
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    const after = await scrape();
    const count = (t: string, method: string, status: string) => sample(t, 'http_request_duration_seconds_count', { method, route: '/v1/customers/:id', status });
    assert.equal(count(after, 'GET', '200') - count(before, 'GET', '200'), 2);
    assert.equal(count(after, 'GET', '404') - count(before, 'GET', '404'), 1);
    // The raw path with the id is never a label value.
    assert.ok(!after.includes(cus.id), 'a customer id appears in the metrics');
    const replays = (t: string) => sample(t, 'billing_idempotent_replays_total', { method: 'POST', route: '/v1/customers' });
    assert.equal(replays(after) - replays(before), 1);
    assert.match(after, /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/customers\/:id",status="200"\}/);
  });

  it('counts 429s by error code', async () => {
    const limited = await env.startApp({ rateLimitRequests: 2, rateLimitWindowSeconds: 60 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await m.call('GET', '/v1/customers', { baseUrl: limited })).status);
    assert.ok(statuses.includes(429), statuses.join(','));
    const text = await scrape(limited);
    assert.equal(sample(text, 'billing_rate_limited_total', { reason: 'rate_limited' }), statuses.filter((s) => s === 429).length);
  });

  it('counts a renewal, its invoice and its charge by outcome', async () => {
    const before = await scrape();
    const { clock, customer: cus } = await clockCustomer(m, '2025-01-01T00:00:00.000Z');
    const price = await monthlyPrice(m, 1000);
    const sub = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: cus.id, items: [{ price: price.id }] } }), 201);
    await advanceClock(m, clock.id, '2025-02-01T00:00:30.000Z');
    const renewed = await ok(m.call('GET', `/v1/subscriptions/${sub.id}`));
    assert.equal(renewed.status, 'active');
    assert.equal(renewed.current_period_start, '2025-02-01T00:00:00.000Z');
    const after = await scrape();
    const delta = (name: string, outcome: string) => sample(after, name, { outcome }) - sample(before, name, { outcome });
    assert.ok(delta('billing_renewals_total', 'renewal') >= 1, after);
    assert.ok(delta('billing_invoices_total', 'paid') >= 1);
    assert.ok(delta('billing_charges_total', 'succeeded') >= 1);
    assert.equal(delta('billing_charges_total', 'failed'), 0);
  });

  it('/livez answers; /readyz reports each check and 503 when Temporal is unreachable', async () => {
    const live = await opsGet(env.baseUrl, '/livez');
    assert.equal(live.status, 200);
    assert.equal(live.body.status, 'ok');
    const ready = await opsGet(env.baseUrl, '/readyz');
    assert.equal(ready.status, 200, ready.text);
    assert.equal(ready.body.checks.database.ok, true);
    assert.equal(ready.body.checks.temporal.ok, true);
    const { createTemporalProvider } = await import('../../../src/temporal/client');
    const nowhere = createTemporalProvider({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'none' });
    try {
      const broken = await env.startApp({}, nowhere);
      const res = await opsGet(broken, '/readyz');
      assert.equal(res.status, 503);
      assert.equal(res.body.status, 'not_ready');
      assert.equal(res.body.checks.database.ok, true);
      assert.equal(res.body.checks.temporal.ok, false);
      assert.equal(res.body.checks.temporal.address, '127.0.0.1:1');
      // /healthz keeps its own shape.
      const health = await call(env, 'GET', '/healthz', { baseUrl: broken });
      assert.equal(health.status, 503);
      assert.equal(health.body.status, 'degraded');
    } finally {
      await nowhere.close();
    }
  });

  it('/metrics asks for the bearer token when METRICS_TOKEN is set', async () => {
    const guarded = await env.startApp({ metricsToken: 'metrics-token-for-tests' });
    const refused = await opsGet(guarded, '/metrics');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'unauthorized');
    const allowed = await opsGet(guarded, '/metrics', { Authorization: 'Bearer metrics-token-for-tests' });
    assert.equal(allowed.status, 200);
    assert.match(allowed.text, /# TYPE http_request_duration_seconds histogram/);
  });
});
