// Events equal their resource (docs/events.md: event data is what the resource's GET returns).
// For every event type, events are compared field by field with the resource's GET at the time
// of the event: at each checkpoint of a scenario (nothing moves between them: the subscriptions
// are on a test clock), every resource's latest event must equal its GET; an event followed at
// once by another of the same resource (refund.created) is compared with the response of the
// request that made it, which is the resource at that time.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { EVENT_TYPE_NAMES } from '../../src/events';
import { createGateways, planSimulatorFault } from '../../src/gateways';
import { advanceClock, attachCard, clockCustomer, createCustomer, eventually, monthlyPrice, ok, subMerchant, type SubMerchant, TEST_CARDS } from '../api/subscriptions/fixtures';

/** The resource an event type is about: the part before the dot (payment_method.attached → payment_method). */
const resourceOf = (type: string) => type.slice(0, type.indexOf('.'));

const PATHS: Record<string, string> = {
  customer: '/v1/customers',
  payment_method: '/v1/payment_methods',
  payment: '/v1/payments',
  invoice: '/v1/invoices',
  subscription: '/v1/subscriptions',
  refund: '/v1/refunds',
  credit_note: '/v1/credit_notes',
};

describe('events equal their resource (every event type)', function () {
  this.timeout(300_000);
  let env: TestEnv;
  let m: SubMerchant;
  const compared = new Map<string, number>();
  const checkedEvents = new Set<string>();
  before(async () => {
    env = await testEnv();
    m = await subMerchant(env, { currency: 'ISK' });
  });

  const allEvents = async () => {
    const out: any[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = await ok(m.call('GET', `/v1/webhook_events?limit=100${after ? `&starting_after=${after}` : ''}`));
      out.push(...page.data);
      if (!page.has_more) break;
      after = page.data[page.data.length - 1].id;
    }
    return out; // newest first
  };
  const note = (type: string) => compared.set(type, (compared.get(type) ?? 0) + 1);

  /** Every resource's latest event (not compared before) equals its GET now. */
  async function checkpoint(label: string) {
    const latest = new Map<string, any>();
    for (const e of await allEvents()) {
      const key = `${resourceOf(e.type)}:${e.data.id}`;
      if (!latest.has(key)) latest.set(key, e);
    }
    for (const e of latest.values()) {
      if (checkedEvents.has(e.id)) continue;
      const path = PATHS[resourceOf(e.type)];
      assert.ok(path, `${label}: no GET for ${e.type}`);
      const res = await m.call('GET', `${path}/${e.data.id}`);
      assert.equal(res.status, 200, `${label}: GET ${path}/${e.data.id} for ${e.type}: ${res.text}`);
      assert.deepEqual(e.data, res.body, `${label}: ${e.type} ${e.id} differs from GET ${path}/${e.data.id}`);
      checkedEvents.add(e.id);
      note(e.type);
    }
  }

  it('scenario: customers, cards, payments, subscriptions, dunning, refunds, voids and cancels', async () => {
    // customer.created, customer.updated, payment_method.attached
    const c1 = await createCustomer(m);
    await checkpoint('customer created');
    await ok(m.call('PATCH', `/v1/customers/${c1.id}`, { body: { name: 'Guðrún Jónsdóttir' } }));
    await attachCard(m, c1.id);
    await checkpoint('customer updated, card attached');

    // A payment left unpaid, then canceled: invoice.finalized (payment invoice), payment.canceled, invoice.voided.
    const pay = await ok(m.call('POST', '/v1/payments', { body: { amount: 990, currency: 'ISK', customer: c1.id } }), 201);
    await checkpoint('payment created');
    await ok(m.call('POST', `/v1/payments/${pay.id}/cancel`, { body: {} }));
    await checkpoint('payment canceled');

    // Subscriptions on a clock.
    const { clock, customer: card, pm } = await clockCustomer(m, '2032-05-01T00:00:00.000Z', { card: TEST_CARDS.recovering });
    const row = await env.db.paymentMethod.findUniqueOrThrow({ where: { id: pm.id } });
    const sim = createGateways({ mode: 'test', db: env.db }).cardAcquirer;
    await sim.setCardBehaviour({ merchantId: m.id, token: row.acquirerToken!, behaviour: 'succeed' });
    const price = await monthlyPrice(m, 4000);
    const paid = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: card.id, items: [{ price: price.id }] } }), 201);
    const trial = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: card.id, items: [{ price: price.id }], trial_period_days: 30 } }), 201);
    await advanceClock(m, clock.id, '2032-05-01T00:00:01.000Z');
    await checkpoint('first invoice paid'); // subscription.created, invoice.paid, payment.succeeded

    // Refunds: one succeeds (credit note), one fails.
    const [inv1] = (await ok(m.call('GET', `/v1/invoices?subscription=${paid.id}&limit=10`))).data;
    const r1 = await ok(m.call('POST', '/v1/refunds', { body: { payment: inv1.payment, amount: 500 } }), 201);
    const created = (await allEvents()).find((e) => e.type === 'refund.created' && e.data.id === r1.id);
    assert.deepEqual(created.data, r1, 'refund.created equals the resource the request made');
    note('refund.created');
    await eventually(async () => ((await ok(m.call('GET', `/v1/refunds/${r1.id}`))).status === 'succeeded' ? true : undefined), 'refund succeeded');
    planSimulatorFault({ merchantId: m.id, operation: 'refund', kind: 'declined' });
    const r2 = await ok(m.call('POST', '/v1/refunds', { body: { payment: inv1.payment, amount: 300 } }), 201);
    await eventually(async () => ((await ok(m.call('GET', `/v1/refunds/${r2.id}`))).status === 'failed' ? true : undefined), 'refund failed');
    await checkpoint('refunds'); // refund.succeeded, refund.failed, credit_note.created

    // Commands: update, pause, resume.
    await ok(m.call('POST', `/v1/subscriptions/${paid.id}`, { body: { metadata: { plan: 'gold' } } }));
    await checkpoint('subscription updated');
    await ok(m.call('POST', `/v1/subscriptions/${trial.id}/pause`, { body: {} }));
    await checkpoint('subscription paused');
    await ok(m.call('POST', `/v1/subscriptions/${trial.id}/resume`, { body: {} }));
    await checkpoint('subscription resumed');

    // The trial's reminder, then a declined renewal: invoice.payment_failed, payment.failed, subscription.updated (past_due).
    await advanceClock(m, clock.id, '2032-05-28T00:00:00.000Z');
    await checkpoint('trial reminder');
    await sim.setCardBehaviour({ merchantId: m.id, token: row.acquirerToken!, behaviour: 'default' });
    await advanceClock(m, clock.id, '2032-06-01T00:00:01.000Z');
    await checkpoint('renewal declined');

    // Void the declined invoice (invoice.voided), cancel both subscriptions (subscription.canceled).
    const open = (await ok(m.call('GET', `/v1/invoices?subscription=${paid.id}&status=open&limit=10`))).data;
    assert.ok(open.length >= 1);
    for (const i of open) await ok(m.call('POST', `/v1/invoices/${i.id}/void`));
    await checkpoint('invoice voided');
    await ok(m.call('POST', `/v1/subscriptions/${paid.id}/cancel`, { body: {} }));
    await ok(m.call('POST', `/v1/subscriptions/${trial.id}/cancel`, { body: {} }));
    await checkpoint('subscriptions canceled');
  });

  it('compared at least one event of every type in the catalogue', () => {
    // Not yet driven by this scenario: accounting_link.error (accounting software sync, added after
    // this test was written) and invoice.updated (a bank claim's next check moving; this scenario
    // bills cards only — test/api/subscriptions/claim-check-events.test.ts drives it). Known gaps,
    // listed so a newly added type fails here until covered.
    const notYetCovered = new Set<string>(['accounting_link.error', 'invoice.updated']);
    const missing = EVENT_TYPE_NAMES.filter((t) => !compared.has(t) && !notYetCovered.has(t));
    assert.deepEqual(missing, [], `types never compared: ${missing.join(', ')}; compared: ${JSON.stringify([...compared])}`);
  });
});
