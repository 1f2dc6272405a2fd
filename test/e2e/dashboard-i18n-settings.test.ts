// Issue 31: the developer, settings, team, account and sign-in pages of the dashboard in Icelandic
// and English, and the customer portal's pages, in headless Chromium: Icelandic texts checked on
// every page (headings, labels, buttons, role names, status words with the raw value kept in
// data-status, dates, a notice and API messages shown on a form), and, at 1280×800 and 390×844 in
// both languages, a screenshot of every page (kept for a person to look at: docs/dashboard.md and
// docs/portal.md "What the screenshots show") and axe-core failing on any serious or critical
// violation.
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { dashboardBrowser, newDashboardUser, SCREENSHOT_DIR, type DashboardBrowser } from '../support/dashboard';
import { describeViolations, fitsWidth, seriousViolations } from '../support/axe';
import { connectForm } from '../api/accounting/fixtures';
import { ok } from '../api/subscriptions/fixtures';
import { HEKLA_DETAILS, portalCustomer, portalLink } from '../api/customer-portals/fixtures';
import { createInvitation } from '../../src/domain/dashboard-users/invitations';
import { updateBusinessDetails } from '../../src/domain/merchants/business-details';
import { newId } from '../../src/ids';

type User = Awaited<ReturnType<typeof newDashboardUser>>;

