// Fault injection across the billing cycle (docs/subscriptions.md "Refusals"): every outside call
// of every billing step — charge, create claim, check claim, refund, webhook send — fails in
// every way the adapters know (declined, invalid request, timeout, transient then recovering,
// duplicate), and for every cell:
//   - no workflow failed (the subscription's is running; the others completed);
//   - no duplicate invoice, charge, claim or refund;
//   - the invoice's and the subscription's status tell the truth;
//   - the next period still bills.
// Each cell has a merchant, clock and customer of its own; the five kinds of one call run side by
// side. Faults come from the simulators' planned faults (src/gateways/simulator-faults.ts) and, for
// webhooks, from a real HTTPS receiver that misbehaves.
//
// Hook for later outside calls: CALLS below is typed by FAULT_OPERATIONS, so an operation added
// there (e.g. the accounting post, once accounting exists) does not compile until it has a
// scenario here.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import type { ApiResponse, CallOptions } from '../support/api';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { FAULT_KINDS, FAULT_OPERATIONS, createGateways, planSimulatorFault, type FaultKind, type FaultOperation } from '../../src/gateways';
import { advanceClock, clockCustomer, eventually, monthlyPrice, ok, subMerchant, type SubMerchant } from '../api/subscriptions/fixtures';
import { createEndpoint, startHarness, startReceiver, type Behaviour, type Harness, type Receiver } from '../api/webhooks/harness';

type Caller = { id: string; call<T = any>(method: string, path: string, o?: CallOptions): Promise<ApiResponse<T>> };
type CallName = FaultOperation | 'webhook.send';

const T0 = '2029-01-01T00:00:00.000Z';
const T0_STEP = '2029-01-01T00:00:01.000Z';

