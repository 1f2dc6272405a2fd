// `billing demo` (README "Demo data"): fills a test-mode merchant with a believable Icelandic
// catalog, customers with kennitölur and a year of billing history on a test clock, through the
// service's public API with a secret test key (every rule, event and ledger posting is the
// production path; nothing is inserted behind the API's back). Idempotent: every request carries
// a fixed Idempotency-Key derived from the merchant and the step, and a finished run marks the
// catalog's first product (metadata demo_complete); a later run finds the mark and adds nothing.
import { kennitalaCheckDigit } from '../../src/validation/kennitala';
import type { ApiTarget } from './api-client';

export const DEMO_MARK = 'billing demo';
const SUCCEEDS = '4242424242424242';
/** Saves fine, every later charge is declined (docs/test-cards.md): past_due. */
const DECLINES_LATER = '4000000000000341';

const FIRST = [
  'Anna',
  'Jón',
  'Guðrún',
  'Sigurður',
  'Kristín',
  'Gunnar',
  'Margrét',
  'Ólafur',
  'Helga',
  'Einar',
  'Sigríður',
  'Magnús',
  'Ingibjörg',
  'Stefán',
  'Sólveig',
  'Kristján',
  'Ragnheiður',
  'Björn',
  'Ásta',
  'Þórður',
];
const FATHERS = ['Jón', 'Sigurð', 'Guðmund', 'Gunnar', 'Ólaf', 'Einar', 'Magnús', 'Stefán', 'Kristján', 'Björn', 'Helg', 'Þórð'];
const FEMALE = new Set(['Anna', 'Guðrún', 'Kristín', 'Margrét', 'Helga', 'Sigríður', 'Ingibjörg', 'Sólveig', 'Ragnheiður', 'Ásta']);
const TOWNS = [
  ['Reykjavík', '101'],
  ['Kópavogur', '200'],
  ['Hafnarfjörður', '220'],
  ['Akureyri', '600'],
  ['Selfoss', '800'],
  ['Ísafjörður', '400'],
] as const;

/** A person's kennitala born on the given day (century digit 9), with a valid check digit. */
export function demoKennitala(i: number): string {
  const day = String((i % 28) + 1).padStart(2, '0');
  const month = String((i % 12) + 1).padStart(2, '0');
  const year = String(50 + (i % 45)).padStart(2, '0');
  for (let n = (i * 7) % 80; ; n = (n + 1) % 100) {
    const eight = `${day}${month}${year}${String(20 + (n % 80)).padStart(2, '0')}`;
    const check = kennitalaCheckDigit(eight);
    if (check !== null) return `${eight}${check}9`;
  }
}

export function demoName(i: number): string {
  const first = FIRST[i % FIRST.length]!;
  const father = FATHERS[(i * 5 + 3) % FATHERS.length]!;
  return `${first} ${father}${FEMALE.has(first) ? 'sdóttir' : 'sson'}`;
}

type Say = (line: string) => void;
type Call = <T = any>(method: string, path: string, body?: unknown, key?: string) => Promise<T>;

