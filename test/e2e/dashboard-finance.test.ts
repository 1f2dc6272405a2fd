// A finance user's day in Chromium (issue 31): a merchant whose card customers have declined
// payments and a void invoice; the lists name people; the period's exports download and open
// (CSV with a BOM and Icelandic names, a ZIP of PDFs) for finance and not for read-only, and
// through the API; each list page at 390×844 shows its first row's status and amount without
// sideways scrolling; axe-core finds no serious or critical violation on any dashboard page at
// laptop and phone widths.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import yauzl from 'yauzl';
import { testEnv, type TestEnv } from '../support/env';
import { expectError, newMerchant, type TestMerchant } from '../support/api';
import { dashboardBrowser, newDashboardUser, LAPTOP, PHONE, type DashboardBrowser } from '../support/dashboard';
import { ok, paidDeclinedVoidedRefunded } from '../api/subscriptions/fixtures';
import { describeViolations, fitsWidth, seriousViolations } from '../support/axe';
import { formatCalendarDay } from '../../src/billing/calendar-day';

type User = Awaited<ReturnType<typeof newDashboardUser>>;

function zipEntries(buf: Buffer): Promise<Array<{ name: string; head: string }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out: Array<{ name: string; head: string }> = [];
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (er, s) => {
          if (er || !s) return reject(er ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          s.on('data', (c: Buffer) => chunks.push(c));
          s.on('end', () => {
            out.push({ name: e.fileName, head: Buffer.concat(chunks).subarray(0, 5).toString('latin1') });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe('a finance user in the dashboard (Chromium, e2e)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let a: TestMerchant;
  let owner: User;
  let finance: User;
  let readOnly: User;
  let browser: DashboardBrowser;
  const today = new Date().toISOString().slice(0, 10);
  const monthStart = `${today.slice(0, 8)}01`;
  const period = `from=${monthStart}&to=${today}`;

  before(async function () {
    this.timeout(20 * 60_000);
    env = await testEnv();
    a = await newMerchant(env);
    owner = await newDashboardUser(env, a.id, 'owner');
    finance = await newDashboardUser(env, a.id, 'finance');
    readOnly = await newDashboardUser(env, a.id, 'read_only');
    browser = dashboardBrowser(env);
    const { paid } = await paidDeclinedVoidedRefunded(env, a);
    assert.equal(paid.invoice.status, 'paid', JSON.stringify(paid.invoice));
  });

  it('lists lead with the customer’s name; the attention panel names who declined and how much', async () => {
    const { page, close } = await browser.signedIn(finance);
    assert.match(await page.locator('#attention').innerText(), /Guðrún Ósk Þórsdóttir — 4\.990 kr\. declined/);
    await page.goto(`${env.baseUrl}/dashboard/subscriptions`);
    const first = page.locator('#subscriptions tbody tr').first();
    assert.match((await first.locator('td[data-cell=title]').textContent()) ?? '', /Þórður Árnason|Guðrún Ósk Þórsdóttir|Jón Jónsson/);
    assert.match((await first.locator('td[data-cell=amount]').textContent()) ?? '', /4\.990 kr\. \/ month/);
    await page.goto(`${env.baseUrl}/dashboard/invoices`);
    assert.match((await page.locator('#invoices').textContent()) ?? '', /Jón Jónsson/);
    // The search box: by customer name, then by invoice number.
    await page.fill('#f-q', 'guðrún ósk');
    await page.click('#filter-button');
    const found = page.locator('#invoices tbody tr');
    assert.equal(await found.count(), 1);
    assert.match(await found.first().innerText(), /Guðrún Ósk Þórsdóttir/);
    const number = (await found.first().locator('td[data-cell=title]').innerText()).trim();
    await page.goto(`${env.baseUrl}/dashboard/invoices?q=${encodeURIComponent(number.toLowerCase())}`);
    assert.deepEqual(
      (await page.locator('#invoices tbody tr td[data-cell=title]').allInnerTexts()).map((t) => t.trim()),
      [number],
    );
    await close();
  });

  it('past due agrees: the home figure, its chart and the attention panel match the API (the declined card invoice counts, the void one owes 0); a card invoice is due on its issue date everywhere', async () => {
    type Inv = {
      id: string;
      number: string;
      status: string;
      collection_method: string | null;
      attempt_count: number;
      amount_remaining: number;
      due_date: string | null;
      finalized_at: string | null;
    };
    const invoices = (await ok(a.call('GET', '/v1/invoices?limit=100'))).data as Inv[];
    const now = Date.now();
    // docs/invoices.md "Due date and past due", applied to what the API says.
    const pastDue = invoices.filter(
      (i) => i.status === 'open' && i.amount_remaining > 0 && (i.collection_method === 'send_invoice' ? i.due_date !== null && Date.parse(i.due_date) < now : i.attempt_count > 0),
    );
    assert.equal(pastDue.length, 1, JSON.stringify(invoices.map((i) => [i.status, i.collection_method, i.attempt_count, i.amount_remaining])));
    const amount = pastDue.reduce((sum, i) => sum + i.amount_remaining, 0);
    assert.equal(amount, 4990);
    const voided = invoices.find((i) => i.status === 'void')!;
    assert.equal(voided.amount_remaining, 0);
    for (const i of invoices) {
      assert.equal(i.collection_method, 'charge_automatically');
      assert.equal(i.due_date, i.finalized_at, `${i.number}: a card invoice is due on its issue date`);
    }

    const { page, close } = await browser.signedIn(finance);
    assert.equal((await page.locator('#kpi-past-due').innerText()).trim(), `${pastDue.length} · 4.990 kr.`);
    const chart = JSON.parse((await page.locator('script[data-chart=chart-past-due]').textContent()) ?? '{}') as { series: Array<{ data: number[] }> };
    assert.equal(
      chart.series[0]!.data.reduce((x, y) => x + y, 0),
      amount,
      'the ageing chart adds up to the figure (ISK has no minor unit)',
    );
    const attention = await page.locator('#attention li').allInnerTexts();
    const listed = attention.filter((t) => /past due since/.test(t));
    assert.equal(listed.length, pastDue.length, attention.join('\n'));
    // Days as the dashboard writes them in English: "28 Nov 2026" (docs/dashboard.md "Languages").
    const dueDay = (i: Inv) => formatCalendarDay(new Date(i.due_date!), 'en');
    assert.match(listed[0]!, new RegExp(`Guðrún Ósk Þórsdóttir — 4\\.990 kr\\. past due since ${dueDay(pastDue[0]!)} · invoice ${pastDue[0]!.number}`));
    await browser.shot(page, 'laptop-home-past-due');

    await page.goto(`${env.baseUrl}/dashboard/invoices`);
    const voidRow = page.locator(`#invoices tbody tr:has(a[href="/dashboard/invoices/${voided.id}"])`);
    assert.equal((await voidRow.locator('td[data-label=Due]').innerText()).trim(), '0 kr.');
    assert.equal((await voidRow.locator('td[data-label="Due date"]').innerText()).trim(), dueDay(voided));
    await page.goto(`${env.baseUrl}/dashboard/invoices/${pastDue[0]!.id}`);
    assert.match(await page.locator('dl.props').first().innerText(), new RegExp(`Due date\\s+${dueDay(pastDue[0]!)}`));
    await close();
  });

  it('finance downloads the period’s CSVs and the invoice PDFs as a ZIP; read-only cannot; the API serves the same', async () => {
    const { page, close } = await browser.signedIn(finance);
    await page.goto(`${env.baseUrl}/dashboard/exports?${period}`);
    await browser.shot(page, 'laptop-exports');
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-invoices')]);
    assert.equal(csvDownload.suggestedFilename(), `invoices-${monthStart}-${today}.csv`);
    const csv = readFileSync((await csvDownload.path())!, 'utf8');
    assert.ok(csv.startsWith('\uFEFF'), 'UTF-8 with a byte order mark');
    const rows = parse(csv.slice(1), { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.map((r) => r.customer_name).sort(), ['Guðrún Ósk Þórsdóttir', 'Jón Jónsson', 'Þórður Árnason']);
    assert.ok(rows.every((r) => r.total === '4990' && r.total_formatted === '4.990 kr.'));
    assert.deepEqual(rows.map((r) => r.status).sort(), ['open', 'paid', 'void']);

    const [zipDownload] = await Promise.all([page.waitForEvent('download'), page.click('#export-invoice-documents-is')]);
    const entries = await zipEntries(readFileSync((await zipDownload.path())!));
    assert.equal(entries.length, 3);
    for (const e of entries) {
      assert.match(e.name, /^invoice-.+\.pdf$/);
      assert.equal(e.head, '%PDF-');
    }
    const tb = await page.evaluate(async (url) => (await fetch(url)).text(), `/dashboard/exports/trial_balance.csv?${period}`);
    const totals = (parse(tb.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>).filter((r) => r.line === 'total');
    assert.ok(totals.length >= 1 && totals.every((t) => t.period_debit === t.period_credit), tb);
    await close();
    const audit = await env.db.dashboardAuditEntry.findMany({ where: { actorUserId: finance.id, action: 'export.download' } });
    assert.deepEqual(audit.map((e) => (e.detail as { kind: string }).kind).sort(), ['invoice_documents', 'invoices', 'trial_balance']);

    const ro = await browser.signedIn(readOnly);
    await ro.page.goto(`${env.baseUrl}/dashboard/exports?${period}`);
    assert.equal(await ro.page.locator('#export-not-allowed').count(), 1);
    assert.equal(await ro.page.locator('#export-invoices').count(), 0);
    const refused = await ro.page.goto(`${env.baseUrl}/dashboard/exports/payments.csv?${period}`);
    assert.equal(refused?.status(), 403);
    await ro.close();

    const api = await a.call('GET', `/v1/exports/payments.csv?${period}`);
    assert.equal(api.status, 200, api.text);
    assert.match(api.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
    assert.match(api.text, /Guðrún Ósk Þórsdóttir/);
    expectError(await a.call('GET', `/v1/exports/payments.csv?from=${monthStart}`), 400, 'validation_failed', 'to');
    expectError(await a.call('GET', `/v1/exports/ledger_entries.csv?from=${today}&to=2020-01-01`), 400, 'validation_failed', 'to');
  });

  const LISTS = [
    ['subscriptions', '#subscriptions'],
    ['invoices', '#invoices'],
    ['payments', '#payments'],
    ['credit-notes', '#credit-notes'],
    ['refunds', '#refunds'],
  ] as const;

  it('at 390×844 each list shows its first row’s status and amount without sideways scrolling', async () => {
    const { page, close } = await browser.signedIn(finance, PHONE);
    for (const [path, panel] of LISTS) {
      await page.goto(`${env.baseUrl}/dashboard/${path}`);
      for (const cell of ['status', 'amount']) {
        const fit = await fitsWidth(page, `${panel} tbody tr:first-child td[data-cell=${cell}]`);
        assert.equal(fit.pageScrolls, false, `${path}: the page scrolls sideways`);
        assert.equal(fit.visible, true, `${path}: the first row's ${cell} is not on screen (${fit.box})`);
      }
      // The menu is folded: the first row is on the first screen.
      const top = await page.locator(`${panel} tbody tr`).first().boundingBox();
      assert.ok(top && top.y < PHONE.height, `${path}: the first row starts at ${top?.y}`);
      await browser.shot(page, `phone-${path}-cards`);
    }
    await close();
  });

  const PAGES = [
    '/dashboard',
    '/dashboard/customers',
    '/dashboard/subscriptions',
    '/dashboard/invoices',
    '/dashboard/credit-notes',
    '/dashboard/payments',
    '/dashboard/refunds',
    '/dashboard/usage',
    '/dashboard/exports',
    '/dashboard/developers/api-keys',
    '/dashboard/developers/webhooks',
    '/dashboard/developers/deliveries',
    '/dashboard/developers/events',
    '/dashboard/settings',
    '/dashboard/team',
    '/dashboard/audit',
    '/dashboard/account',
  ];

  it('Icelandic: ?lang=is (remembered) or Accept-Language turns the frame and the home page Icelandic, months as "nóv. 2026"; axe finds nothing serious at both widths', async function () {
    this.timeout(600_000);
    const found: string[] = [];
    const thisMonth = new Intl.DateTimeFormat('en', { month: 'numeric', timeZone: 'UTC' }).format(new Date());
    const IS_MONTHS = ['jan.', 'feb.', 'mars', 'apr.', 'maí', 'júní', 'júlí', 'ágú.', 'sep.', 'okt.', 'nóv.', 'des.'];
    const label = `${IS_MONTHS[Number(thisMonth) - 1]} ${new Date().getUTCFullYear()}`;
    for (const viewport of [LAPTOP, PHONE]) {
      const { page, close } = await browser.signedIn(owner, viewport);
      await page.goto(`${env.baseUrl}/dashboard?lang=is`);
      assert.equal(await page.getAttribute('html', 'lang'), 'is');
      assert.match(await page.locator('#content').innerText(), /Reikningar í vanskilum/);
      assert.equal((await page.locator('#kpi-past-due').innerText()).trim(), '1 · 4.990 kr.');
      const chart = JSON.parse((await page.locator('script[data-chart=chart-revenue]').textContent()) ?? '{}') as { labels: string[] };
      assert.equal(chart.labels.at(-1), label, 'months as "nóv. 2026"');
      assert.equal(chart.labels.length, 12);
      await browser.shot(page, `is-${viewport.width}-home`);
      // Remembered: the next page is Icelandic without asking again; the switch goes back.
      await page.goto(`${env.baseUrl}/dashboard/invoices`);
      assert.equal(await page.getAttribute('html', 'lang'), 'is');
      assert.equal(await page.locator('#lang-switch').innerText(), 'English');
      for (const url of PAGES) {
        const res = await page.goto(`${env.baseUrl}${url}`);
        assert.equal(res?.status(), 200, url);
        const vs = await seriousViolations(page);
        if (vs.length) found.push(describeViolations(`${url} (is) at ${viewport.width}px`, vs));
        await browser.shot(page, `is-${viewport.width}-${url.replace(/^\/dashboard\/?/, '').replace(/\//g, '-') || 'home'}`);
      }
      await page.click('#lang-switch');
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      await close();
    }
    // A browser that asks for Icelandic first gets it with no choice made (and English otherwise).
    const ctx = await browser.signedIn(finance);
    const langOf = (acceptLanguage: string) =>
      ctx.page.evaluate(async (al) => /<html lang="(\w+)"/.exec(await (await fetch('/dashboard', { headers: { 'Accept-Language': al } })).text())?.[1], acceptLanguage);
    assert.equal(await langOf('is-IS,is;q=0.9,en;q=0.5'), 'is');
    assert.equal(await langOf('en-GB,en;q=0.9,is;q=0.5'), 'en');
    assert.equal(await langOf('de'), 'en');
    await ctx.close();
    assert.deepEqual(found, [], found.join('\n'));
  });

  it('axe-core: no serious or critical violation on any dashboard page, laptop and phone', async function () {
    this.timeout(900_000);
    const found: string[] = [];
    for (const viewport of [LAPTOP, PHONE]) {
      const { page, close } = await browser.signedIn(owner, viewport);
      const detail = [
        `/dashboard/invoices/${(await env.db.invoice.findFirstOrThrow({ where: { merchantId: a.id, status: 'void' } })).id}`,
        `/dashboard/subscriptions/${(await env.db.subscription.findFirstOrThrow({ where: { merchantId: a.id } })).id}`,
        `/dashboard/customers/${(await env.db.customer.findFirstOrThrow({ where: { merchantId: a.id } })).id}`,
        `/dashboard/payments/${(await env.db.payment.findFirstOrThrow({ where: { merchantId: a.id } })).id}`,
      ];
      for (const url of [...PAGES, ...detail]) {
        const res = await page.goto(`${env.baseUrl}${url}`);
        assert.equal(res?.status(), 200, url);
        const vs = await seriousViolations(page);
        if (vs.length) found.push(describeViolations(`${url} at ${viewport.width}px`, vs));
      }
      await close();
    }
    assert.deepEqual(found, [], found.join('\n'));
  });
});
