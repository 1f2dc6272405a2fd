// Every timestamp tells the truth (docs/test-clocks.md "Timestamps"): for a test-clock customer,
// everything a billing step or command writes is dated at the clock's time of that moment —
// never before what caused it, never after the clock.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { expectError } from '../support/api';
import { createGateways } from '../../src/gateways';
import { advanceClock, attachToClock, clockCustomer, createCustomer, eventually, monthlyPrice, ok, subMerchant, type SubMerchant, TEST_CARDS } from '../api/subscriptions/fixtures';

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

describe('timestamps of test-clock billing', function () {
  this.timeout(600_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('always_invoice: the invoice, its payment and their events are dated at the change, not at the period start', async () => {
    const m = await subMerchant(env, { currency: 'ISK' });
    const { clock, customer } = await clockCustomer(m, '2027-03-01T00:00:00.000Z');
    const price = await monthlyPrice(m, 2100);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    assert.equal(s.created_at, '2027-03-01T00:00:00.000Z', 'created at the clock time');
    await advanceClock(m, clock.id, '2027-03-11T00:00:00.000Z');
    const item = s.items[0];
    await ok(m.call('POST', `/v1/subscription_items/${item.id}`, { body: { quantity: 3, proration_behavior: 'always_invoice' } }));
    const inv = await eventually(async () => {
      const list = (await ok(m.call('GET', `/v1/invoices?subscription=${s.id}&limit=10`))).data as any[];
      const u = list.find((i) => i.billing_reason === 'subscription_update');
      return u?.status === 'paid' ? u : undefined;
    }, 'always_invoice invoice paid');
    const at = '2027-03-11T00:00:00.000Z';
    assert.deepEqual([inv.created_at, inv.finalized_at, inv.paid_at, inv.period_start], [at, at, at, at]);
    const payment = await ok(m.call('GET', `/v1/payments/${inv.payment}`));
    assert.deepEqual([payment.created_at, payment.succeeded_at, payment.invoice], [at, at, inv.id]);
    const events = ((await ok(m.call('GET', '/v1/webhook_events?limit=100'))).data as any[]).filter((e) => e.data.id === inv.id || e.data.id === payment.id);
    assert.ok(events.length >= 3, JSON.stringify(events.map((e) => e.type)));
    for (const e of events) assert.equal(e.created_at, at, `${e.type} dated at the change`);
  });

  it('usage events of a test-clock customer are checked against the clock, not the wall clock', async () => {
    const m = await subMerchant(env, { currency: 'ISK' });
    const { customer: onClock } = await clockCustomer(m, '2031-06-01T00:00:00.000Z', { card: null });
    const wall = await createCustomer(m);
    const event = (customer: string, timestamp?: string) => m.call('POST', '/v1/events', { body: { event_name: 'calls', customer, ...(timestamp ? { timestamp } : {}) } });
    // Years after wall time, but within the clock's five minutes: accepted.
    const accepted = await ok(event(onClock.id, '2031-06-01T00:04:00.000Z'), 201);
    assert.equal(accepted.timestamp, '2031-06-01T00:04:00.000Z');
    // Without a timestamp, "now" is the clock's time.
    assert.equal((await ok(event(onClock.id), 201)).timestamp, '2031-06-01T00:00:00.000Z');
    expectError(await event(onClock.id, '2031-06-01T00:05:00.001Z'), 400, 'validation_failed', 'timestamp');
    // A wall-time customer keeps the wall clock's limit.
    expectError(await event(wall.id, '2031-06-01T00:04:00.000Z'), 400, 'validation_failed', 'timestamp');
    const batch = await ok(
      m.call('POST', '/v1/events/batch', {
        body: {
          events: [
            { event_name: 'calls', customer: onClock.id, timestamp: '2031-06-01T00:01:00.000Z' },
            { event_name: 'calls', customer: onClock.id, timestamp: '2031-06-02T00:00:00.000Z' },
          ],
        },
      }),
    );
    assert.equal(batch.ingested, 1);
    assert.deepEqual(
      batch.errors.map((e: any) => e.index),
      [1],
    );
  });

  it('a year on a test clock: nothing is dated before what caused it or after the clock', async () => {
    const m: SubMerchant = await subMerchant(env, { currency: 'ISK' });
    const start = '2030-01-15T09:30:00.000Z';
    const { clock, customer: card, pm } = await clockCustomer(m, start, { card: TEST_CARDS.recovering });
    const bank = await createCustomer(m, { kennitala: '1201743399' });
    await attachToClock(m, clock.id, bank.id);
    const price = await monthlyPrice(m, 5000);
    const subs = [
      await ok(m.call('POST', '/v1/subscriptions', { body: { customer: card.id, items: [{ price: price.id }], trial_period_days: 10 } }), 201),
      await ok(m.call('POST', '/v1/subscriptions', { body: { customer: bank.id, items: [{ price: price.id }], collection_method: 'send_invoice', days_until_due: 5 } }), 201),
    ];
    const setCard = async (behaviour: 'succeed' | 'default') => {
      const row = await env.db.paymentMethod.findUniqueOrThrow({ where: { id: pm.id } });
      await createGateways({ mode: 'test', db: env.db }).cardAcquirer.setCardBehaviour({ merchantId: m.id, token: row.acquirerToken!, behaviour });
    };
    const list = async (path: string) => (await ok(m.call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100`))).data as any[];

    await setCard('succeed');
    let previous = ms(start);
    const seen = new Set<string>();
    /** After each advance: every new object is dated within (previous clock time, clock time]. */
    const check = async (clockTime: number, label: string) => {
      const invoices = (await Promise.all(subs.map((s) => list(`/v1/invoices?subscription=${s.id}`)))).flat();
      const payments = (await list('/v1/payments')).filter((p) => p.customer === card.id);
      const refunds = await list('/v1/refunds');
      // Billing objects' events (customers and their cards are wall-time objects: docs/test-clocks.md).
      const events = (await list('/v1/webhook_events')).filter((e) => ['invoice', 'payment', 'refund', 'subscription', 'credit_note'].includes(e.data?.object));
      const stamps = (o: any) => ['created_at', 'finalized_at', 'paid_at', 'due_date', 'succeeded_at', 'voided_at'].map((k) => [k, o[k]] as const).filter(([, v]) => v);
      for (const [kind, objs] of [
        ['invoice', invoices],
        ['payment', payments],
        ['refund', refunds],
        ['event', events],
      ] as const) {
        for (const o of objs) {
          for (const [k, v] of stamps(o)) {
            if (k === 'due_date') continue; // a due date is in the future by design
            assert.ok(ms(v) <= clockTime, `${label}: ${kind} ${o.id} ${k} ${v} is after the clock`);
          }
          if (seen.has(o.id)) continue;
          seen.add(o.id);
          assert.ok(
            ms(o.created_at) >= previous,
            `${label}: new ${kind} ${o.id} (${o.type ?? ''}) created_at ${o.created_at} is before the advance from ${new Date(previous).toISOString()}`,
          );
        }
      }
      // Causes come first: an invoice is made, then finalized, then paid; a payment follows its invoice; an event its object.
      for (const i of invoices) {
        if (i.finalized_at) assert.ok(ms(i.finalized_at) >= ms(i.created_at), `invoice ${i.id} finalized before it was made`);
        if (i.paid_at) assert.ok(ms(i.paid_at) >= ms(i.finalized_at), `invoice ${i.id} paid before it was finalized`);
      }
      for (const p of payments) {
        const inv = invoices.find((i) => i.id === p.invoice);
        assert.ok(inv, `payment ${p.id} links its invoice`);
        assert.ok(ms(p.created_at) >= ms(inv.finalized_at), `payment ${p.id} before its invoice was finalized`);
        if (p.succeeded_at) assert.ok(ms(p.succeeded_at) >= ms(p.created_at));
      }
      for (const r of refunds) {
        const p = payments.find((x) => x.id === r.payment);
        if (p) assert.ok(ms(r.created_at) >= ms(p.succeeded_at), `refund ${r.id} before its payment succeeded`);
      }
      for (const e of events) {
        if (e.data?.created_at) assert.ok(ms(e.created_at) >= ms(e.data.created_at), `event ${e.type} ${e.id} dated before its object was made`);
      }
      previous = clockTime;
    };
    await check(ms(start), 'at creation');

    // Twelve monthly advances; a decline in month 3 recovered in month 4, a refund, an item change.
    for (let month = 1; month <= 12; month++) {
      const t = new Date(Date.UTC(2030, month, 3, 12, 0, 0)).toISOString();
      if (month === 3) await setCard('default');
      if (month === 4) await setCard('succeed');
      await advanceClock(m, clock.id, t);
      await check(ms(t), `month ${month}`);
      if (month === 2) {
        // A refund of the latest card payment and an always_invoice change, both at the clock's time.
        const paid = (await list(`/v1/invoices?subscription=${subs[0].id}`)).find((i) => i.status === 'paid');
        const refund = await ok(m.call('POST', '/v1/refunds', { body: { payment: paid.payment, amount: 100 } }), 201);
        assert.equal(refund.created_at, t);
        await eventually(async () => ((await ok(m.call('GET', `/v1/refunds/${refund.id}`))).status === 'succeeded' ? true : undefined), 'refund succeeded');
        const item = (await ok(m.call('GET', `/v1/subscriptions/${subs[0].id}`))).items[0];
        await ok(m.call('POST', `/v1/subscription_items/${item.id}`, { body: { quantity: 2, proration_behavior: 'always_invoice' } }));
        await eventually(
          async () => ((await list(`/v1/invoices?subscription=${subs[0].id}`)).some((i) => i.billing_reason === 'subscription_update' && i.status !== 'draft') ? true : undefined),
          'update invoice finalized',
        );
        await check(ms(t), 'month 2 commands');
      }
      // Pay each open bank claim at the clock's time.
      for (const inv of await list(`/v1/invoices?subscription=${subs[1].id}&status=open`))
        await ok(m.call('POST', `/v1/test_helpers/invoices/${inv.id}/pay_bank_claim`, { body: {} }));
      await check(ms(t), `month ${month} claims paid`);
    }
    const all = await list(`/v1/invoices?subscription=${subs[0].id}`);
    assert.ok(all.length >= 12, `a year of invoices (${all.length})`);
  });
});
