// Subscription items: add, retrieve, update, delete with proration_behavior, through the
// subscription's workflow; rules, tenant isolation and input errors.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { prorationLines } from '../../../src/billing';
import { attachCard, createCustomer, createPrice, eventually, monthlyPrice, ok, iskSubMerchant, type SubMerchant } from './fixtures';
import { formatCalendarDay } from '../../../src/billing/calendar-day';

describe('subscription items API', function () {
  this.timeout(120_000);
  let env: TestEnv, m: SubMerchant, other: SubMerchant;
  let customer: any;
  let base: any;
  let seat: any;
  before(async () => {
    [env, m, other] = await envAndMerchants(iskSubMerchant, iskSubMerchant);
    customer = await createCustomer(m);
    await attachCard(m, customer.id);
    base = await monthlyPrice(m, 9900);
    seat = await monthlyPrice(m, 1500);
  });

  const newSubscription = async () => ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: base.id }] } }), 201);
  const prorations = (subId: string) => env.db.invoiceItem.findMany({ where: { subscriptionId: subId, proration: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

  it('adds a licensed item with proration for the remaining time (create_prorations is the default)', async () => {
    const s = await newSubscription();
    const res = await m.call('POST', '/v1/subscription_items', { body: { subscription: s.id, price: seat.id, quantity: 3, metadata: { team: 'a' } } });
    assert.equal(res.status, 201, res.text);
    const item = res.body;
    assert.match(item.id, /^si_/);
    assert.deepEqual([item.object, item.subscription, item.price, item.quantity, item.credit_rollover, item.included_units], ['subscription_item', s.id, seat.id, 3, false, null]);
    assert.deepEqual(item.metadata, { team: 'a' });
    assert.deepEqual(await ok(m.call('GET', `/v1/subscription_items/${item.id}`)), item);
    const [p] = await prorations(s.id);
    assert.ok(p, 'a proration item');
    const expected = prorationLines({
      oldAmountForFullPeriod: 0,
      newAmountForFullPeriod: 4500,
      periodStart: new Date(s.current_period_start),
      periodEnd: new Date(s.current_period_end),
      changeAt: p.periodStart!,
    });
    assert.equal(Number(p.amount), expected.charge.amount);
    assert.equal(p.periodEnd!.toISOString(), s.current_period_end);
    assert.equal(p.invoiceId, null);
    // The description names the day as a person reads it, never a raw ISO timestamp.
    assert.match(p.description, new RegExp(`^Remaining time on 3 × .+ after ${formatCalendarDay(p.periodStart!, 'en')}$`));
    assert.match(p.description, /after \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/);
    const sub = await ok(m.call('GET', `/v1/subscriptions/${s.id}`));
    assert.deepEqual(
      sub.items.map((i: any) => i.id),
      [s.items[0].id, item.id],
    );
  });

  it('changes quantity with none, create_prorations and always_invoice; metadata null removes keys', async () => {
    const s = await newSubscription();
    const item = await ok(
      m.call('POST', '/v1/subscription_items', { body: { subscription: s.id, price: seat.id, quantity: 1, proration_behavior: 'none', metadata: { a: '1', b: '2' } } }),
      201,
    );
    assert.equal((await prorations(s.id)).length, 0);
    const up = await ok(m.call('POST', `/v1/subscription_items/${item.id}`, { body: { quantity: 2, proration_behavior: 'create_prorations', metadata: { a: null, c: '3' } } }));
    assert.deepEqual([up.quantity, up.metadata], [2, { b: '2', c: '3' }]);
    const pair = await prorations(s.id);
    assert.equal(pair.length, 2);
    assert.ok(Number(pair[0]!.amount) < 0, 'credit for the unused time of 1 seat');
    assert.ok(Number(pair[1]!.amount) > 0, 'charge for the remaining time of 2 seats');
    const expected = prorationLines({
      oldAmountForFullPeriod: 1500,
      newAmountForFullPeriod: 3000,
      periodStart: new Date(s.current_period_start),
      periodEnd: new Date(s.current_period_end),
      changeAt: pair[0]!.periodStart!,
    });
    assert.deepEqual(
      pair.map((p) => Number(p.amount)),
      [expected.credit.amount, expected.charge.amount],
    );

    const again = await ok(m.call('POST', `/v1/subscription_items/${item.id}`, { body: { quantity: 4, proration_behavior: 'always_invoice' } }));
    assert.equal(again.quantity, 4);
    const inv = await eventually(async () => {
      const i = await env.db.invoice.findFirst({ where: { subscriptionId: s.id, billingReason: 'subscription_update' } });
      return i?.status === 'paid' ? i : undefined;
    }, 'update invoice paid');
    const onIt = await env.db.invoiceItem.findMany({ where: { invoiceId: inv.id } });
    // always_invoice invoices every pending proration of the subscription at once
    assert.equal(onIt.length, 4);
    assert.equal(
      Number(inv.amountDue),
      onIt.reduce((n, i) => n + Number(i.amount) * i.quantity, 0),
    );
  });

  it('deletes an item (no proration by default) but never the last one', async () => {
    const s = await newSubscription();
    const item = await ok(m.call('POST', '/v1/subscription_items', { body: { subscription: s.id, price: seat.id, proration_behavior: 'none' } }), 201);
    const del = await m.call('DELETE', `/v1/subscription_items/${item.id}`);
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(del.body, { id: item.id, object: 'subscription_item', subscription: s.id, deleted: true });
    assert.equal((await prorations(s.id)).length, 0);
    expectError(await m.call('GET', `/v1/subscription_items/${item.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('DELETE', `/v1/subscription_items/${item.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('DELETE', `/v1/subscription_items/${s.items[0].id}`), 400, 'invalid_subscription', 'id');
    const withCredit = await ok(m.call('POST', '/v1/subscription_items', { body: { subscription: s.id, price: seat.id, proration_behavior: 'none' } }), 201);
    assert.equal((await m.call('DELETE', `/v1/subscription_items/${withCredit.id}?proration_behavior=create_prorations`)).status, 200);
    const [credit] = await prorations(s.id);
    assert.ok(credit && Number(credit.amount) < 0, 'credit for the unused time');
    expectError(await m.call('DELETE', `/v1/subscription_items/${s.items[0].id}?proration_behavior=later`), 400, 'validation_failed', 'proration_behavior');
  });

  it("refuses items that break the rules, and other tenants' and modes' ids", async () => {
    const s = await newSubscription();
    const yearly = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 10, recurring: { interval: 'year' } });
    const oneTime = await createPrice(m, { type: 'one_time', currency: 'ISK', unit_amount: 10 });
    const meter = await ok(m.call('POST', '/v1/meters', { body: { name: 'calls', event_name: `calls-${s.id}`, aggregate_type: 'count' } }), 201);
    const metered = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 2, recurring: { interval: 'month', usage_type: 'metered' }, meter: meter.id });
    const foreignPrice = await monthlyPrice(other, 10);
    const post = (body: Record<string, unknown>) => m.call('POST', '/v1/subscription_items', { body: { subscription: s.id, ...body } });
    expectError(await post({ price: yearly.id }), 400, 'invalid_subscription', 'price');
    expectError(await post({ price: base.id }), 400, 'invalid_subscription', 'price');
    expectError(await post({ price: oneTime.id }), 400, 'invalid_price_type', 'price');
    expectError(await post({ price: 'price_nope' }), 404, 'resource_not_found', 'price');
    expectError(await post({ price: foreignPrice.id }), 404, 'resource_not_found', 'price');
    expectError(await post({ price: metered.id, quantity: 5 }), 400, 'validation_failed', 'quantity');
    expectError(await post({ price: seat.id, credit_rollover: true }), 400, 'validation_failed', 'credit_rollover');
    expectError(await post({ price: seat.id, proration_behavior: 'sometimes' }), 400, 'validation_failed', 'proration_behavior');
    expectError(await post({ price: seat.id, quantity: 1.5 }), 400, 'validation_failed', 'quantity');
    expectError(await post({ price: seat.id, metadata: ['x'] }), 400, 'validation_failed', 'metadata');
    expectError(await post({ price: 7 }), 400, 'validation_failed', 'price');
    expectError(await m.call('POST', '/v1/subscription_items', { body: { price: seat.id } }), 400, 'validation_failed', 'subscription');
    expectError(await m.call('POST', '/v1/subscription_items', { body: { subscription: 'sub_nope', price: seat.id } }), 404, 'resource_not_found', 'subscription');
    expectError(await other.call('POST', '/v1/subscription_items', { body: { subscription: s.id, price: foreignPrice.id } }), 404, 'resource_not_found', 'subscription');
    expectError(await m.live('POST', '/v1/subscription_items', { body: { subscription: s.id, price: seat.id } }), 404, 'resource_not_found', 'subscription');

    const item = await ok(post({ price: metered.id, included_units: 100, credit_rollover: true }), 201);
    assert.deepEqual([item.quantity, item.included_units, item.credit_rollover], [1, 100, true]);
    expectError(await m.call('POST', `/v1/subscription_items/${item.id}`, { body: { quantity: 3 } }), 400, 'validation_failed', 'quantity');
    const changed = await ok(m.call('POST', `/v1/subscription_items/${item.id}`, { body: { included_units: null, credit_rollover: false } }));
    assert.deepEqual([changed.included_units, changed.credit_rollover], [null, false]);
    expectError(await other.call('GET', `/v1/subscription_items/${item.id}`), 404, 'resource_missing', 'id');
    expectError(await m.live('GET', `/v1/subscription_items/${item.id}`), 404, 'resource_missing', 'id');
    expectError(await other.call('POST', `/v1/subscription_items/${item.id}`, { body: { quantity: 1 } }), 404, 'resource_missing', 'id');
    expectError(await other.call('DELETE', `/v1/subscription_items/${item.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('POST', `/v1/subscription_items/${item.id}`, { body: { included_units: -1 } }), 400, 'validation_failed', 'included_units');

    await ok(m.call('POST', `/v1/subscriptions/${s.id}/cancel`));
    expectError(await post({ price: seat.id }), 409, 'invalid_state', 'id');
  });
});
