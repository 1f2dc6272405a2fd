// The billing pages of the dashboard in Icelandic and English (issue 31), in Chromium: a merchant
// with a paid card invoice, a declined one, a declined-then-void one and a part refund (its credit
// note). In Icelandic every billing page shows Icelandic headings, column names and status words
// (the API value kept in data-status), dates as "28. nóv. 2026", "4.990 kr. / mán.", and no
// English word of the interface is left; the invoices search placeholder fits its box at 390 px;
// axe-core finds nothing serious on these pages (lists and detail pages) in Icelandic at both
// widths. Every page is screenshotted at laptop and phone widths in both languages
// (test-artifacts/dashboard/billing-<lang>-<width>-<page>.png; docs/dashboard.md describes them).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { dashboardBrowser, newDashboardUser, LAPTOP, PHONE, type DashboardBrowser } from '../support/dashboard';
import { paidDeclinedVoidedRefunded } from '../api/subscriptions/fixtures';
import { describeViolations, seriousViolations } from '../support/axe';
import { formatCalendarDay, formatMonth } from '../../src/billing/calendar-day';

type User = Awaited<ReturnType<typeof newDashboardUser>>;

/** Words of the English interface that must not be left on an Icelandic page (data such as names and ids may be anything). */
const ENGLISH = [
  'Status',
  'Customer',
  'Customers',
  'Amount',
  'Created',
  'Invoice',
  'Invoices',
  'Payment',
  'Payments',
  'Refund',
  'Refunds',
  'Credit notes',
  'Every status',
  'Filter',
  'Search',
  'Due date',
  'Collection',
  'Description',
  'Failure',
  'Subscription',
  'Subscriptions',
  'month',
  'Download',
  'Period',
  'Next page',
  'declined',
  'Owner',
  'Usage',
  'Choose',
  'Documents',
  'Lines',
  'Items',
  'Total',
  'Cancel',
  'Pause',
  'card',
  'paid',
  'void',
  'open',
  'active',
  'past due',
  'succeeded',
  'failed',
  'issued',
  'UTC calendar',
  'The card was declined',
];

async function englishLeftovers(page: Page): Promise<string[]> {
  const text = await page.locator('#content').innerText();
  return ENGLISH.filter((w) => new RegExp(`(^|[^\\p{L}\\p{N}_])${w}($|[^\\p{L}\\p{N}_])`, 'u').test(text));
}

async function headers(page: Page, panel: string): Promise<string[]> {
  return (await page.locator(`${panel} thead th`).allTextContents()).map((t) => t.trim());
}

/** The API status values on the page and the words shown for them. */
async function badges(page: Page, panel: string): Promise<Map<string, string>> {
  const pairs = await page.$$eval(`${panel} .badge[data-status]`, (els) => els.map((e) => [e.getAttribute('data-status') ?? '', (e.textContent ?? '').trim()] as const));
  return new Map(pairs);
}

