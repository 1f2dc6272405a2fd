// The payment-session workflow on the real Temporal dev server: expiry after the configured
// lifetime (made tiny through the app's config, its dependency), completion ending the workflow,
// and the idempotent expiry activity (repeats, races with completion, clock skew, other open
// sessions of the same payment).
import assert from 'node:assert/strict';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { testEnv, type TestEnv } from '../support/env';
import { call, expectError, newMerchant } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { expirePaymentSessionWithEvents } from '../../src/domain/payment-sessions/expire-payment-session';

/** The expiry's outcome alone (its events are dispatched by the activity; see the workflow tests). */
const expirePaymentSession = async (...args: Parameters<typeof expirePaymentSessionWithEvents>) => (await expirePaymentSessionWithEvents(...args)).result;
import { paymentSessionWorkflowClient } from '../../src/temporal/payment-session-workflow';
import type { PaymentSessionWorkflowResult } from '../../src/contracts/payment-sessions';
import { created, hostedSession, payHosted, type Merchant } from '../api/payment-sessions/fixtures';

describe('payment session workflow (real Temporal)', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let m: Merchant;
  /** An API instance whose sessions live one second (config.paymentSessionLifetimeSeconds). */
  let shortLived: string;
  /** Sessions that live five seconds: long enough for a test to act before the timer, on a loaded machine. */
  let fewSeconds: string;
  before(async () => {
    env = await testEnv();
    m = await newMerchant(env);
    shortLived = await env.startApp({ paymentSessionLifetimeSeconds: 1 });
    fewSeconds = await env.startApp({ paymentSessionLifetimeSeconds: 5 });
  });

  const handleOf = (sessionId: string) => env.client.workflow.getHandle(workflowIds.paymentSession(sessionId));

  it('expires the session after its lifetime: session expired, payment canceled, invoice void', async () => {
    const s = await created(await hostedSession(m, { amount: 800 }, { baseUrl: shortLived }));
    assert.equal(Date.parse(s.expires_at) - Date.parse(s.created_at), 1000);
    const handle = handleOf(s.id);
    const desc = await handle.describe();
    assert.equal(desc.type, 'paymentSessionWorkflow');
    assert.deepEqual(desc.searchAttributes.BillingMerchantId, [m.id]);
    const result = (await handle.result()) as PaymentSessionWorkflowResult;
    assert.deepEqual(result, { sessionId: s.id, outcome: 'expired' });
    await maybeRecordHistory(handle, 'payment-session-expired');

    const row = await env.db.paymentSession.findUnique({ where: { id: s.id } });
    assert.equal(row!.status, 'expired');
    assert.ok(row!.expiredAt);
    assert.equal((await m.call('GET', `/v1/payment_sessions/${s.id}`)).body.status, 'expired');
    const p = (await m.call('GET', `/v1/payments/${s.payment}`)).body;
    assert.equal(p.status, 'canceled');
    assert.equal((await env.db.invoice.findFirst({ where: { paymentId: s.payment } }))!.status, 'void');
    // Its events are dispatched by the expiry itself (not left for the reconciler a minute later).
    const events = await env.db.event.findMany({ where: { merchantId: m.id, type: { in: ['payment.canceled', 'invoice.voided'] } } });
    const mine = events.filter((e) => JSON.stringify(e.data).includes(s.payment));
    assert.deepEqual(mine.map((e) => e.type).sort(), ['invoice.voided', 'payment.canceled']);
    for (const e of mine) assert.ok(e.dispatchedAt, `${e.type} dispatched`);
    // It can no longer complete.
    expectError(await payHosted(env, s.id), 409, 'invalid_state', 'session');
  });

  it('completing the session signals the workflow, which ends without expiring anything', async () => {
    const s = await created(await hostedSession(m, { amount: 900 }));
    const handle = handleOf(s.id);
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    const paid = await payHosted(env, s.id);
    assert.equal(paid.body.outcome, 'succeeded', paid.text);
    const result = (await handle.result()) as PaymentSessionWorkflowResult;
    assert.deepEqual(result, { sessionId: s.id, outcome: 'complete' });
    await maybeRecordHistory(handle, 'payment-session-completed');
    assert.equal((await env.db.paymentSession.findUnique({ where: { id: s.id } }))!.status, 'complete');
    assert.equal((await env.db.payment.findUnique({ where: { id: s.payment } }))!.status, 'succeeded');
  });

  it('a completion that beat the timer wins: the workflow finds the session complete', async () => {
    const s = await created(await hostedSession(m, { amount: 950 }, { baseUrl: fewSeconds }));
    // Complete the row directly, without the signal (as if the signal were lost).
    await env.db.paymentSession.update({ where: { id: s.id }, data: { status: 'complete', completedAt: new Date() } });
    const result = (await handleOf(s.id).result()) as PaymentSessionWorkflowResult;
    assert.deepEqual(result, { sessionId: s.id, outcome: 'complete' });
    assert.equal((await env.db.payment.findUnique({ where: { id: s.payment } }))!.status, 'requires_payment_method');
  });

  it('the workflow id is deterministic and a repeated start never makes a second run', async () => {
    const s = await created(await hostedSession(m));
    const row = (await env.db.paymentSession.findUnique({ where: { id: s.id } }))!;
    const started = await paymentSessionWorkflowClient({ client: async () => env.client, taskQueue: env.config.taskQueue }).start(row);
    assert.equal(started, false);
    await assert.rejects(
      env.client.workflow.start('paymentSessionWorkflow', {
        taskQueue: env.config.taskQueue,
        workflowId: workflowIds.paymentSession(s.id),
        args: [{}],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
      (e: unknown) => e instanceof WorkflowExecutionAlreadyStartedError,
    );
  });

  describe('expiry activity (idempotent)', () => {
    const ref = (s: { id: string }, mm: Merchant = m) => ({ sessionId: s.id, merchantId: mm.id, mode: 'test' as const });

    it('is not due before expires_at and says how long to wait', async () => {
      const s = await created(await hostedSession(m));
      const r = await expirePaymentSession(env.db, ref(s));
      assert.equal(r.outcome, 'not_due');
      assert.ok(r.outcome === 'not_due' && r.waitMs > 23 * 3600 * 1000);
      assert.equal((await env.db.paymentSession.findUnique({ where: { id: s.id } }))!.status, 'open');
    });

    it('repeats change nothing; completed and missing sessions are left alone; the tenant must match', async () => {
      const s = await created(await hostedSession(m));
      const later = new Date(Date.now() + 25 * 3600 * 1000);
      const other = await newMerchant(env);
      assert.deepEqual(await expirePaymentSession(env.db, ref(s, other), later), { outcome: 'missing' });
      assert.deepEqual(await expirePaymentSession(env.db, { ...ref(s), mode: 'live' }, later), { outcome: 'missing' });
      assert.deepEqual(await expirePaymentSession(env.db, ref(s), later), { outcome: 'expired', paymentCanceled: true });
      const first = await env.db.paymentSession.findUnique({ where: { id: s.id } });
      assert.deepEqual(await expirePaymentSession(env.db, ref(s), later), { outcome: 'expired', paymentCanceled: false });
      assert.deepEqual(await env.db.paymentSession.findUnique({ where: { id: s.id } }), first);

      const done = await created(await hostedSession(m));
      assert.equal((await payHosted(env, done.id)).body.outcome, 'succeeded');
      assert.deepEqual(await expirePaymentSession(env.db, ref(done), later), { outcome: 'complete' });
      assert.deepEqual(await expirePaymentSession(env.db, { ...ref(done), sessionId: 'ps_missing' }, later), { outcome: 'missing' });
    });

    it('leaves the payment alone while another session of it is still open, and when it was paid', async () => {
      const p = (await m.call('POST', '/v1/payments', { body: { amount: 4100, currency: 'ISK' } })).body;
      const a = await created(await hostedSession(m, { amount: undefined, payment: p.id }));
      const b = await created(await hostedSession(m, { amount: undefined, payment: p.id }));
      await env.db.paymentSession.update({ where: { id: a.id }, data: { expiresAt: new Date(Date.now() - 1) } });
      assert.deepEqual(await expirePaymentSession(env.db, ref(a)), { outcome: 'expired', paymentCanceled: false });
      assert.equal((await env.db.payment.findUnique({ where: { id: p.id } }))!.status, 'requires_payment_method');
      // The customer pays in the other session; its later expiry attempt changes nothing.
      assert.equal((await payHosted(env, b.id)).body.outcome, 'succeeded');
      assert.deepEqual(await expirePaymentSession(env.db, ref(b), new Date(Date.now() + 25 * 3600 * 1000)), { outcome: 'complete' });
      assert.equal((await env.db.payment.findUnique({ where: { id: p.id } }))!.status, 'succeeded');
    });

    it('works in live mode too', async () => {
      const lm = await newMerchant(env, { live: true });
      const s = await created(
        await call(env, 'POST', '/v1/payment_sessions', { key: lm.liveSecretKey, merchant: lm.id, body: { amount: 10, return_url: 'https://shop.example.is/x' } }),
      );
      const r = await expirePaymentSession(env.db, { sessionId: s.id, merchantId: lm.id, mode: 'live' }, new Date(Date.now() + 25 * 3600 * 1000));
      assert.deepEqual(r, { outcome: 'expired', paymentCanceled: true });
    });
  });
});
