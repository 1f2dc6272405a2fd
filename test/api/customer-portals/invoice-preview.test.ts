// The next-invoice preview the portal shows is the invoice the renewal then creates: same lines,
// same amounts, same totals (src/domain/subscriptions/preview-next-invoice.ts), on a test clock
// with licensed seats, metered usage beyond an allowance, a pending invoice item and a discount.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { scopedDb } from '../../../src/db/tenancy';
import { previewNextInvoice } from '../../../src/domain/subscriptions/preview-next-invoice';
import { advanceClock, attachCard, attachToClock, createClock, createCustomer, createPrice, eventually, ok, subMerchant, type SubMerchant } from '../subscriptions/fixtures';

describe('invoice preview equals the renewal invoice (test clock)', function () {
  this.timeout(180_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(subMerchant)));

  it('previews the next cycle invoice, then the renewal creates exactly it', async () => {
    const clock = await createClock(m, '2025-03-10T12:00:00.000Z');
    const seats = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 2990, recurring: { interval: 'month' } });
    const meter = await ok(m.call('POST', '/v1/meters', { body: { name: 'Símtöl', event_name: `calls-${clock.id}`, aggregate_type: 'sum', aggregate_property: 'calls' } }), 201);
    const calls = await createPrice(m, {
      type: 'recurring',
      currency: 'ISK',
      unit_amount: 3,
      recurring: { interval: 'month', usage_type: 'metered' },
      meter: meter.id,
      included_units: 100,
    });
    const cus = await createCustomer(m, { name: 'Þórdís Ægisdóttir' });
    await attachToClock(m, clock.id, cus.id);
    await attachCard(m, cus.id);
    const sub = await ok(
      m.call('POST', '/v1/subscriptions', {
        body: { customer: cus.id, items: [{ price: seats.id, quantity: 2 }, { price: calls.id }], discount: { percent_off: 10, duration: 'forever' } },
      }),
      201,
    );
    await eventually(async () => {
      const inv = (await ok(m.call('GET', `/v1/invoices?subscription=${sub.id}`))).data;
      return inv.length === 1 && inv[0].status === 'paid' ? inv : undefined;
    }, 'first invoice paid');
    // Usage in the period and a one-off charge for the next invoice. A clock customer's usage may
    // not be ahead of its clock, so the clock first moves to a day inside the period, after both events.
    await advanceClock(m, clock.id, '2025-04-05T12:00:00.000Z');
    await ok(m.call('POST', '/v1/events', { body: { event_name: meter.event_name, customer: cus.id, timestamp: '2025-03-20T10:00:00.000Z', metadata: { calls: '250' } } }), 201);
    await ok(m.call('POST', '/v1/events', { body: { event_name: meter.event_name, customer: cus.id, timestamp: '2025-04-02T10:00:00.000Z', metadata: { calls: '17' } } }), 201);
    await ok(m.call('POST', '/v1/invoice_items', { body: { customer: cus.id, subscription: sub.id, amount: 1500, description: 'Uppsetning', quantity: 1 } }), 201);

    const tenant = { merchantId: m.id, mode: 'test' as const };
    const db = scopedDb(env.db, tenant);
    const preview = await previewNextInvoice(db, tenant, sub.id);
    assert.ok(preview, 'a preview');
    assert.equal(preview.invoice.periodStart.toISOString(), '2025-04-10T12:00:00.000Z');
    // 2 × 2990 seats + (267 − 100) × 3 calls + 1500 = 7981; 10 % off → 798 (half up); total 7183.
    assert.deepEqual(
      preview.lines.filter((l) => l.kind !== 'discount').map((l) => [l.kind, Number(l.quantity), Number(l.amount)]),
      [
        ['licensed', 2, 5980],
        ['metered', 167, 501],
        ['invoice_item', 1, 1500],
      ],
    );
    assert.deepEqual([Number(preview.invoice.subtotal), Number(preview.invoice.discountAmount), Number(preview.invoice.total)], [7981, 798, 7183]);
    assert.equal(await db.invoice.count({ where: { subscriptionId: sub.id } }), 1, 'the preview stored nothing');

    await advanceClock(m, clock.id, '2025-04-10T13:00:00.000Z');
    const invoices = (await ok(m.call('GET', `/v1/invoices?subscription=${sub.id}`))).data;
    assert.equal(invoices.length, 2);
    const renewal = await ok(m.call('GET', `/v1/invoices/${invoices[0].id}`));
    assert.equal(renewal.billing_reason, 'subscription_cycle');
    const charged = renewal.lines.data ?? renewal.lines;
    assert.deepEqual(
      charged.filter((l: any) => l.kind !== 'discount').map((l: any) => [l.kind, l.description, l.quantity, l.amount]),
      preview.lines.filter((l) => l.kind !== 'discount').map((l) => [l.kind, l.description, Number(l.quantity), Number(l.amount)]),
    );
    assert.deepEqual([renewal.subtotal, renewal.total, renewal.vat_amount], [Number(preview.invoice.subtotal), Number(preview.invoice.total), Number(preview.invoice.vatAmount)]);
  });
});