const WIDTHS = [
  ['laptop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const LANGS = ['is', 'en'] as const;

describe('dashboard developer/settings/team/account/sign-in pages and the portal in Icelandic and English (e2e)', function () {
  this.timeout(600_000);
  let env: TestEnv;
  let m: TestMerchant;
  let owner: User;
  let totpUser: User;
  let totpSecret: string;
  let browser: DashboardBrowser;
  let invitationToken: string;
  let endpointId: string;
  let eventId: string;
  let failedDelivery: string;
  let okDelivery: string;

  before(async function () {
    this.timeout(20 * 60_000);
    env = await testEnv();
    m = await newMerchant(env);
    await updateBusinessDetails(env.db, m.id, HEKLA_DETAILS);
    owner = await newDashboardUser(env, m.id, 'owner');
    totpUser = await newDashboardUser(env, m.id, 'developer');
    totpSecret = new Secret({ size: 20 }).base32;
    await env.db.dashboardUser.update({ where: { id: totpUser.id }, data: { totpSecret, totpEnabledAt: new Date() } });
    invitationToken = (await createInvitation(env.db, { merchantId: m.id, email: `guest-${Date.now()}@example.is`, role: 'read_only', invitedBy: owner.id, now: new Date() }))
      .token;
    await ok(m.call('POST', '/v1/api_keys', { body: { type: 'secret', mode: 'test', label: 'bakendi' } }), 201);
    await connectForm(env, m);
    // A webhook endpoint with one failed and one succeeded delivery (written directly: no receiver needed).
    endpointId = newId('webhookEndpoint');
    await env.db.webhookEndpoint.create({
      data: { id: endpointId, merchantId: m.id, mode: 'test', url: 'https://hooks.example.is/billing', events: ['*'], secret: 'whsec_i31b', description: 'Bókhaldið' },
    });
    const now = new Date();
    const events = [];
    for (const type of ['invoice.paid', 'customer.created']) {
      const e = await env.db.event.create({ data: { id: newId('event'), merchantId: m.id, mode: 'test', type, data: { id: 'cus_i31b', object: 'customer' }, dispatchedAt: now } });
      events.push(e);
    }
    eventId = events[0]!.id;
    failedDelivery = newId('webhookDelivery');
    okDelivery = newId('webhookDelivery');
    for (const [id, e, status, code] of [
      [failedDelivery, events[0]!, 'failed', 500],
      [okDelivery, events[1]!, 'succeeded', 200],
    ] as const) {
      await env.db.webhookDelivery.create({
        data: { id, merchantId: m.id, mode: 'test', eventId: e.id, endpointId, eventType: e.type, status, attemptCount: 1, lastStatusCode: code, lastAttemptAt: now },
      });
      await env.db.webhookDeliveryAttempt.create({
        data: {
          deliveryId: id,
          attemptNumber: 1,
          merchantId: m.id,
          mode: 'test',
          trigger: 'automatic',
          statusCode: code,
          latencyMs: 42,
          error: status === 'failed' ? 'unexpected_status: 500' : null,
          attemptedAt: now,
        },
      });
    }
    browser = dashboardBrowser(env);
  });

  after(() => {
    assert.deepEqual(browser?.cspViolations ?? [], []);
  });

  const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  const headers = async (page: Page, scope: string) => page.$$eval(`${scope} th`, (ths) => ths.map((th) => (th.textContent ?? '').trim()));

  /** The pages behind the session, by name (the paths need the ids made above). */
  const sessionPages = () =>
    [
      ['api-keys', '/dashboard/developers/api-keys'],
      ['webhooks', '/dashboard/developers/webhooks'],
      ['webhook-endpoint', `/dashboard/developers/webhooks/${endpointId}`],
      ['deliveries', '/dashboard/developers/deliveries'],
      ['delivery', `/dashboard/developers/deliveries/${failedDelivery}`],
      ['events', '/dashboard/developers/events'],
      ['event', `/dashboard/developers/events/${eventId}`],
      ['settings', '/dashboard/settings'],
      ['team', '/dashboard/team'],
      ['audit', '/dashboard/audit'],
      ['account', '/dashboard/account'],
    ] as const;

  it('Icelandic on every page: headings, labels, buttons, roles, status words (raw value kept), dates, a notice and API messages', async () => {
    const { page, close } = await browser.signedIn(owner, { width: 1280, height: 800 });
    const go = async (path: string) => {
      const res = await page.goto(`${env.baseUrl}${path}${path.includes('?') ? '&' : '?'}lang=is`);
      assert.equal(res?.status(), 200, path);
      assert.equal(await page.getAttribute('html', 'lang'), 'is', path);
    };

    await go('/dashboard/developers/api-keys');
    assert.equal(await text(page, 'h1'), 'API-lyklar');
    assert.equal(await text(page, '#keys-title'), 'Prófunarlyklar');
    assert.deepEqual((await headers(page, '#keys')).slice(0, 5), ['Heiti', 'Tegund', 'Lykill', 'Stofnað', 'Endurnýjaður']);
    assert.equal(await text(page, '#keys td [data-type="secret"]'), 'leynilykill');
    assert.match(await text(page, '#keys td.nowrap'), /^\d{1,2}\. (jan\.|feb\.|mars|apr\.|maí|júní|júlí|ágú\.|sep\.|okt\.|nóv\.|des\.) \d{4} kl\. \d\d:\d\d UTC$/);
    assert.equal(await text(page, '#create-key-button'), 'Búa til lykil');
    assert.match(await text(page, '#create-key'), /Lykillinn verður til í prófunarham/);
    assert.equal(await text(page, '#user-role'), 'Eigandi', 'the role in the account bar');

    await go('/dashboard/developers/webhooks');
    assert.equal(await text(page, 'h1'), 'Vefkrókar');
    assert.equal(await text(page, '#endpoints .badge[data-status="enabled"]'), 'virkur');
    assert.match(await text(page, '#endpoints'), /allir atburðir/);
    assert.equal(await text(page, '#add-endpoint-form button[type=submit]'), 'Bæta við vefkrók');

    await go(`/dashboard/developers/webhooks/${endpointId}`);
    assert.equal(await text(page, '#endpoint-status .badge'), 'virkur');
    assert.equal(await page.getAttribute('#endpoint-status .badge', 'data-status'), 'enabled');
    assert.equal(await text(page, '#rotate-secret'), 'Endurnýja undirritunarleyndarmál');
    assert.equal(await text(page, '#disable-endpoint'), 'Gera óvirkan');
    assert.equal(await text(page, '#endpoint-deliveries-title'), 'Nýlegar afhendingar');

    await go('/dashboard/developers/deliveries');
    assert.equal(await text(page, 'h1'), 'Afhendingar vefkróka');
    assert.equal(await text(page, `#retry-${failedDelivery}`), 'Reyna aftur');
    // At 1280 px the action column is inside the table's box, not scrolled out of it.
    const retry = await fitsWidth(page, `#retry-${failedDelivery}`);
    assert.ok(retry.visible, `the retry button is in view: ${retry.box}`);
    assert.equal(await text(page, `#retry-${okDelivery}`), 'Senda aftur', 'a succeeded delivery is resent, not retried');
    const badges = await page.$$eval('#deliveries .badge', (bs) => bs.map((b) => `${b.getAttribute('data-status')}=${b.textContent}`));
    assert.deepEqual(badges.sort(), ['failed=mistókst', 'succeeded=tókst']);

    await go(`/dashboard/developers/deliveries/${failedDelivery}`);
    assert.equal(await text(page, '#delivery-status .badge'), 'mistókst');
    assert.deepEqual(await headers(page, '#attempts'), ['#', 'Hvenær', 'Kveikja', 'HTTP', 'Svartími', 'Villa', 'Svar']);
    assert.equal(await text(page, '#attempts [data-trigger="automatic"]'), 'sjálfvirk');

    await go('/dashboard/developers/events');
    assert.equal(await text(page, 'h1'), 'Atburðir');
    assert.equal(await text(page, '#events button[type=submit]'), 'Sía');
    assert.equal(await text(page, '#f-type option[value=""]'), 'Allar tegundir');

    await go(`/dashboard/developers/events/${eventId}`);
    assert.equal(await text(page, 'h1'), 'Atburður invoice.paid');
    assert.equal(await text(page, '#event-deliveries-title'), 'Afhendingar');

    await go('/dashboard/settings');
    assert.equal(await text(page, 'h1'), 'Stillingar');
    assert.equal(await text(page, '#business-details-title'), 'Upplýsingar um fyrirtækið á reikningum');
    assert.equal(await text(page, 'label[for="f-kennitala"]'), 'Kennitala');
    assert.equal(await text(page, 'label[for="f-postal_code"]'), 'Póstnúmer');
    assert.equal(await text(page, '#accounting-title'), 'Tenging við bókhald (prófunarhamur)');
    assert.equal(await text(page, '#accounting-status .badge'), 'virk');
    assert.equal(await page.getAttribute('#accounting-status', 'data-status'), 'active');
    assert.equal(await text(page, '#accounting-mapping h3'), 'Sjálfgefinn bókhaldslykill og VSK-kóðar');
    assert.equal(await text(page, '#accounting-mapping-save'), 'Vista bókhaldslykil og VSK-kóða');
    assert.equal(await text(page, '#vat-settings-title'), 'VSK (prófunarhamur)');
    assert.match(await text(page, '#live-status'), /aðeins í prófunarham/);
    // A notice after a redirect, in Icelandic.
    await page.click('#profile-form button[type=submit]');
    await page.waitForURL(/notice=settings_saved/);
    assert.equal(await text(page, '#notice'), 'Vistað.');

    await go('/dashboard/team');
    assert.equal(await text(page, 'h1'), 'Teymi');
    assert.deepEqual(await headers(page, '#users'), ['Netfang', 'Nafn', 'Hlutverk', 'Tveggja þrepa', 'Frá', 'Aðgerðir']);
    assert.equal(await text(page, `#role-${totpUser.id} option[selected]`), 'Forritari');
    assert.equal(await text(page, '#users [data-role="owner"]'), 'Eigandi');
    assert.equal(await text(page, '#users .badge[data-status="on"]'), 'kveikt');
    assert.equal(await text(page, '#invitations [data-role="read_only"]'), 'Lesaðgangur');
    assert.equal(await text(page, '#invite-form button[type=submit]'), 'Búa til boðstengil');

    await go('/dashboard/audit');
    assert.equal(await text(page, 'h1'), 'Atvikaskrá');
    assert.equal(await text(page, '#audit .badge[data-status="succeeded"]'), 'tókst');

    await go('/dashboard/account');
    assert.equal(await text(page, 'h1'), 'Þinn aðgangur');
    assert.match(await text(page, '#totp-status'), /^Óvirk\./);
    assert.equal(await text(page, '#sign-out-everywhere'), 'Skrá út alls staðar');
    // An API message beside its field, in Icelandic.
    await page.fill('#f-current_password', 'not the password at all');
    await page.fill('#f-new_password', 'a new long passphrase');
    await page.click('#password-form button[type=submit]');
    await page.locator('.field-error[data-field="current_password"]').waitFor();
    assert.equal(await text(page, '.field-error[data-field="current_password"]'), 'Núverandi lykilorð er ekki rétt');
    await close();
  });

  it('Icelandic sign-in, two-step and invitation pages, with their error messages', async () => {
    const { page, close } = await browser.freshPage({ width: 1280, height: 800 });
    await page.goto(`${env.baseUrl}/dashboard/sign-in?lang=is`);
    assert.equal(await page.getAttribute('html', 'lang'), 'is');
    assert.equal(await text(page, 'h1'), 'Innskráning í stjórnborð innheimtu');
    assert.equal(await text(page, 'label[for="f-password"]'), 'Lykilorð');
    assert.equal(await text(page, '#lang-switch'), 'English');
    await browser.signIn(page, owner, 'wrong password, surely');
    await page.locator('.field-error[data-field="password"]').waitFor();
    assert.equal(await text(page, '.field-error[data-field="password"]'), 'Rangt netfang eða lykilorð.');
    assert.equal(await page.getAttribute('html', 'lang'), 'is', 'the choice is remembered');

    await browser.signIn(page, totpUser);
    await page.waitForURL(/\/dashboard\/sign-in\/two-step/);
    assert.equal(await text(page, 'h1'), 'Tveggja þrepa auðkenning');
    assert.equal(await text(page, '#two-step-button'), 'Áfram');
    const wrong = String((Number(new TOTP({ secret: Secret.fromBase32(totpSecret) }).generate()) + 1) % 1_000_000).padStart(6, '0');
    await page.fill('#f-code', wrong);
    await page.click('#two-step-button');
    await page.locator('.field-error[data-field="code"]').waitFor();
    assert.equal(await text(page, '.field-error[data-field="code"]'), 'Kóðinn er ekki réttur: sláðu inn tölustafina 6 sem auðkenningarforritið sýnir núna');

    await page.goto(`${env.baseUrl}/dashboard/invitations/${invitationToken}?lang=is`);
    assert.equal(await text(page, 'h1'), 'Aðgangur að stjórnborði innheimtu');
    assert.match(await text(page, '#content p'), /^Þér er boðið með hlutverkið Lesaðgangur með netfangið /);
    assert.equal(await text(page, '#invitation-form button[type=submit]'), 'Stofna aðganginn minn');
    await page.fill('#f-password', 'short');
    await page.evaluate(() => document.querySelector('#f-password')?.removeAttribute('minlength'));
    await page.click('#invitation-form button[type=submit]');
    await page.locator('.field-error[data-field="password"]').waitFor();
    assert.equal(await text(page, '.field-error[data-field="password"]'), 'Lykilorðið verður að vera að minnsta kosti 10 stafir');
    await close();
  });

  /** Axe over the page as it is, and (on a phone) no sideways scroll; a screenshot named for it. */
  async function check(page: Page, name: string, found: string[]) {
    const vs = await seriousViolations(page);
    if (vs.length) found.push(describeViolations(`${name} (${page.url()})`, vs));
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    if (client < 500 && scroll > client) found.push(`${name} (${page.url()}): scrolls sideways, ${scroll} px wide in ${client}`);
    await browser.shot(page, `i31b-${name}`);
  }

  it('every page of these at 1280×800 and 390×844 in Icelandic and English: screenshots kept, axe finds nothing serious or critical', async () => {
    const found: string[] = [];
    for (const [width, viewport] of WIDTHS) {
      const { page, close } = await browser.signedIn(owner, viewport);
      for (const lang of LANGS) {
        for (const [name, path] of sessionPages()) {
          const res = await page.goto(`${env.baseUrl}${path}?lang=${lang}`);
          assert.equal(res?.status(), 200, path);
          assert.equal(await page.getAttribute('html', 'lang'), lang);
          assert.equal(await page.locator('h1').count(), 1, `${path} has one heading`);
          await check(page, `${width}-${lang}-${name}`, found);
        }
      }
      await close();
      // The pages before a session: sign-in, two-step, invitation.
      const bare = await browser.freshPage(viewport);
      for (const lang of LANGS) {
        await bare.page.goto(`${env.baseUrl}/dashboard/sign-in?lang=${lang}`);
        await check(bare.page, `${width}-${lang}-sign-in`, found);
        await bare.page.goto(`${env.baseUrl}/dashboard/invitations/${invitationToken}?lang=${lang}`);
        await check(bare.page, `${width}-${lang}-invitation`, found);
      }
      await browser.signIn(bare.page, totpUser);
      await bare.page.waitForURL(/\/dashboard\/sign-in\/two-step/);
      for (const lang of LANGS) {
        await bare.page.goto(`${env.baseUrl}/dashboard/sign-in/two-step?lang=${lang}`);
        assert.equal(await bare.page.getAttribute('html', 'lang'), lang);
        await check(bare.page, `${width}-${lang}-two-step`, found);
      }
      await bare.close();
    }
    assert.deepEqual(found, [], found.join('\n'));
    console.log(`      screenshots: ${SCREENSHOT_DIR}/i31b-*.png`);
  });

  it('the portal at 1280×800 and 390×844 in Icelandic and English: the page, an invoice document, the status pages; screenshots kept, axe clean', async () => {
    const pc = await portalCustomer(m, { amount: 4990 });
    const invoice = (await ok(m.call('GET', `/v1/invoices?subscription=${pc.subscription.id}`))).data[0];
    const expired = await portalLink(env, m, pc.customer.id, { expires_in: 60 });
    await env.db.customerPortalLink.update({ where: { id: expired.link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const found: string[] = [];
    for (const [width, viewport] of WIDTHS) {
      const { page, close } = await browser.freshPage(viewport);
      const { url } = await portalLink(env, m, pc.customer.id);
      await page.goto(url);
      await page.waitForURL((u) => u.pathname === '/portal');
      for (const lang of LANGS) {
        await page.goto(`${env.baseUrl}/portal?lang=${lang}`);
        await page.locator('#invoice-list').waitFor();
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        if (lang === 'is') {
          assert.match(await text(page, 'h1'), /Guðrún/);
          assert.equal((await page.content()).includes('Cancel at period end'), false, 'no English left on the Icelandic portal page');
        }
        await check(page, `portal-${width}-${lang}-home`, found);
        const res = await page.goto(`${env.baseUrl}/portal/invoices/${invoice.id}?lang=${lang}`);
        assert.equal(res?.status(), 200);
        await check(page, `portal-${width}-${lang}-invoice`, found);
        const none = await browser.freshPage(viewport);
        assert.equal((await none.page.goto(`${env.baseUrl}/portal?lang=${lang}`))?.status(), 401);
        await check(none.page, `portal-${width}-${lang}-no-session`, found);
        assert.equal((await none.page.goto(`${expired.url}?lang=${lang}`))?.status(), 410);
        assert.equal(await none.page.locator('#portal-status').getAttribute('data-kind'), 'expired');
        await check(none.page, `portal-${width}-${lang}-expired`, found);
        await none.page.goto(`${env.baseUrl}/portal/signed_out?lang=${lang}`);
        await check(none.page, `portal-${width}-${lang}-signed-out`, found);
        await none.close();
      }
      await close();
    }
    assert.deepEqual(found, [], found.join('\n'));
  });

  it('Icelandic leftovers of the frame: the home page names a failed delivery, the dashboard 404 and error pages speak the chosen language', async () => {
    const { page, close } = await browser.signedIn(owner, { width: 1280, height: 800 });
    await page.goto(`${env.baseUrl}/dashboard?lang=is`);
    const line = await page.locator('li', { hasText: failedDelivery }).first().innerText();
    assert.match(line, /^Afhending vefkróks del_\S+ \(invoice\.paid\) mistókst:/, line);
    const missing = await page.goto(`${env.baseUrl}/dashboard/no-such-page`);
    assert.equal(missing?.status(), 404);
    assert.equal(await page.getAttribute('html', 'lang'), 'is');
    assert.equal(await text(page, 'h1'), 'Síðan fannst ekki');
    assert.match(await text(page, 'main'), /Engin slík síða er í stjórnborðinu\. Fara á stjórnborðið\./);
    const unknown = await page.goto(`${env.baseUrl}/dashboard/invoices/${newId('invoice')}?lang=en`);
    assert.equal(unknown?.status(), 404);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await text(page, 'h1'), 'Not found');
    assert.match(await text(page, 'main'), /No such invoice: .*Request id req_[0-9a-f]{32}Back to the dashboard$/);
    await close();
  });
});