describe('fault-injection matrix: every outside call of every billing step, every way it can fail', function () {
  this.timeout(600_000);
  let env: TestEnv;
  let h: Harness;
  const receivers: Receiver[] = [];
  before(async () => {
    env = await testEnv();
    // Webhook cells: a worker and API of their own that may deliver to loopback receivers,
    // with short retries (three attempts) and a short attempt timeout.
    h = await startHarness(env, { retryDelaysMs: [500, 500], attemptTimeoutMs: 1500 });
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await h?.close();
  });

  const gateways = () => createGateways({ mode: 'test', db: env.db });

  const invoicesOf = async (m: Caller, subId: string) => (await ok(m.call('GET', `/v1/invoices?subscription=${subId}&limit=100`))).data.reverse() as any[];
  const subOf = (m: Caller, id: string) => ok(m.call('GET', `/v1/subscriptions/${id}`));
  const eventsOf = async (m: Caller, type: string) => (await ok(m.call('GET', `/v1/webhook_events?type=${type}&limit=100`))).data as any[];
  const workflowStatus = async (subId: string) => (await env.client.workflow.getHandle(workflowIds.subscription(subId)).describe()).status.name;
  const succeededCharges = async (merchantId: string, invoiceId: string) =>
    (await gateways().cardAcquirer.listCharges(merchantId, { limit: 100 })).filter((c) => c.idempotencyKey.startsWith(`${invoiceId}:`) && c.status === 'succeeded');
  const claimsOf = async (merchantId: string, invoiceId: string) => env.db.simBankClaim.findMany({ where: { merchantId, idempotencyKey: { startsWith: `${invoiceId}:claim` } } });

  /** The common end of every cell: the subscription runs, is active, and its next period billed and paid. */
  async function assertBillingGoesOn(m: Caller, subId: string, periods: number) {
    assert.equal(await workflowStatus(subId), 'RUNNING');
    const inv = await invoicesOf(m, subId);
    assert.equal(inv.length, periods, `exactly ${periods} invoices (no duplicate)`);
    for (const i of inv) assert.deepEqual([i.status, i.amount_paid], ['paid', i.amount_due], `invoice ${i.id} paid`);
    assert.equal((await subOf(m, subId)).status, 'active');
    return inv;
  }

  async function cardCustomer(m: Caller & SubMerchant) {
    const { clock, customer } = await clockCustomer(m, T0);
    return { clock, customer };
  }
  async function bankCustomer(m: Caller & SubMerchant) {
    const { clock, customer } = await clockCustomer(m, T0, { card: null, customer: { kennitala: '1201743399' } });
    return { clock, customer };
  }
  const sendInvoice = (m: Caller, customerId: string, priceId: string) =>
    ok(m.call('POST', '/v1/subscriptions', { body: { customer: customerId, items: [{ price: priceId }], collection_method: 'send_invoice', days_until_due: 10 } }), 201);
  const payClaim = (m: Caller, invoiceId: string) => ok(m.call('POST', `/v1/test_helpers/invoices/${invoiceId}/pay_bank_claim`, { body: {} }));
  const plan = (merchantId: string, operation: FaultOperation, kind: FaultKind) => planSimulatorFault({ merchantId, operation, kind, times: kind === 'transient' ? 2 : 1 });

  /** A refused claim (no claim stands): the invoice waits for the merchant; paying by hand issues a new claim. */
  async function assertClaimRefusedThenRecover(m: Caller, subId: string, inv: any, code: string) {
    assert.deepEqual([inv.status, inv.next_payment_attempt, inv.last_payment_error?.code], ['open', null, code]);
    assert.equal((await subOf(m, subId)).status, 'past_due');
    assert.ok((await eventsOf(m, 'invoice.payment_failed')).some((e) => e.data.id === inv.id && e.data.last_payment_error?.code === code));
    const retried = await ok(m.call('POST', `/v1/invoices/${inv.id}/pay`));
    assert.equal(retried.status, 'open');
    assert.ok(retried.next_payment_attempt);
  }

  const CALLS: Record<CallName, (kind: FaultKind) => Promise<void>> = {
    async charge(kind) {
      const m = await subMerchant(env, { currency: 'ISK' });
      const { clock, customer } = await cardCustomer(m);
      const price = await monthlyPrice(m, 2000);
      plan(m.id, 'charge', kind);
      const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
      await advanceClock(m, clock.id, T0_STEP);
      const [first] = await invoicesOf(m, s.id);
      const refused = kind === 'declined' || kind === 'invalid_request';
      if (refused) {
        // A failed attempt: open, retried by dunning in 3 days; past_due meanwhile.
        assert.deepEqual([first.status, first.next_payment_attempt], ['open', '2029-01-04T00:00:00.000Z']);
        assert.equal(first.last_payment_error.code, kind === 'declined' ? 'card_declined' : 'request_rejected');
        assert.equal((await subOf(m, s.id)).status, 'past_due');
        assert.ok((await eventsOf(m, 'invoice.payment_failed')).some((e) => e.data.id === first.id));
        assert.ok((await eventsOf(m, 'payment.failed')).some((e) => e.data.invoice === first.id));
      } else {
        assert.deepEqual([first.status, first.last_payment_error], ['paid', null]);
      }
      await advanceClock(m, clock.id, '2029-02-05T00:00:00.000Z');
      const inv = await assertBillingGoesOn(m, s.id, 2);
      for (const i of inv) assert.equal((await succeededCharges(m.id, i.id)).length, 1, `one charge for ${i.id}`);
      const firstRow = await env.db.invoice.findUniqueOrThrow({ where: { id: inv[0].id } });
      assert.equal(firstRow.attemptCount, refused ? 2 : 1);
      const payment = await ok(m.call('GET', `/v1/payments/${inv[0].payment}`));
      assert.deepEqual([payment.status, payment.amount, payment.invoice], ['succeeded', 2000, inv[0].id]);
    },

    async 'claim.create'(kind) {
      const m = await subMerchant(env, { currency: 'ISK' });
      const { clock, customer } = await bankCustomer(m);
      const price = await monthlyPrice(m, 4990);
      plan(m.id, 'claim.create', kind);
      const s = await sendInvoice(m, customer.id, price.id);
      await advanceClock(m, clock.id, T0_STEP);
      const [first] = await invoicesOf(m, s.id);
      if (kind === 'declined' || kind === 'invalid_request') {
        await assertClaimRefusedThenRecover(m, s.id, first, kind === 'declined' ? 'claim_refused' : 'request_rejected');
      } else {
        assert.deepEqual([first.status, first.next_payment_attempt, first.last_payment_error], ['open', '2029-01-11T00:00:00.000Z', null]);
        assert.equal((await subOf(m, s.id)).status, 'active');
      }
      assert.equal((await claimsOf(m.id, first.id)).length, 1, 'one claim at the bank');
      await payClaim(m, first.id);
      await advanceClock(m, clock.id, '2029-02-01T00:00:01.000Z');
      const second = (await invoicesOf(m, s.id))[1];
      await payClaim(m, second.id);
      const inv = await assertBillingGoesOn(m, s.id, 2);
      for (const i of inv)
        assert.deepEqual(
          (await claimsOf(m.id, i.id)).map((c) => c.status),
          ['paid'],
        );
    },

    async 'claim.get'(kind) {
      const m = await subMerchant(env, { currency: 'ISK' });
      const { clock, customer } = await bankCustomer(m);
      const price = await monthlyPrice(m, 4990);
      const s = await sendInvoice(m, customer.id, price.id);
      await advanceClock(m, clock.id, T0_STEP);
      const [first] = await invoicesOf(m, s.id);
      plan(m.id, 'claim.get', kind);
      // The first read of the claim is on its due date.
      await advanceClock(m, clock.id, '2029-01-11T00:00:01.000Z');
      const read = (await invoicesOf(m, s.id))[0];
      if (kind === 'declined' || kind === 'invalid_request') {
        await assertClaimRefusedThenRecover(m, s.id, read, kind === 'declined' ? 'claim_cancelled' : 'request_rejected');
        assert.deepEqual((await claimsOf(m.id, first.id)).map((c) => c.status).sort(), ['cancelled', 'open'], 'the old claim is cancelled at the bank, one stands');
      } else {
        // Read (after retries): still open, now overdue.
        assert.deepEqual([read.status, read.last_payment_error], ['open', null]);
        assert.ok(read.next_payment_attempt);
        assert.equal((await subOf(m, s.id)).status, 'past_due');
        assert.equal((await claimsOf(m.id, first.id)).length, 1);
      }
      await payClaim(m, first.id);
      await advanceClock(m, clock.id, '2029-02-01T00:00:01.000Z');
      const second = (await invoicesOf(m, s.id))[1];
      await payClaim(m, second.id);
      const inv = await assertBillingGoesOn(m, s.id, 2);
      for (const i of inv)
        assert.deepEqual(
          (await claimsOf(m.id, i.id)).filter((c) => c.status !== 'cancelled').map((c) => c.status),
          ['paid'],
        );
    },

    async refund(kind) {
      const m = await subMerchant(env, { currency: 'ISK' });
      const { clock, customer } = await cardCustomer(m);
      const price = await monthlyPrice(m, 3000);
      const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
      await advanceClock(m, clock.id, T0_STEP);
      const [first] = await invoicesOf(m, s.id);
      plan(m.id, 'refund', kind);
      const created = await ok(m.call('POST', '/v1/refunds', { body: { payment: first.payment, amount: 1000 } }), 201);
      const done = await eventually(async () => {
        const r = await ok(m.call('GET', `/v1/refunds/${created.id}`));
        return r.status === 'pending' ? undefined : r;
      }, `refund ${created.id} settled`);
      const refused = kind === 'declined' || kind === 'invalid_request';
      assert.equal(done.status, refused ? 'failed' : 'succeeded');
      if (refused) assert.equal(done.failure_code, kind === 'declined' ? 'expired_or_canceled_card' : 'acquirer_error');
      const [charge] = await succeededCharges(m.id, first.id);
      const atAcquirer = (await gateways().cardAcquirer.listRefunds(m.id, { chargeId: charge!.chargeId })).filter((r) => r.status === 'succeeded');
      assert.equal(atAcquirer.length, refused ? 0 : 1, 'at most one refund at the acquirer');
      const payment = await ok(m.call('GET', `/v1/payments/${first.payment}`));
      assert.deepEqual([payment.status, payment.amount_refunded], refused ? ['succeeded', 0] : ['partially_refunded', 1000]);
      // The refund row settles inside the workflow's activity; the workflow closes on its next
      // workflow task, a moment later under load: wait for its result (it throws if it failed).
      const refundWorkflow = env.client.workflow.getHandle(workflowIds.refund(created.id));
      await refundWorkflow.result();
      assert.equal((await refundWorkflow.describe()).status.name, 'COMPLETED');
      await advanceClock(m, clock.id, '2029-02-01T00:00:01.000Z');
      await assertBillingGoesOn(m, s.id, 2);
    },

    async 'webhook.send'(kind) {
      // The receiver misbehaves; billing must not notice. All calls go through the harness API,
      // so the harness worker runs the subscription and delivers its events.
      const base = await subMerchant(env, { currency: 'ISK' });
      const m: SubMerchant = Object.assign(Object.create(base), { call: (method: string, path: string, o?: CallOptions) => h.call(base, method, path, o) });
      const behaviours: Record<FaultKind, Behaviour> = {
        declined: () => 410,
        invalid_request: () => 400,
        timeout: () => 'hang',
        transient: (n) => (n <= 2 ? 503 : 200),
        duplicate: (n) => (n === 1 ? 'hang' : 200), // received, answer lost: sent again
      };
      const r = await startReceiver(behaviours[kind]);
      receivers.push(r);
      const ep = await createEndpoint(h, base, { url: r.url(), events: ['invoice.paid'] });
      const { clock, customer } = await cardCustomer(m);
      const price = await monthlyPrice(m, 1200);
      const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
      await advanceClock(m, clock.id, T0_STEP);
      await advanceClock(m, clock.id, '2029-02-01T00:00:01.000Z');
      assert.equal((await env.client.workflow.getHandle(workflowIds.subscription(s.id)).describe()).status.name, 'RUNNING');
      const inv = await invoicesOf(m, s.id);
      assert.equal(inv.length, 2);
      for (const i of inv) assert.equal(i.status, 'paid');
      assert.equal((await subOf(m, s.id)).status, 'active');
      // Every delivery of the endpoint ends (delivered or given up) as a COMPLETED workflow.
      const paidEvents = (await eventsOf(m, 'invoice.paid')).filter((e) => inv.some((i) => i.id === e.data.id));
      assert.equal(paidEvents.length, 2);
      for (const e of paidEvents) {
        const handle = h.deliveryHandle(e.id, ep.id);
        const result: any = await handle.result();
        assert.equal(result.outcome, kind === 'transient' || kind === 'duplicate' ? 'delivered' : 'failed');
        assert.equal((await handle.describe()).status.name, 'COMPLETED');
      }
      if (kind === 'duplicate') {
        const ids = r.requests.map((q) => q.json?.id);
        assert.ok(ids.length > paidEvents.length, 'some event arrived twice');
        assert.deepEqual([...new Set(ids)].sort(), paidEvents.map((e) => e.id).sort(), 'a repeat carries the same event id (receivers dedupe on it)');
      }
    },
  };

  it('covers every operation the simulators can fault, and webhook sends', () => {
    assert.deepEqual(Object.keys(CALLS).sort(), [...FAULT_OPERATIONS, 'webhook.send'].sort());
  });

  for (const name of Object.keys(CALLS) as CallName[]) {
    it(`${name}: ${FAULT_KINDS.join(', ')}`, async () => {
      const results = await Promise.allSettled(FAULT_KINDS.map((kind) => CALLS[name](kind)));
      const failures = results.flatMap((r, i) => (r.status === 'rejected' ? [`${name} × ${FAULT_KINDS[i]}: ${(r.reason as Error)?.stack ?? r.reason}`] : []));
      assert.deepEqual(failures, []);
    });
  }

  it('no workflow of any kind failed in the matrix (its own and the webhook harness task queues)', async () => {
    for (const taskQueue of [env.config.taskQueue, h.taskQueue]) {
      const failed: string[] = [];
      for await (const wf of env.client.workflow.list({ query: `ExecutionStatus = 'Failed' AND TaskQueue = '${taskQueue}'` })) failed.push(`${wf.type} ${wf.workflowId}`);
      assert.deepEqual(failed, [], `failed workflows on ${taskQueue}`);
    }
  });
});