describe('the billing pages in Icelandic and English (Chromium, e2e)', function () {
  this.timeout(240_000);
  let env: TestEnv;
  let a: TestMerchant;
  let owner: User;
  let browser: DashboardBrowser;
  const ids: Record<string, string> = {};
  let dueDate = '';

  before(async function () {
    this.timeout(20 * 60_000);
    env = await testEnv();
    a = await newMerchant(env);
    owner = await newDashboardUser(env, a.id, 'owner');
    browser = dashboardBrowser(env);
    const { declined, toVoid, payment } = await paidDeclinedVoidedRefunded(env, a);
    Object.assign(ids, {
      customer: declined.customer.id,
      subscription: declined.subscription.id,
      invoice: declined.invoice.id,
      voided: toVoid.invoice.id,
      payment: payment.id,
    });
    dueDate = declined.invoice.due_date as string;
  });

  const PAGES = (): Array<[string, string]> => [
    ['customers', '/dashboard/customers'],
    ['customer', `/dashboard/customers/${ids.customer}`],
    ['subscriptions', '/dashboard/subscriptions'],
    ['subscription', `/dashboard/subscriptions/${ids.subscription}`],
    ['invoices', '/dashboard/invoices'],
    ['invoice', `/dashboard/invoices/${ids.invoice}`],
    ['invoice-void', `/dashboard/invoices/${ids.voided}`],
    ['credit-notes', '/dashboard/credit-notes'],
    ['payments', '/dashboard/payments'],
    ['payment', `/dashboard/payments/${ids.payment}`],
    ['refunds', '/dashboard/refunds'],
    ['usage', '/dashboard/usage'],
    ['exports', '/dashboard/exports'],
  ];

  it('Icelandic: headings, column names, status words, dates and amounts on every billing page; no English left', async () => {
    const { page, close } = await browser.signedIn(owner);
    const due = new Date(dueDate);
    const day = `${due.getUTCDate()}. ${formatMonth(due, 'is')}`; // "28. nóv. 2026"
    await page.goto(`${env.baseUrl}/dashboard/invoices?lang=is`);
    assert.equal(await page.locator('h1').innerText(), 'Reikningar');
    assert.deepEqual(await headers(page, '#invoices'), ['Reikningur', 'Viðskiptavinur', 'Staða', 'Samtals', 'Eftirstöðvar', 'Innheimta', 'Gjalddagi', 'Stofnað', 'Auðkenni']);
    assert.deepEqual([...(await badges(page, '#invoices')).entries()].sort(), [
      ['open', 'ógreitt'],
      ['paid', 'greitt'],
      ['void', 'ógilt'],
    ]);
    const row = page.locator(`#invoices tbody tr:has(a[href="/dashboard/invoices/${ids.invoice}"])`);
    assert.equal((await row.locator('td[data-label="Gjalddagi"]').innerText()).trim(), day);
    assert.equal((await row.locator('td[data-label="Innheimta"]').innerText()).trim(), 'kort');
    assert.equal(await page.getAttribute('#f-q', 'placeholder'), 'númer, nafn, netfang, kt.');
    assert.deepEqual(await page.locator('#f-status option').allTextContents(), ['Allar stöður', 'drög', 'ógreitt', 'greitt', 'ógilt', 'óinnheimtanlegt']);
    assert.equal((await page.locator('#filter-button').innerText()).trim(), 'Sía');

    await page.goto(`${env.baseUrl}/dashboard/invoices/${ids.invoice}`);
    assert.match(await page.locator('h1').innerText(), /^Reikningur /);
    assert.match(await page.locator('dl.props').first().innerText(), new RegExp(`Gjalddagi\\s+${day.replace(/\./g, '\\.')}`));
    assert.equal((await page.locator('#invoice-pay').innerText()).trim(), 'Reyna greiðslu núna');
    assert.equal((await page.locator('#documents-title').innerText()).trim(), 'Skjöl');

    await page.goto(`${env.baseUrl}/dashboard/subscriptions`);
    assert.equal(await page.locator('h1').innerText(), 'Áskriftir');
    assert.deepEqual(await headers(page, '#subscriptions'), ['Viðskiptavinur', 'Staða', 'Upphæð', 'Áskriftarleið', 'Yfirstandandi tímabil', 'Uppsögn', 'Auðkenni']);
    assert.deepEqual(
      (await page.locator('#subscriptions td[data-cell=amount]').allInnerTexts()).map((t) => t.trim()),
      Array(3).fill('4.990 kr. / mán.'),
    );
    const subStatuses = await badges(page, '#subscriptions');
    assert.equal(subStatuses.get('active'), 'virk');
    assert.equal(subStatuses.get('past_due'), 'í vanskilum');

    await page.goto(`${env.baseUrl}/dashboard/subscriptions/${ids.subscription}`);
    assert.equal((await page.locator('#next-invoice-title').innerText()).trim(), 'Næsti reikningur (forskoðun)');
    assert.equal((await page.locator('#items-title').innerText()).trim(), 'Liðir');

    await page.goto(`${env.baseUrl}/dashboard/payments`);
    assert.equal(await page.locator('h1').innerText(), 'Greiðslur');
    assert.deepEqual(await headers(page, '#payments'), ['Viðskiptavinur', 'Upphæð', 'Staða', 'Endurgreitt', 'Lýsing', 'Villa', 'Stofnað', 'Auðkenni']);
    const payStatuses = await badges(page, '#payments');
    assert.equal(payStatuses.get('failed'), 'mistókst');
    assert.equal(payStatuses.get('partially_refunded'), 'endurgreitt að hluta');
    assert.match(await page.locator('#payments').innerText(), /Kortinu var hafnað\./);
    assert.match(await page.locator('#payments').innerText(), /Reikningur INV-/);

    await page.goto(`${env.baseUrl}/dashboard/payments/${ids.payment}`);
    assert.equal((await page.locator('#refund-button').innerText()).trim(), 'Endurgreiða');
    assert.equal((await page.locator('label[for="f-amount"]').innerText()).trim(), 'Upphæð (í minnstu einingum)');

    await page.goto(`${env.baseUrl}/dashboard/credit-notes`);
    assert.equal(await page.locator('h1').innerText(), 'Kreditreikningar');
    assert.deepEqual(await headers(page, '#credit-notes'), ['Kreditreikningur', 'Reikningur', 'Upphæð', 'Staða', 'Ástæða', 'Útgefinn', 'Skjal']);
    assert.equal((await badges(page, '#credit-notes')).get('issued'), 'útgefinn');

    await page.goto(`${env.baseUrl}/dashboard/refunds`);
    assert.equal(await page.locator('h1').innerText(), 'Endurgreiðslur');
    assert.deepEqual(await headers(page, '#refunds'), ['Endurgreiðsla', 'Greiðsla', 'Upphæð', 'Staða', 'Ástæða', 'Villa', 'Stofnað']);

    await page.goto(`${env.baseUrl}/dashboard/customers`);
    assert.equal(await page.locator('h1').innerText(), 'Viðskiptavinir');
    assert.deepEqual(await headers(page, '#customers'), ['Viðskiptavinur', 'Netfang', 'Kennitala', 'Ytra auðkenni', 'Stofnað']);

    await page.goto(`${env.baseUrl}/dashboard/customers/${ids.customer}`);
    assert.equal((await page.locator('#customer-payment-methods-title').innerText()).trim(), 'Greiðslumátar');
    assert.equal((await page.locator('#create-portal-link').innerText()).trim(), 'Búa til tengil á þjónustusíðu');

    await page.goto(`${env.baseUrl}/dashboard/usage`);
    assert.equal(await page.locator('h1').innerText(), 'Notkun');
    assert.equal((await page.locator('label[for="f-meter"]').innerText()).trim(), 'Mælir');

    await page.goto(`${env.baseUrl}/dashboard/exports`);
    assert.equal(await page.locator('h1').innerText(), 'Útflutningur');
    assert.equal((await page.locator('#export-invoices').innerText()).trim(), 'Reikningar (CSV)');
    assert.equal((await page.locator('#export-trial_balance').innerText()).trim(), 'Prófjöfnuður (CSV)');

    // No interface word left in English on any billing page.
    const left: string[] = [];
    for (const [name, url] of PAGES()) {
      await page.goto(`${env.baseUrl}${url}`);
      assert.equal(await page.getAttribute('html', 'lang'), 'is');
      const words = await englishLeftovers(page);
      if (words.length) left.push(`${name}: ${words.join(', ')}`);
    }
    assert.deepEqual(left, []);

    // English stays English (the same page, the switch back).
    await page.goto(`${env.baseUrl}/dashboard/invoices?lang=en`);
    assert.deepEqual(await headers(page, '#invoices'), ['Invoice', 'Customer', 'Status', 'Total', 'Due', 'Collection', 'Due date', 'Created', 'Id']);
    assert.equal((await badges(page, '#invoices')).get('void'), 'void');
    assert.equal((await row.locator('td[data-label="Due date"]').innerText()).trim(), formatCalendarDay(new Date(dueDate), 'en'));
    await close();
  });

  it('the invoices search placeholder fits its box at 390 px in both languages', async () => {
    const { page, close } = await browser.signedIn(owner, PHONE);
    for (const lang of ['en', 'is']) {
      await page.goto(`${env.baseUrl}/dashboard/invoices?lang=${lang}`);
      const fit = await page.$eval('#f-q', (el) => {
        const input = el as HTMLInputElement;
        const style = getComputedStyle(input);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { text: Math.ceil(ctx.measureText(input.placeholder).width), inner, page: document.documentElement.scrollWidth <= window.innerWidth };
      });
      assert.ok(fit.text <= fit.inner, `${lang}: the placeholder is ${fit.text}px wide in a ${fit.inner}px box`);
      assert.equal(fit.page, true, `${lang}: the page scrolls sideways`);
    }
    await close();
  });

  it('screenshots of every billing page at laptop and phone widths in both languages; axe finds nothing serious in Icelandic', async function () {
    this.timeout(900_000);
    const found: string[] = [];
    for (const viewport of [LAPTOP, PHONE]) {
      const { page, close } = await browser.signedIn(owner, viewport);
      for (const lang of ['en', 'is'] as const) {
        await page.goto(`${env.baseUrl}/dashboard?lang=${lang}`);
        for (const [name, url] of PAGES()) {
          const res = await page.goto(`${env.baseUrl}${url}`);
          assert.equal(res?.status(), 200, url);
          assert.equal(await page.getAttribute('html', 'lang'), lang);
          if (lang === 'is') {
            const vs = await seriousViolations(page);
            if (vs.length) found.push(describeViolations(`${url} (is) at ${viewport.width}px`, vs));
          }
          await browser.shot(page, `billing-${lang}-${viewport.width}-${name}`);
        }
      }
      await close();
    }
    assert.deepEqual(found, [], found.join('\n'));
  });
});
