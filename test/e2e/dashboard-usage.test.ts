// The dashboard's usage chart (/dashboard/usage): a meter's quantity per UTC day for one customer,
// read from the hourly rollups in one statement (getMeterDailyUsage). Checked in Chromium at
// 1280×800 and 390×844: the chart's data equal the meter's quantities day by day (including a
// backfilled day and an event the meter's filter excludes), the page has no serious or critical
// axe-core violations, and an unknown customer gives an error message, not a 500.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { dashboardBrowser, newDashboardUser, type DashboardBrowser } from '../support/dashboard';

const DAY = 86_400_000;

describe('dashboard usage chart in Chromium (e2e)', function () {
  this.timeout(180_000);
  let env: TestEnv;
  let a: TestMerchant;
  let owner: Awaited<ReturnType<typeof newDashboardUser>>;
  let browser: DashboardBrowser;
  let meterId: string;
  let customerId: string;
  const expected = new Map<string, number>();

  before(async function () {
    this.timeout(10 * 60_000);
    env = await testEnv();
    a = await newMerchant(env);
    owner = await newDashboardUser(env, a.id, 'owner');
    browser = dashboardBrowser(env);
    const meter = await a.call('POST', '/v1/meters', {
      body: { name: 'Storage', event_name: 'storage.used', aggregate_type: 'sum', aggregate_property: 'gb', filter: { region: 'eu' }, unit_label: 'GB' },
    });
    assert.equal(meter.status, 201, meter.text);
    meterId = meter.body.id;
    const customer = await a.call('POST', '/v1/customers', { body: { email: 'usage@example.com' } });
    customerId = customer.body.id;
    const now = Date.now() - 60_000;
    const events = [
      { at: now, gb: '2.5' },
      { at: now - 1000, gb: 3 },
      { at: now - 2 * DAY, gb: 7 },
      { at: now - 6 * DAY, gb: '0.25' }, // backfill
      { at: now - 60 * DAY, gb: 100 }, // before the 30-day window
    ];
    const body = {
      events: [
        ...events.map((e, i) => ({
          event_name: 'storage.used',
          customer: customerId,
          idempotency_key: `u-${i}`,
          timestamp: new Date(e.at).toISOString(),
          metadata: { gb: e.gb, region: 'eu' },
        })),
        { event_name: 'storage.used', customer: customerId, timestamp: new Date(now).toISOString(), metadata: { gb: 1000, region: 'us' } }, // filtered out
        { event_name: 'storage.used', customer: customerId, idempotency_key: 'u-0', timestamp: new Date(now).toISOString(), metadata: { gb: 50, region: 'eu' } }, // duplicate
      ],
    };
    const res = await a.call('POST', '/v1/events/batch', { body });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ingested, 6);
    assert.equal(res.body.duplicates, 1);
    for (const e of events) {
      const label = new Date(e.at).toISOString().slice(5, 10);
      expected.set(label, (expected.get(label) ?? 0) + Number(e.gb));
    }
  });

  for (const [label, viewport] of [
    ['laptop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`shows the meter's daily quantities from the rollups at ${viewport.width}×${viewport.height}, axe-clean`, async () => {
      const { page, close } = await browser.signedIn(owner, viewport);
      try {
        const res = await page.goto(`${env.baseUrl}/dashboard/usage?meter=${meterId}&customer=${customerId}&days=30`);
        assert.equal(res?.status(), 200);
        await page.locator('#chart-usage').waitFor();
        await page.waitForFunction(() => typeof (window as unknown as { Chart?: unknown }).Chart === 'function');
        const spec = JSON.parse((await page.locator('script[data-chart="chart-usage"]').textContent()) ?? '{}') as {
          labels: string[];
          series: Array<{ label: string; data: number[] }>;
        };
        assert.equal(spec.labels.length, 30);
        assert.equal(spec.labels.at(-1), new Date().toISOString().slice(5, 10), 'the last bar is today (UTC)');
        assert.equal(spec.series[0]!.label, 'GB');
        const got = new Map<string, number>();
        spec.labels.forEach((l, i) => got.set(l, spec.series[0]!.data[i]!));
        for (const [day, value] of expected) if (got.has(day)) assert.equal(got.get(day), value, day);
        const inWindow = [...expected.keys()].filter((d) => got.has(d));
        assert.equal(inWindow.length >= 2, true, 'the window holds the seeded days');
        assert.equal(
          spec.series[0]!.data.reduce((s, v) => s + v, 0),
          inWindow.reduce((s, d) => s + expected.get(d)!, 0),
          'no other day has usage (the 60-day-old event, the filtered and the duplicate are not counted)',
        );
        await browser.shot(page, `usage-chart-${label}`);
        // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
        await page.evaluate(readFileSync(path.join(path.dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8'));
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } })
            .axe;
          const r = await axe.run(document, { resultTypes: ['violations'] });
          return r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            nodes: (v.nodes as Array<{ target: unknown; failureSummary?: string }>).map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`),
          }));
        });
        assert.deepEqual(
          violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
          [],
        );

        const bad = await page.goto(`${env.baseUrl}/dashboard/usage?meter=${meterId}&customer=cus_nope`);
        assert.equal(bad?.status(), 200);
        assert.match((await page.locator('[role="alert"]').textContent()) ?? '', /customer/i);
      } finally {
        await close();
      }
    });
  }

  after(() => {
    assert.deepEqual(browser.cspViolations, []);
  });
});
