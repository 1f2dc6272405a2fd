// Fixtures for the portal tests: a customer with a card and a subscription, portal links, and a
// small cookie-keeping client that opens a link and acts in the portal as its page's script does.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestEnv } from '../../support/env';
import type { TestMerchant } from '../../support/api';
import { attachCard, createCustomer, eventually, monthlyPrice, ok, TEST_CARDS } from '../subscriptions/fixtures';

export { TEST_CARDS };

/** The business details (src/domain/merchants) the portal and dashboard tests give their merchant. */
export const HEKLA_DETAILS = {
  legalName: 'Hekla Hugbúnaður ehf.',
  kennitala: '5902697199',
  addressLine1: 'Borgartún 1',
  postalCode: '105',
  city: 'Reykjavík',
  country: 'IS',
  supportEmail: 'hjalp@hekla.is',
};

export interface PortalCustomer {
  customer: any;
  subscription: any;
  price: any;
}

/** A customer with a saved card and a monthly subscription whose first invoice is finalized. */
export async function portalCustomer(m: TestMerchant, opts: { card?: string; amount?: number; name?: string } = {}): Promise<PortalCustomer> {
  const customer = await createCustomer(m, {
    name: opts.name ?? 'Guðrún Ósk Þórðardóttir',
    kennitala: '1201743399',
    billing_address_line1: 'Laugavegur 7',
    billing_postal_code: '101',
    billing_city: 'Reykjavík',
    billing_country: 'IS',
  });
  await attachCard(m, customer.id, opts.card ?? TEST_CARDS.visa);
  const price = await monthlyPrice(m, opts.amount ?? 4990);
  const subscription = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
  await eventually(async () => {
    const inv = (await ok(m.call('GET', `/v1/invoices?subscription=${subscription.id}`))).data;
    return inv.length === 1 && inv[0].status !== 'draft' ? inv : undefined;
  }, 'first invoice finalized');
  return { customer, subscription, price };
}

/** Creates a portal link; `url` is on this test's API (the configured public base URL is a placeholder here). */
export async function portalLink(env: TestEnv, m: TestMerchant, customerId: string, body: Record<string, unknown> = {}): Promise<{ link: any; url: string; token: string }> {
  const link = await ok(m.call('POST', '/v1/customer_portals', { body: { customer: customerId, ...body } }), 201);
  const u = new URL(link.url);
  return { link, url: `${env.baseUrl}${u.pathname}`, token: u.pathname.split('/').pop()! };
}

export interface PortalClient {
  cookie: string | null;
  openStatus: number;
  setCookieHeader: string | null;
  page(path?: string): Promise<{ status: number; text: string; headers: Headers }>;
  csrf(): Promise<string>;
  action(path: string, body?: unknown, opts?: { key?: string; csrf?: string | null; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
}

export async function openPortal(env: TestEnv, url: string): Promise<PortalClient> {
  const res = await fetch(url, { redirect: 'manual' });
  await res.text();
  const setCookie = res.headers.get('set-cookie');
  const cookie = setCookie ? setCookie.split(';')[0]! : null;
  const client: PortalClient = {
    cookie,
    openStatus: res.status,
    setCookieHeader: setCookie,
    async page(path = '/portal') {
      const r = await fetch(`${env.baseUrl}${path}`, { headers: client.cookie ? { Cookie: client.cookie } : {}, redirect: 'manual' });
      return { status: r.status, text: await r.text(), headers: r.headers };
    },
    async csrf() {
      const p = await client.page();
      assert.equal(p.status, 200, p.text.slice(0, 300));
      const m = /<script type="application\/json" id="portal-config">(.*?)<\/script>/s.exec(p.text);
      assert.ok(m, 'the page carries its configuration');
      return JSON.parse(m[1]!).csrf as string;
    },
    async action(path, body = {}, opts = {}) {
      const csrf = opts.csrf === undefined ? await client.csrf() : opts.csrf;
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        'Idempotency-Key': opts.key ?? randomBytes(12).toString('hex'),
        ...(client.cookie ? { Cookie: client.cookie } : {}),
        ...(csrf ? { 'X-CSRF-Token': csrf } : {}),
        ...(opts.headers ?? {}),
      };
      const r = await fetch(`${env.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await r.text();
      let parsed: any;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: r.status, body: parsed, headers: r.headers };
    },
  };
  return client;
}
