// The portal a link opens, over HTTP (the browser tests are in test/e2e/portal.test.ts): the
// exchange of a link for a session cookie, statuses and pages of links that cannot be opened,
// revocation and expiry ending a session, CSRF, same-origin, double submits, settings, and
// another customer's objects.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { newMerchant, type TestMerchant } from '../../support/api';
import { ok } from '../subscriptions/fixtures';
import { updatePortalSettings } from '../../../src/domain/customer-portals/portal-settings';
import { openPortal, portalCustomer, portalLink, TEST_CARDS } from './fixtures';

describe('customer portal sessions and actions (HTTP)', function () {
  this.timeout(120_000);
  let env: TestEnv, m: TestMerchant;
  before(async () => ([env, m] = await envAndMerchants(newMerchant)));

  it('opening a link sets a short HttpOnly SameSite=Strict cookie on /portal, records last_accessed_at, and shows the customer', async () => {
    const pc = await portalCustomer(m);
    const { link, url } = await portalLink(env, m, pc.customer.id);
    const client = await openPortal(env, url);
    assert.equal(client.openStatus, 200);
    assert.ok(client.setCookieHeader, 'a cookie');
    const attrs = client.setCookieHeader!.toLowerCase();
    assert.match(attrs, /^billing_portal=cps_[0-9a-z]{32};/i);
    assert.match(attrs, /httponly/);
    assert.match(attrs, /samesite=strict/);
    assert.match(attrs, /path=\/portal/);
    assert.doesNotMatch(attrs, /secure/, 'plain HTTP: no Secure attribute');
    const expires = Date.parse(/expires=([^;]+)/i.exec(client.setCookieHeader!)![1]!);
    assert.ok(expires - Date.now() <= 30 * 60_000 + 5_000, 'at most 30 minutes');

    const page = await client.page();
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.ok(page.text.includes('Guðrún Ósk Þórðardóttir'));
    assert.ok(page.text.includes(`subscription-${pc.subscription.id}`));
    assert.match(page.text, /id="next-invoice-[^"]+"[^>]*>.*4\.990 kr\./s, 'the next invoice amount');

    const read = await ok(m.call('GET', `/v1/customer_portals/${link.id}`));
    assert.equal(read.status, 'active');
    assert.ok(read.last_accessed_at);
    // No session, no portal.
    const none = await fetch(`${env.baseUrl}/portal`);
    assert.equal(none.status, 401);
    assert.equal((await none.text()).includes('Guðrún'), false);
  });

  it('a single-use link: consumed when first opened; the second opening gets 410; the first session keeps working', async () => {
    const pc = await portalCustomer(m);
    const { link, url } = await portalLink(env, m, pc.customer.id, { reusable: false });
    const first = await openPortal(env, url);
    assert.equal(first.openStatus, 200);
    assert.equal((await ok(m.call('GET', `/v1/customer_portals/${link.id}`))).status, 'consumed');
    const second = await openPortal(env, url);
    assert.equal(second.openStatus, 410);
    assert.equal(second.cookie, null);
    assert.equal((await first.page()).status, 200);
  });

  it('revoking the link ends its session on the next request; expiry too; unknown links are 404', async () => {
    const pc = await portalCustomer(m);
    const { link, url } = await portalLink(env, m, pc.customer.id);
    const client = await openPortal(env, url);
    assert.equal((await client.page()).status, 200);
    const csrf = await client.csrf();
    await ok(m.call('DELETE', `/v1/customer_portals/${link.id}`));
    const after = await client.page();
    assert.equal(after.status, 410);
    assert.equal(after.text.includes('Guðrún'), false);
    assert.equal((await client.action(`/portal/api/subscriptions/${pc.subscription.id}/cancel`, {}, { csrf })).status, 401);
    assert.equal((await openPortal(env, url)).openStatus, 410);

    const e = await portalLink(env, m, pc.customer.id);
    const c2 = await openPortal(env, e.url);
    assert.equal((await c2.page()).status, 200);
    await env.db.customerPortalLink.update({ where: { id: e.link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assert.equal((await c2.page()).status, 410);
    assert.equal((await openPortal(env, e.url)).openStatus, 410);

    assert.equal((await openPortal(env, `${env.baseUrl}/portal/open/cpt_${'x'.repeat(32)}`)).openStatus, 404);
    assert.equal((await openPortal(env, `${env.baseUrl}/portal/open/garbage`)).openStatus, 404);
  });

  it('actions need the CSRF token and the same origin; a double submit is answered once', async () => {
    const pc = await portalCustomer(m);
    const client = await openPortal(env, (await portalLink(env, m, pc.customer.id)).url);
    const path = `/portal/api/subscriptions/${pc.subscription.id}/cancel`;
    const noToken = await client.action(path, {}, { csrf: null });
    assert.equal(noToken.status, 403);
    assert.equal(noToken.body.error.code, 'csrf_token_invalid');
    const wrong = await client.action(path, {}, { csrf: 'x'.repeat(32) });
    assert.equal(wrong.body.error.code, 'csrf_token_invalid');
    const crossSite = await client.action(path, {}, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.body.error.code, 'origin_not_allowed');
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${pc.subscription.id}`))).cancel_at_period_end, false, 'nothing happened');

    const [a, b] = await Promise.all([client.action(path, {}, { key: 'same-form' }), client.action(path, {}, { key: 'same-form' })]);
    assert.deepEqual([a.status, b.status], [200, 200], JSON.stringify([a.body, b.body]));
    assert.deepEqual(a.body, { ok: true, notice: 'canceled' });
    const sub = await ok(m.call('GET', `/v1/subscriptions/${pc.subscription.id}`));
    assert.equal(sub.cancel_at_period_end, true);
    const updates = await env.db.event.count({ where: { merchantId: m.id, type: 'subscription.updated', data: { path: ['id'], equals: pc.subscription.id } } });
    const canceled = await env.db.event.count({ where: { merchantId: m.id, type: 'subscription.canceled', data: { path: ['id'], equals: pc.subscription.id } } });
    assert.equal(updates + canceled, 1, 'one event for one cancellation, as the API records');
    // Clicking again later: still canceled at period end, nothing more.
    assert.equal((await client.action(path)).status, 200);
    const un = await client.action(`/portal/api/subscriptions/${pc.subscription.id}/uncancel`);
    assert.equal(un.status, 200);
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${pc.subscription.id}`))).cancel_at_period_end, false);
    assert.equal((await client.action(`/portal/api/subscriptions/${pc.subscription.id}/uncancel`)).status, 200, 'undoing twice is safe');
  });

  it('cards: add one (declines show the reason), make it default, remove a non-default one, never the default', async () => {
    const pc = await portalCustomer(m);
    const client = await openPortal(env, (await portalLink(env, m, pc.customer.id)).url);
    const year = new Date().getUTCFullYear() + 3;
    const declined = await client.action('/portal/api/payment_methods', { card: { number: '4000000000000002', exp_month: 12, exp_year: year, cvc: '123' }, make_default: true });
    assert.equal(declined.status, 402, JSON.stringify(declined.body));
    assert.equal(declined.body.error.code, 'card_declined');
    const badLuhn = await client.action('/portal/api/payment_methods', { card: { number: '4242424242424241', exp_month: 12, exp_year: year, cvc: '123' } });
    assert.equal(badLuhn.status, 400);
    assert.equal(badLuhn.body.error.param, 'card.number');

    const added = await client.action(
      '/portal/api/payment_methods',
      { card: { number: '5555 5555 5555 4444', exp_month: 12, exp_year: year, cvc: '123', name: 'Guðrún' }, make_default: true },
      { key: 'add-once' },
    );
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const again = await client.action(
      '/portal/api/payment_methods',
      { card: { number: '5555 5555 5555 4444', exp_month: 12, exp_year: year, cvc: '123' }, make_default: true },
      { key: 'add-once' },
    );
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const methods = (await ok(m.call('GET', `/v1/payment_methods?customer=${pc.customer.id}`))).data;
    assert.equal(methods.length, 2, 'the double submit saved one card');
    const mc = methods.find((x: any) => x.card.last4 === '4444');
    const visa = methods.find((x: any) => x.card.last4 === '4242');
    assert.equal((await ok(m.call('GET', `/v1/customers/${pc.customer.id}`))).default_payment_method ?? mc.id, mc.id);
    assert.equal(mc.is_default ?? true, true);
    const attached = await env.db.event.count({ where: { merchantId: m.id, type: 'payment_method.attached', data: { path: ['id'], equals: mc.id } } });
    assert.equal(attached, 1, 'payment_method.attached as for any saved card');

    const removeDefault = await client.action(`/portal/api/payment_methods/${mc.id}/remove`);
    assert.equal(removeDefault.status, 409);
    const removed = await client.action(`/portal/api/payment_methods/${visa.id}/remove`);
    assert.equal(removed.status, 200);
    assert.equal((await ok(m.call('GET', `/v1/payment_methods?customer=${pc.customer.id}`))).data.length, 1);
    assert.equal((await client.action(`/portal/api/payment_methods/${visa.id}/remove`)).status, 200, 'removing twice is safe');
  });

  it('billing details: e-mail, address and VAT number change through the customer rules and record customer.updated', async () => {
    const pc = await portalCustomer(m);
    const client = await openPortal(env, (await portalLink(env, m, pc.customer.id)).url);
    const bad = await client.action('/portal/api/billing_details', { email: 'not-an-email' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'email');
    const badCountry = await client.action('/portal/api/billing_details', { billing_country: 'XX' });
    assert.equal(badCountry.body.error.param, 'billing_country');
    const r = await client.action('/portal/api/billing_details', {
      email: 'gudrun@example.is',
      billing_address_line1: 'Hafnarstræti 1',
      billing_city: 'Akureyri',
      billing_postal_code: '600',
      billing_country: 'is',
      vat_number: 'IS123456',
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const c = await ok(m.call('GET', `/v1/customers/${pc.customer.id}`));
    assert.deepEqual([c.email, c.billing_address?.line1 ?? c.billing_address_line1, c.vat_number], ['gudrun@example.is', 'Hafnarstræti 1', 'IS123456']);
    const events = await env.db.event.count({ where: { merchantId: m.id, type: 'customer.updated', data: { path: ['id'], equals: pc.customer.id } } });
    assert.equal(events, 1);
  });

  it('pay an open invoice now with the default card', async () => {
    const pc = await portalCustomer(m, { card: TEST_CARDS.alwaysDeclines });
    const inv = (await ok(m.call('GET', `/v1/invoices?subscription=${pc.subscription.id}`))).data[0];
    assert.equal(inv.status, 'open', 'the first charge was declined');
    const client = await openPortal(env, (await portalLink(env, m, pc.customer.id)).url);
    const failed = await client.action(`/portal/api/invoices/${inv.id}/pay`);
    assert.deepEqual(failed.body, { ok: true, notice: 'payment_failed' });
    const year = new Date().getUTCFullYear() + 3;
    assert.equal(
      (await client.action('/portal/api/payment_methods', { card: { number: '4242424242424242', exp_month: 12, exp_year: year, cvc: '123' }, make_default: true })).status,
      200,
    );
    const paid = await client.action(`/portal/api/invoices/${inv.id}/pay`);
    assert.deepEqual(paid.body, { ok: true, notice: 'paid' });
    assert.equal((await ok(m.call('GET', `/v1/invoices/${inv.id}`))).status, 'paid');
    assert.equal(await env.db.event.count({ where: { merchantId: m.id, type: 'invoice.paid', data: { path: ['id'], equals: inv.id } } }), 1);
    assert.deepEqual((await client.action(`/portal/api/invoices/${inv.id}/pay`)).body, { ok: true, notice: 'paid' }, 'paying a paid invoice changes nothing');
  });

  it("another customer's and another merchant's objects are unknown; settings turn actions off on the server", async () => {
    const mine = await portalCustomer(m);
    const theirs = await portalCustomer(m, { name: 'Annar Viðskiptavinur' });
    const otherMerchant = await newMerchant(env);
    const foreign = await portalCustomer(otherMerchant, { name: 'Erlendur Kaupandi' });
    const client = await openPortal(env, (await portalLink(env, m, mine.customer.id)).url);
    const page = await client.page();
    assert.equal(page.text.includes('Annar Viðskiptavinur'), false);
    for (const sub of [theirs.subscription.id, foreign.subscription.id]) {
      const r = await client.action(`/portal/api/subscriptions/${sub}/cancel`);
      assert.equal(r.status, 404);
      assert.equal(r.body.error.code, 'resource_missing');
    }
    const theirInvoice = (await ok(m.call('GET', `/v1/invoices?subscription=${theirs.subscription.id}`))).data[0];
    assert.equal((await client.page(`/portal/invoices/${theirInvoice.id}/pdf`)).status, 404);
    assert.equal((await client.page(`/portal/invoices/${theirInvoice.id}`)).status, 404);
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${theirs.subscription.id}`))).cancel_at_period_end, false);

    await updatePortalSettings(env.db, m.id, { allowCancel: false, allowUpdatePaymentMethods: false });
    try {
      const refused = await client.action(`/portal/api/subscriptions/${mine.subscription.id}/cancel`);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'portal_action_not_allowed');
      const page2 = await client.page();
      assert.equal(page2.text.includes(`id="cancel-${mine.subscription.id}"`), false, 'no cancel button');
      assert.equal(page2.text.includes('id="card-form"'), false, 'no card form');
    } finally {
      await updatePortalSettings(env.db, m.id, { allowCancel: true, allowUpdatePaymentMethods: true });
    }
  });
});