function demoCaller(target: ApiTarget): Call {
  return async (method, path, body, key) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${target.key}`, 'X-Merchant-Id': target.merchantId };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'POST' || method === 'PATCH') headers['Idempotency-Key'] = `demo:${target.merchantId}:${key ?? path}`;
    const res = await fetch(`${target.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as any) : {};
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${parsed?.error?.code ?? ''} ${parsed?.error?.message ?? text}`.trim());
    return parsed;
  };
}

export interface DemoOptions {
  customers: number;
  months: number;
  say: Say;
}

export interface DemoResult {
  created: boolean;
  customers: number;
  subscriptions: Record<string, number>;
}

async function waitReady(call: Call, clockId: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const c = await call('GET', `/v1/test_helpers/test_clocks/${clockId}`);
    if (c.status === 'ready') return;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error(`test clock ${clockId} did not become ready`);
}

function monthStart(d: Date, add: number): string {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1, 9, 0, 0)).toISOString();
}

/** The demo's catalog: three products, ISK prices with 24 % and 11 % VAT, a meter and its metered price. */
async function createDemoCatalog(call: Call, say: Say, meta: { demo: string }): Promise<{ streaming: any; prices: any[]; metered: any }> {
  say('catalog: products, ISK prices with 24 % and 11 % VAT, a metered price');
  const streaming = await call('POST', '/v1/products', { name: 'Streymi', description: 'Sjónvarp og tónlist', vat_rate: 'standard', metadata: meta }, 'product:streymi');
  const news = await call('POST', '/v1/products', { name: 'Fréttaáskrift', description: 'Dagblað á netinu', vat_rate: 'reduced', metadata: meta }, 'product:frettir');
  const cloud = await call(
    'POST',
    '/v1/products',
    { name: 'Skýjageymsla', description: 'Geymslupláss, greitt eftir notkun', vat_rate: 'standard', metadata: meta },
    'product:geymsla',
  );
  const meter = await call(
    'POST',
    '/v1/meters',
    { name: 'Geymsla (GB)', event_name: 'storage_gb', aggregate_type: 'sum', aggregate_property: 'gb', unit_label: 'GB' },
    'meter:storage',
  );
  const recurring = (amount: number, product: string, key: string, vat: string) =>
    call('POST', '/v1/prices', { product, type: 'recurring', currency: 'ISK', unit_amount: amount, recurring: { interval: 'month' }, vat_rate: vat, metadata: meta }, key);
  const prices = [
    await recurring(2990, streaming.id, 'price:streymi-grunn', 'standard'),
    await recurring(4990, streaming.id, 'price:streymi-plus', 'standard'),
    await recurring(3490, news.id, 'price:frettir', 'reduced'),
  ];
  const metered = await call(
    'POST',
    '/v1/prices',
    {
      product: cloud.id,
      type: 'recurring',
      currency: 'ISK',
      unit_amount: 15,
      recurring: { interval: 'month', usage_type: 'metered' },
      meter: meter.id,
      vat_rate: 'standard',
      metadata: meta,
    },
    'price:geymsla',
  );
  say(`  ${streaming.id}, ${news.id}, ${cloud.id}; prices ${[...prices, metered].map((p) => p.id).join(', ')}`);
  return { streaming, prices, metered };
}

export async function runDemo(target: ApiTarget, opts: DemoOptions): Promise<DemoResult> {
  const call = demoCaller(target);
  const { say } = opts;
  const products = await call<{ data: any[] }>('GET', '/v1/products?limit=100');
  const done = products.data.find((p) => p.metadata?.demo === DEMO_MARK && p.metadata?.demo_complete === 'yes');
  if (done) {
    say(`demo data already present for ${target.merchantId} (product ${done.id}); nothing added`);
    return { created: false, customers: 0, subscriptions: {} };
  }
  const meta = { demo: DEMO_MARK };

  const { streaming, prices, metered } = await createDemoCatalog(call, say, meta);

  const now = new Date();
  const start = monthStart(now, -opts.months);
  const clock = await call('POST', '/v1/test_helpers/test_clocks', { frozen_time: start, name: 'Demo: a year of billing' }, 'clock');
  say(`test clock ${clock.id} at ${start}`);

  // Roles: most customers subscribe from the start (active, some on bank claims, one metered);
  // at the end some cancel, pause, fall past due (declining card) or start a trial.
  const roles = ['active', 'bank_claim', 'metered', 'canceled', 'paused', 'past_due', 'trialing', 'active'] as const;
  type Role = (typeof roles)[number];
  const people: Array<{ id: string; role: Role; sub?: string }> = [];
  for (let i = 0; i < opts.customers; i++) {
    const [town, postal] = TOWNS[i % TOWNS.length]!;
    const name = demoName(i);
    const role = roles[i % roles.length]!;
    const email = `${name
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z ]/g, '')
      .replace(/ /g, '.')}.${i}@example.is`;
    const c = await call(
      'POST',
      '/v1/customers',
      {
        name,
        email,
        kennitala: demoKennitala(i),
        billing_address_line1: `Aðalgata ${i + 1}`,
        billing_city: town,
        billing_postal_code: postal,
        billing_country: 'IS',
        test_clock: clock.id,
        metadata: meta,
      },
      `customer:${i}`,
    );
    if (role !== 'bank_claim') {
      await call(
        'POST',
        `/v1/test_helpers/customers/${c.id}/payment_methods`,
        { card_number: role === 'past_due' ? DECLINES_LATER : SUCCEEDS, exp_month: 12, exp_year: now.getUTCFullYear() + 4, cvc: '123' },
        `card:${i}`,
      );
    }
    people.push({ id: c.id, role });
  }
  say(`${people.length} customers with kennitölur and test cards on ${clock.id}`);

  const subscribe = async (p: (typeof people)[number], i: number, extra: Record<string, unknown> = {}) => {
    const items = p.role === 'metered' ? [{ price: metered.id }] : [{ price: prices[i % prices.length]!.id }];
    const sub = await call('POST', '/v1/subscriptions', { customer: p.id, items, metadata: meta, ...extra }, `subscription:${i}`);
    p.sub = sub.id;
  };
  for (const [i, p] of people.entries()) {
    if (p.role === 'past_due' || p.role === 'trialing') continue;
    await subscribe(p, i, p.role === 'bank_claim' ? { collection_method: 'send_invoice', days_until_due: 14 } : {});
  }
  say(`subscriptions started at ${start}`);

  for (let month = 1; month <= opts.months; month++) {
    for (const [i, p] of people.entries()) {
      if (p.role !== 'metered') continue;
      await call(
        'POST',
        '/v1/events',
        { event_name: 'storage_gb', customer: p.id, idempotency_key: `demo:${i}:${month}`, metadata: { gb: 20 + ((i * 13 + month * 7) % 80) } },
        `usage:${i}:${month}`,
      );
    }
    const to = monthStart(now, -opts.months + month);
    await call('POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: to }, `advance:${month}`);
    await waitReady(call, clock.id);
    // Bank claims are paid by the customers' banks (test helper), most of them on time.
    for (const [i, p] of people.entries()) {
      if (p.role !== 'bank_claim' || !p.sub) continue;
      const open = await call<{ data: any[] }>('GET', `/v1/invoices?subscription=${p.sub}&status=open&limit=100`);
      for (const inv of open.data) await call('POST', `/v1/test_helpers/invoices/${inv.id}/pay_bank_claim`, {}, `claim:${i}:${inv.id}`);
    }
    say(`month ${month}/${opts.months}: clock at ${to}`);
  }

  for (const [i, p] of people.entries()) {
    if (p.role === 'canceled') await call('POST', `/v1/subscriptions/${p.sub}/cancel`, {}, `cancel:${i}`);
    if (p.role === 'paused') await call('POST', `/v1/subscriptions/${p.sub}/pause`, {}, `pause:${i}`);
    if (p.role === 'trialing') await subscribe(p, i, { trial_period_days: 14 });
    if (p.role === 'past_due') await subscribe(p, i);
  }
  say('latest month: cancellations, pauses, new trials and declined cards');

  // A refund (and the credit note it issues) on a one-off payment.
  const buyer = people.find((p) => p.role === 'active');
  if (buyer) {
    const cards = await call<{ data: any[] }>('GET', `/v1/payment_methods?customer=${buyer.id}`);
    const payment = await call(
      'POST',
      '/v1/payments',
      { amount: 12900, currency: 'ISK', customer: buyer.id, payment_method: cards.data[0]?.id, description: 'Gjafabréf', metadata: meta },
      'payment:gift',
    );
    const refund = await call('POST', '/v1/refunds', { payment: payment.id, amount: 4300, reason: 'requested_by_customer', metadata: meta }, 'refund:gift');
    say(`payment ${payment.id} (${payment.status}) and a partial refund ${refund.id} (a credit note follows)`);
  }

  const subscriptions: Record<string, number> = {};
  for (const p of people) {
    if (!p.sub) continue;
    const s = await call('GET', `/v1/subscriptions/${p.sub}`);
    subscriptions[s.status] = (subscriptions[s.status] ?? 0) + 1;
  }
  await call('PATCH', `/v1/products/${streaming.id}`, { metadata: { ...meta, demo_complete: 'yes' } }, 'complete');
  say(
    `done: ${people.length} customers; subscriptions ${Object.entries(subscriptions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return { created: true, customers: people.length, subscriptions };
}
