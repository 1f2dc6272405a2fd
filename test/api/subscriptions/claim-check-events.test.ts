// A bank-claim invoice's next_payment_attempt never changes without an event (docs/events.md
// `invoice.updated`): issuing the claim and every check that finds it unpaid move the next
// check, and each move is recorded with the invoice as it now is, dated at the clock's time.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { advanceClock, clockCustomer, eventually, iskSubMerchant, monthlyPrice, ok, type SubMerchant } from './fixtures';

describe('bank claim checks and invoice.updated', function () {
  this.timeout(300_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(iskSubMerchant)));

  it('every move of next_payment_attempt while the claim is checked comes with an invoice event', async () => {
    const { clock, customer: c } = await clockCustomer(m, '2027-01-01T00:00:00.000Z', { card: null, customer: { name: 'Claim', kennitala: '1201743399' } });
    const price = await monthlyPrice(m, 4900);
    const sub = await ok(
      m.call('POST', '/v1/subscriptions', { body: { customer: c.id, collection_method: 'send_invoice', days_until_due: 14, items: [{ price: price.id }] } }),
      201,
    );

    const invoiceEvents = async (invoiceId: string) =>
      (await env.db.event.findMany({ where: { merchantId: m.id, type: { startsWith: 'invoice.' } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).filter(
        (e) => (e.data as any).id === invoiceId,
      );
    /** The invoice as the API shows it, and its newest event's view agree on next_payment_attempt. */
    const inStep = async (invoiceId: string, clockAt: string) => {
      const inv = await ok(m.call('GET', `/v1/invoices/${invoiceId}`));
      const events = await invoiceEvents(invoiceId);
      const last = events[events.length - 1]!;
      assert.equal((last.data as any).next_payment_attempt, inv.next_payment_attempt, `at ${clockAt}: the newest event shows the current next_payment_attempt`);
      for (const e of events) assert.ok(e.createdAt.getTime() <= Date.parse(clockAt), `event ${e.type} not after the clock`);
      return { inv, events };
    };

    const first = await eventually(async () => {
      const list = (await ok(m.call('GET', `/v1/invoices?subscription=${sub.id}`))).data as any[];
      return list[0]?.next_payment_attempt === '2027-01-15T00:00:00.000Z' ? list[0] : undefined;
    }, 'claim issued: next check on the due date');
    let { events } = await inStep(first.id, '2027-01-01T00:00:00.000Z');
    assert.deepEqual(
      events.map((e) => [e.type, (e.data as any).next_payment_attempt]),
      [
        ['invoice.finalized', '2027-01-01T00:00:00.000Z'],
        ['invoice.updated', '2027-01-15T00:00:00.000Z'],
      ],
    );

    // Past the due date, unpaid: each daily check moves the next one.
    await advanceClock(m, clock.id, '2027-01-17T00:00:00.000Z');
    ({ events } = await inStep(first.id, '2027-01-17T00:00:00.000Z'));
    const updates = events.filter((e) => e.type === 'invoice.updated').map((e) => [e.createdAt.toISOString(), (e.data as any).next_payment_attempt]);
    assert.deepEqual(updates, [
      ['2027-01-01T00:00:00.000Z', '2027-01-15T00:00:00.000Z'],
      ['2027-01-15T00:00:00.000Z', '2027-01-16T00:00:00.000Z'],
      ['2027-01-16T00:00:00.000Z', '2027-01-17T00:00:00.000Z'],
      ['2027-01-17T00:00:00.000Z', '2027-01-18T00:00:00.000Z'],
    ]);
  });
});
