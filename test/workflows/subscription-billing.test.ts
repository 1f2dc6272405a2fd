// The billing cycle on test clocks (real Temporal, no time skipping): trial end, renewals,
// dunning with recovery, dunning exhausted (uncollectible / unpaid) and manual pay and void,
// bank-invoice subscriptions paid late. Amounts are checked exactly.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { expectError } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import { createGateways } from '../../src/gateways';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { advanceClock, clockCustomer, iskSubMerchant, monthlyPrice, ok, type SubMerchant, TEST_CARDS } from '../api/subscriptions/fixtures';

describe('subscription billing cycle on test clocks', function () {
  this.timeout(300_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(iskSubMerchant)));

  const invoices = async (subId: string) => (await ok(m.call('GET', `/v1/invoices?subscription=${subId}&limit=100`))).data.reverse() as any[];
  const sub = (id: string) => ok(m.call('GET', `/v1/subscriptions/${id}`));
  const setCard = async (pmId: string, behaviour: 'succeed' | 'default') => {
    const row = await env.db.paymentMethod.findUniqueOrThrow({ where: { id: pmId } });
    await createGateways({ mode: 'test', db: env.db }).cardAcquirer.setCardBehaviour({ merchantId: m.id, token: row.acquirerToken!, behaviour });
  };

  it('trial end and renewals follow the clock, with month-end clamping', async () => {
    const { clock, customer } = await clockCustomer(m, '2025-01-31T10:00:00.000Z', { card: TEST_CARDS.visa });
    const price = await monthlyPrice(m, 1990);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id, quantity: 3 }], trial_period_days: 1 } }), 201);
    assert.deepEqual([s.status, s.test_clock, s.trial_start, s.trial_end], ['trialing', clock.id, '2025-01-31T10:00:00.000Z', '2025-02-01T10:00:00.000Z']);

    await advanceClock(m, clock.id, '2025-02-01T10:00:00.000Z');
    let now = await sub(s.id);
    assert.deepEqual([now.status, now.current_period_start, now.current_period_end], ['active', '2025-02-01T10:00:00.000Z', '2025-03-01T10:00:00.000Z']);
    let inv = await invoices(s.id);
    assert.deepEqual(
      inv.map((i) => [i.billing_reason, i.status, i.amount_due, i.period_start, i.period_end]),
      [['subscription_cycle', 'paid', 5970, '2025-02-01T10:00:00.000Z', '2025-03-01T10:00:00.000Z']],
    );
    assert.equal(inv[0].finalized_at, '2025-02-01T10:00:00.000Z');
    assert.equal(inv[0].paid_at, '2025-02-01T10:00:00.000Z');

    // Two periods in one advance: each renewal happens at its own boundary.
    await advanceClock(m, clock.id, '2025-04-15T00:00:00.000Z');
    now = await sub(s.id);
    assert.deepEqual([now.current_period_start, now.current_period_end], ['2025-04-01T10:00:00.000Z', '2025-05-01T10:00:00.000Z']);
    inv = await invoices(s.id);
    assert.deepEqual(
      inv.map((i) => [i.status, i.amount_paid, i.period_start, i.paid_at]),
      [
        ['paid', 5970, '2025-02-01T10:00:00.000Z', '2025-02-01T10:00:00.000Z'],
        ['paid', 5970, '2025-03-01T10:00:00.000Z', '2025-03-01T10:00:00.000Z'],
        ['paid', 5970, '2025-04-01T10:00:00.000Z', '2025-04-01T10:00:00.000Z'],
      ],
    );
    const row = await env.db.subscription.findUniqueOrThrow({ where: { id: s.id } });
    assert.equal(row.clockSyncedTo?.toISOString(), '2025-04-15T00:00:00.000Z');
    const state: any = await env.client.workflow.getHandle(workflowIds.subscription(s.id)).query('state');
    assert.equal(state.periodsBilled, 3);
    assert.deepEqual([state.next.reason, state.next.at], ['renewal', '2025-05-01T10:00:00.000Z']);
  });

  it('a failed renewal makes the subscription past_due; a later retry recovers it (one successful charge)', async () => {
    const { clock, customer, pm } = await clockCustomer(m, '2025-03-01T00:00:00.000Z', { card: TEST_CARDS.recovering });
    const price = await monthlyPrice(m, 2000);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    // The first invoice's charge fails at once: past_due, retry scheduled 3 days later.
    await advanceClock(m, clock.id, '2025-03-01T00:00:01.000Z');
    let now = await sub(s.id);
    assert.equal(now.status, 'past_due');
    const [first] = await invoices(s.id);
    assert.deepEqual([first.status, first.amount_due, first.amount_paid], ['open', 2000, 0]);
    let row = await env.db.invoice.findUniqueOrThrow({ where: { id: first.id } });
    assert.deepEqual([row.attemptCount, row.nextPaymentAttemptAt?.toISOString()], [1, '2025-03-04T00:00:00.000Z']);

    await advanceClock(m, clock.id, '2025-03-05T00:00:00.000Z');
    row = await env.db.invoice.findUniqueOrThrow({ where: { id: first.id } });
    assert.deepEqual([row.status, row.attemptCount, row.nextPaymentAttemptAt?.toISOString()], ['open', 2, '2025-03-09T00:00:00.000Z']);

    await setCard(pm.id, 'succeed');
    await advanceClock(m, clock.id, '2025-03-10T00:00:00.000Z');
    now = await sub(s.id);
    assert.equal(now.status, 'active');
    row = await env.db.invoice.findUniqueOrThrow({ where: { id: first.id } });
    assert.deepEqual([row.status, row.attemptCount, Number(row.amountPaid), row.paidAt?.toISOString()], ['paid', 3, 2000, '2025-03-09T00:00:00.000Z']);
    const charges = await createGateways({ mode: 'test', db: env.db }).cardAcquirer.listCharges(m.id, { limit: 100 });
    const mine = charges.filter((c) => c.idempotencyKey.startsWith(`${first.id}:attempt:`));
    assert.deepEqual(mine.map((c) => [c.idempotencyKey, c.status]).sort(), [
      [`${first.id}:attempt:1`, 'declined'],
      [`${first.id}:attempt:2`, 'declined'],
      [`${first.id}:attempt:3`, 'succeeded'],
    ]);
    await maybeRecordHistory(env.client.workflow.getHandle(workflowIds.subscription(s.id)), 'subscription-dunning-recovered');
  });

  it('exhausted dunning: uncollectible and unpaid, no invoices while unpaid; pay by hand recovers; void is safe twice', async () => {
    const { clock, customer, pm } = await clockCustomer(m, '2025-05-10T00:00:00.000Z', { card: TEST_CARDS.recovering });
    const price = await monthlyPrice(m, 1000);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    await advanceClock(m, clock.id, '2025-05-26T00:00:00.000Z');
    let now = await sub(s.id);
    assert.equal(now.status, 'unpaid');
    const [first] = await invoices(s.id);
    assert.equal(first.status, 'uncollectible');
    const row = await env.db.invoice.findUniqueOrThrow({ where: { id: first.id } });
    assert.deepEqual([row.attemptCount, row.uncollectibleAt?.toISOString()], [4, '2025-05-25T00:00:00.000Z']);
    // The period rolls without an invoice while unpaid.
    await advanceClock(m, clock.id, '2025-06-11T00:00:00.000Z');
    now = await sub(s.id);
    assert.deepEqual([now.status, now.current_period_start], ['unpaid', '2025-06-10T00:00:00.000Z']);
    assert.equal((await invoices(s.id)).length, 1);

    // Finance retries by hand after the customer fixed the card: paid, subscription active.
    await setCard(pm.id, 'succeed');
    const paid = await ok(m.call('POST', `/v1/invoices/${first.id}/pay`));
    assert.deepEqual([paid.status, paid.amount_paid], ['paid', 1000]);
    assert.deepEqual(await ok(m.call('POST', `/v1/invoices/${first.id}/pay`)), paid);
    assert.equal((await sub(s.id)).status, 'active');
    expectError(await m.call('POST', `/v1/invoices/${first.id}/void`), 409, 'invalid_state', 'id');

    // Next renewal bills again; a declined one can be voided (twice), which ends dunning.
    await setCard(pm.id, 'default');
    await advanceClock(m, clock.id, '2025-07-10T00:00:00.000Z');
    const second = (await invoices(s.id))[1];
    assert.deepEqual([second.status, second.period_start], ['open', '2025-07-10T00:00:00.000Z']);
    assert.equal((await sub(s.id)).status, 'past_due');
    const voided = await ok(m.call('POST', `/v1/invoices/${second.id}/void`));
    assert.equal(voided.status, 'void');
    assert.deepEqual(await ok(m.call('POST', `/v1/invoices/${second.id}/void`)), voided);
    expectError(await m.call('POST', `/v1/invoices/${second.id}/pay`), 409, 'invalid_state', 'id');
    assert.equal((await sub(s.id)).status, 'active');
    const r2 = await env.db.invoice.findUniqueOrThrow({ where: { id: second.id } });
    assert.equal(r2.nextPaymentAttemptAt, null);
    expectError(await m.call('POST', '/v1/invoices/inv_nope/pay'), 404, 'resource_missing', 'id');
  });

  it('send_invoice: a bank claim due after days_until_due; overdue is past_due; paid late returns it to active', async () => {
    const { clock, customer } = await clockCustomer(m, '2025-09-01T12:00:00.000Z', { card: null, customer: { kennitala: '1201743399' } });
    const price = await monthlyPrice(m, 4990);
    const s = await ok(
      m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }], collection_method: 'send_invoice', days_until_due: 10 } }),
      201,
    );
    assert.deepEqual([s.collection_method, s.days_until_due], ['send_invoice', 10]);
    await advanceClock(m, clock.id, '2025-09-02T00:00:00.000Z');
    const [first] = await invoices(s.id);
    assert.deepEqual([first.status, first.amount_due, first.due_date], ['open', 4990, '2025-09-11T12:00:00.000Z']);
    const claim = await env.db.invoiceBankClaim.findFirstOrThrow({ where: { invoiceId: first.id } });
    assert.equal(claim.expiresAt.toISOString(), '2025-10-11T12:00:00.000Z');
    assert.equal((await sub(s.id)).status, 'active');

    await advanceClock(m, clock.id, '2025-09-15T00:00:00.000Z');
    assert.equal((await sub(s.id)).status, 'past_due');
    const paid = await ok(m.call('POST', `/v1/test_helpers/invoices/${first.id}/pay_bank_claim`, { body: {} }));
    assert.deepEqual([paid.status, paid.amount_paid, paid.paid_at], ['paid', 4990, '2025-09-15T00:00:00.000Z']);
    assert.equal((await sub(s.id)).status, 'active');
    expectError(await m.live('POST', `/v1/test_helpers/invoices/${first.id}/pay_bank_claim`, { body: {} }), 403, 'test_mode_only');
    expectError(await m.call('POST', `/v1/test_helpers/invoices/${first.id}/pay_bank_claim`, { body: { amount: 'all' } }), 400, 'validation_failed', 'amount');

    // The next period's claim expires unpaid: uncollectible, unpaid.
    await advanceClock(m, clock.id, '2025-11-12T00:00:00.000Z');
    const second = (await invoices(s.id))[1];
    assert.deepEqual([second.status, second.period_start, second.due_date], ['uncollectible', '2025-10-01T12:00:00.000Z', '2025-10-11T12:00:00.000Z']);
    assert.equal((await sub(s.id)).status, 'unpaid');
  });

  it('subscription.trial_will_end: three days before trial end, once; at once for a short trial; none after a cancel', async () => {
    const notices = async (subId: string) =>
      ((await ok(m.call('GET', '/v1/webhook_events?type=subscription.trial_will_end&limit=100'))).data as any[]).filter((e) => e.data.id === subId);
    const { clock, customer } = await clockCustomer(m, '2025-06-01T12:00:00.000Z', { card: TEST_CARDS.visa });
    const price = await monthlyPrice(m, 990);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }], trial_period_days: 14 } }), 201);
    assert.equal(s.trial_end, '2025-06-15T12:00:00.000Z');
    const firstRun = (await env.client.workflow.getHandle(workflowIds.subscription(s.id)).describe()).runId;

    await advanceClock(m, clock.id, '2025-06-12T11:59:59.000Z');
    assert.deepEqual(await notices(s.id), []);
    const state: any = await env.client.workflow.getHandle(workflowIds.subscription(s.id)).query('state');
    assert.deepEqual([state.next.kind, state.next.at], ['trial_notice', '2025-06-12T12:00:00.000Z']);

    await advanceClock(m, clock.id, '2025-06-12T12:00:00.000Z');
    let sent = await notices(s.id);
    assert.equal(sent.length, 1);
    assert.deepEqual([sent[0].data.status, sent[0].data.trial_end], ['trialing', '2025-06-15T12:00:00.000Z']);

    // The trial ends: no second notice, and the first paid period is billed.
    await advanceClock(m, clock.id, '2025-06-15T12:00:00.000Z');
    assert.equal((await sub(s.id)).status, 'active');
    sent = await notices(s.id);
    assert.equal(sent.length, 1);
    assert.deepEqual(
      (await invoices(s.id)).map((i) => [i.status, i.amount_paid]),
      [['paid', 990]],
    );
    // The first run (trial notice, trial end, then continue-as-new) is the history to replay.
    await maybeRecordHistory(env.client.workflow.getHandle(workflowIds.subscription(s.id), firstRun), 'subscription-trial-notice');

    // A repeated step (a retried activity) sends nothing more.
    const { sendTrialWillEnd } = await import('../../src/domain/subscriptions/steps/trial-notice');
    const again = await sendTrialWillEnd(env.db, { subscriptionId: s.id, merchantId: m.id, mode: 'test', trialEnd: '2025-06-15T12:00:00.000Z' });
    assert.equal(again.sent, false);

    // Shorter than three days: at once, when the subscription starts.
    const short = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }], trial_period_days: 2 } }), 201);
    await advanceClock(m, clock.id, '2025-06-15T12:00:01.000Z');
    assert.equal((await notices(short.id)).length, 1);

    // Canceled during the trial, before the notice was due: none.
    const canceled = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }], trial_period_days: 30 } }), 201);
    await ok(m.call('POST', `/v1/subscriptions/${canceled.id}/cancel`, { body: {} }));
    await advanceClock(m, clock.id, '2025-07-14T12:00:01.000Z');
    assert.deepEqual(await notices(canceled.id), []);
  });
});
