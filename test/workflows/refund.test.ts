// The refund workflow on the real Temporal dev server: acquirer call with the refund id as
// idempotency key, outcome recorded once, non-retryable acquirer errors recorded as failed.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { newMerchant, type TestMerchant } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import { CARDS, paidPayment, simulator } from '../api/payments/fixtures';
import { NON_RETRYABLE_ACQUIRER_ERROR_TYPES, REFUND_WORKFLOW, type RefundWorkflowInput, type RefundWorkflowResult } from '../../src/contracts/payments';
import { NON_RETRYABLE_GATEWAY_ERROR_TYPES } from '../../src/gateways';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { newId } from '../../src/ids';
import { recordRefundOutcome, refundAtAcquirer } from '../../src/domain/refunds/process-refund';
import { refundWorkflowClient } from '../../src/temporal/refund-workflow';
import { ensureRefundSchedules } from '../../src/temporal/schedules';
import { REFUND_RECONCILER_WORKFLOW, type RefundReconcileResult } from '../../src/contracts/payments';
import { scheduleIds } from '../../src/temporal/workflow-ids';

describe('refund workflow (real Temporal)', function () {
  this.timeout(60_000);
  let env: TestEnv, m: TestMerchant;
  before(async () => ([env, m] = await envAndMerchants(newMerchant)));

  const handle = (refundId: string) => env.client.workflow.getHandle(workflowIds.refund(refundId));

  it('declares the same non-retryable error types as the gateways', () => {
    assert.deepEqual([...NON_RETRYABLE_ACQUIRER_ERROR_TYPES].sort(), [...NON_RETRYABLE_GATEWAY_ERROR_TYPES].sort());
  });

  it('succeeded: refund/<id> runs once; a repeated start is rejected', async () => {
    const { payment } = await paidPayment(m, 5000);
    const r = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 1000 } })).body;
    const h = handle(r.id);
    const result = (await h.result()) as RefundWorkflowResult;
    assert.deepEqual(result, { refundId: r.id, status: 'succeeded' });
    await maybeRecordHistory(h, 'refund-succeeded');
    const started = await refundWorkflowClient({ client: async () => env.client, taskQueue: env.config.taskQueue }).start({ refundId: r.id, merchantId: m.id, mode: 'test' });
    assert.equal(started, false);
    const desc = await h.describe();
    assert.equal(desc.typedSearchAttributes.get({ name: 'BillingMerchantId', type: 'KEYWORD' } as never), m.id);
  });

  it('failed: the acquirer refuses (card 7726)', async () => {
    const { payment } = await paidPayment(m, 5000, CARDS.refundsFail);
    const r = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id } })).body;
    const h = handle(r.id);
    assert.deepEqual(await h.result(), { refundId: r.id, status: 'failed' });
    await maybeRecordHistory(h, 'refund-failed');
  });

  it('a non-retryable acquirer error (unknown charge) records the refund as failed with acquirer_error', async () => {
    const { payment } = await paidPayment(m, 700);
    // Simulate a payment whose charge the acquirer does not know (a caller bug).
    await env.db.payment.update({ where: { id: payment.id }, data: { acquirerChargeId: 'ch_sim_unknown' } });
    const refundId = newId('refund');
    await env.db.refund.create({ data: { id: refundId, merchantId: m.id, mode: 'test', paymentId: payment.id, amount: 100n, currency: 'ISK' } });
    const input: RefundWorkflowInput = { refundId, merchantId: m.id, mode: 'test' };
    const h = await env.client.workflow.start(REFUND_WORKFLOW, { taskQueue: env.config.taskQueue, workflowId: workflowIds.refund(refundId), args: [input] });
    assert.deepEqual(await h.result(), { refundId, status: 'failed' });
    await maybeRecordHistory(h, 'refund-acquirer-error');
    const row = await env.db.refund.findUnique({ where: { id: refundId } });
    assert.deepEqual([row!.status, row!.failureCode], ['failed', 'acquirer_error']);
    assert.match(row!.failureMessage!, /No such charge/);
  });

  it('the activities are idempotent: repeated calls refund once and record once', async () => {
    const { payment } = await paidPayment(m, 900);
    const refundId = newId('refund');
    await env.db.refund.create({ data: { id: refundId, merchantId: m.id, mode: 'test', paymentId: payment.id, amount: 400n, currency: 'ISK' } });
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const deps = { db: env.db, acquirer: env.gateways.cardAcquirer('test') };
    const first = await refundAtAcquirer(deps, tenant, refundId);
    const second = await refundAtAcquirer(deps, tenant, refundId);
    assert.equal(first.status, 'succeeded');
    assert.deepEqual(second, first);
    if (first.status !== 'succeeded') throw new Error('unreachable');
    const a = await recordRefundOutcome({ db: env.db }, tenant, { refundId, merchantId: m.id, mode: 'test', answer: first });
    const b = await recordRefundOutcome({ db: env.db }, tenant, { refundId, merchantId: m.id, mode: 'test', answer: first });
    assert.deepEqual([a.status, a.events.map((e) => e.type)], ['succeeded', ['refund.succeeded', 'credit_note.created']]);
    assert.deepEqual([b.status, b.events], ['succeeded', []]);
    assert.deepEqual(await refundAtAcquirer(deps, tenant, refundId), { status: 'not_pending', current: 'succeeded' });
    assert.equal((await simulator(env).listRefunds(m.id)).filter((x) => x.idempotencyKey === refundId).length, 1);
    assert.equal(await env.db.creditNote.count({ where: { refundId } }), 1);
    const p = await env.db.payment.findUnique({ where: { id: payment.id } });
    assert.deepEqual([p!.status, p!.amountRefunded], ['partially_refunded', 400n]);
  });

  it('the reconciler starts the workflow of a refund left pending without one (Temporal down at commit)', async () => {
    const { payment } = await paidPayment(m, 800);
    // A refund that committed two minutes ago whose workflow was never started.
    const refundId = newId('refund');
    await env.db.refund.create({
      data: { id: refundId, merchantId: m.id, mode: 'test', paymentId: payment.id, amount: 300n, currency: 'ISK', createdAt: new Date(Date.now() - 120_000) },
    });
    const h = await env.client.workflow.start(REFUND_RECONCILER_WORKFLOW, {
      taskQueue: env.config.taskQueue,
      workflowId: `test-refund-reconciler-${refundId}`,
      args: [{ minAgeSeconds: 60, batchSize: 200 }],
    });
    const result = (await h.result()) as RefundReconcileResult;
    assert.ok(result.started >= 1, JSON.stringify(result));
    await maybeRecordHistory(h, 'refund-reconciler');
    assert.deepEqual(await handle(refundId).result(), { refundId, status: 'succeeded' });
    assert.equal((await env.db.refund.findUnique({ where: { id: refundId } }))!.status, 'succeeded');
    // Nothing is pending any more, so a second run starts nothing for it (a completed workflow is left alone).
    const again = await env.client.workflow.execute(REFUND_RECONCILER_WORKFLOW, {
      taskQueue: env.config.taskQueue,
      workflowId: `test-refund-reconciler-${refundId}-again`,
      args: [{ minAgeSeconds: 60, batchSize: 200 }],
    });
    assert.equal((again as RefundReconcileResult).started, 0);
  });

  it('ensureRefundSchedules creates the every-minute schedule and is repeatable', async () => {
    await ensureRefundSchedules(env.client, { taskQueue: env.config.taskQueue });
    await ensureRefundSchedules(env.client, { taskQueue: env.config.taskQueue });
    const sched = env.client.schedule.getHandle(scheduleIds.refundReconciler);
    const desc = await sched.describe();
    assert.equal(desc.action.type, 'startWorkflow');
    assert.equal((desc.action as { workflowType: string }).workflowType, REFUND_RECONCILER_WORKFLOW);
    await sched.delete();
  });
});
