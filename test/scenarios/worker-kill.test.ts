// Exactly once under crashes (docs/subscriptions.md "Exactly once"): a worker process is SIGKILLed while a charge is in
// flight (the acquirer has taken the money, the worker never heard back) — at the first invoice
// and again at a renewal — and a new worker process takes over. Each period still has exactly
// one invoice and exactly one successful charge: the retried step asks the acquirer the same
// question under the same idempotency key and gets the original answer.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { appOnOwnQueue, callerAt, killableWorkers } from './support/killable-workers';
import { clockCustomer, eventually, monthlyPrice, subMerchant } from '../api/subscriptions/fixtures';

const SLOW_CARD = '4000000000003220';

describe('scenario: worker killed in the middle of a billing cycle', function () {
  this.timeout(600_000);
  let env: TestEnv;
  const workers = killableWorkers();
  before(async () => {
    env = await testEnv();
  });
  after(() => {
    workers.killAll();
  });

  const startWorker = (taskQueue: string) =>
    workers.start(env, taskQueue, {
      // The slow card's answer never comes before the kill (the charge itself is made at once).
      CARD_SIMULATOR_SLOW_DELAY_MS: '600000',
    });

  it('leaves exactly one invoice and one successful charge per period', async () => {
    const { taskQueue, baseUrl } = await appOnOwnQueue(env, 'kill-test');
    const m = await subMerchant(env);
    const api = callerAt(env, baseUrl, m);
    const { clock, customer } = await clockCustomer(m, '2025-01-15T00:00:00.000Z', { card: SLOW_CARD });
    const price = await monthlyPrice(m, 7700);

    const chargesFor = (invoiceId: string) => env.db.simCharge.findMany({ where: { merchantId: m.id, idempotencyKey: { startsWith: `${invoiceId}:` } } });
    const invoicesOf = (subId: string) => env.db.invoice.findMany({ where: { subscriptionId: subId }, orderBy: { createdAt: 'asc' } });

    // 1. The first invoice: worker A dies while the charge is in flight.
    let worker = await startWorker(taskQueue);
    const created = await api('POST', '/v1/subscriptions', { customer: customer.id, items: [{ price: price.id }] });
    assert.equal(created.status, 201, created.text);
    const subId = created.body.id;
    const first = await eventually(async () => (await invoicesOf(subId))[0], 'first invoice');
    await eventually(async () => ((await chargesFor(first.id)).length > 0 ? true : undefined), 'charge made at the acquirer', 1200);
    await workers.kill(worker);
    assert.equal((await env.db.invoice.findUniqueOrThrow({ where: { id: first.id } })).status, 'open', 'the worker died before recording the charge');

    worker = await startWorker(taskQueue);
    const paid = await eventually(
      async () => {
        const inv = await env.db.invoice.findUniqueOrThrow({ where: { id: first.id } });
        return inv.status === 'paid' ? inv : undefined;
      },
      'first invoice paid by the new worker',
      1200,
    );
    assert.equal(Number(paid.amountPaid), 7700);

    // 2. The renewal: worker B dies mid-charge as well.
    const adv = await api('POST', `/v1/test_helpers/test_clocks/${clock.id}/advance`, { frozen_time: '2025-02-15T00:00:00.000Z' });
    assert.equal(adv.status, 200, adv.text);
    const second = await eventually(async () => (await invoicesOf(subId))[1], 'renewal invoice', 1200);
    await eventually(async () => ((await chargesFor(second.id)).length > 0 ? true : undefined), 'renewal charge made', 1200);
    await workers.kill(worker);
    worker = await startWorker(taskQueue);
    await eventually(
      async () => {
        const c = await env.db.testClock.findUniqueOrThrow({ where: { id: clock.id } });
        return c.status === 'ready' ? c : undefined;
      },
      'clock ready again',
      1200,
    );

    const all = await invoicesOf(subId);
    assert.deepEqual(
      all.map((i) => [i.periodStart.toISOString(), i.status, Number(i.amountPaid)]),
      [
        ['2025-01-15T00:00:00.000Z', 'paid', 7700],
        ['2025-02-15T00:00:00.000Z', 'paid', 7700],
      ],
    );
    for (const inv of all) {
      const charges = await chargesFor(inv.id);
      assert.deepEqual(
        charges.map((c) => [c.idempotencyKey, c.status]),
        [[`${inv.id}:attempt:1`, 'succeeded']],
      );
    }
    const payments = await env.db.payment.findMany({ where: { merchantId: m.id } });
    assert.deepEqual(payments.map((p) => p.status).sort(), ['succeeded', 'succeeded']);
    await workers.kill(worker);
  });
});
