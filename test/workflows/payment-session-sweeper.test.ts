// Sessions whose expiry workflow never started (Temporal unreachable right after the commit)
// are expired by the sweeper: session expired, payment canceled, invoice void.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { envAndMerchants, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import { createTemporalProvider } from '../../src/temporal/client';
import { freePort } from '../../src/temporal/dev-server';
import { PAYMENT_SESSION_SWEEPER_WORKFLOW, type SweepPaymentSessionsResult } from '../../src/contracts/payment-sessions';
import { created, hostedSession, type Merchant } from '../api/payment-sessions/fixtures';

describe('payment session sweeper (real Temporal)', function () {
  this.timeout(60_000);
  let env: TestEnv, m: Merchant;
  let noTemporal: string;
  before(async () => {
    [env, m] = await envAndMerchants(newMerchant);
    // An API whose Temporal is unreachable: sessions commit but their expiry workflow never starts.
    const dead = createTemporalProvider({ address: `127.0.0.1:${await freePort()}`, namespace: 'default', taskQueue: 'none' });
    noTemporal = await env.startApp({ paymentSessionLifetimeSeconds: 1 }, dead);
  });

  it('expires overdue open sessions left without a workflow, and nothing else', async () => {
    const orphan = await created(await hostedSession(m, { amount: 700 }, { baseUrl: noTemporal }));
    const fresh = await created(await hostedSession(m, { amount: 900 }));
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await env.db.paymentSession.findUnique({ where: { id: orphan.id } }))!.status, 'open');

    const handle = await env.client.workflow.start(PAYMENT_SESSION_SWEEPER_WORKFLOW, {
      taskQueue: env.config.taskQueue,
      workflowId: `payments/payment-session-sweeper-test-${randomUUID()}`,
      args: [{ graceSeconds: 0, batchSize: 50 }],
    });
    const result = (await handle.result()) as SweepPaymentSessionsResult;
    assert.ok(result.expired >= 1, JSON.stringify(result));
    await maybeRecordHistory(handle, 'payment-session-sweeper');

    assert.equal((await env.db.paymentSession.findUnique({ where: { id: orphan.id } }))!.status, 'expired');
    assert.equal((await m.call('GET', `/v1/payments/${orphan.payment}`)).body.status, 'canceled');
    assert.equal((await env.db.invoice.findFirst({ where: { paymentId: orphan.payment } }))!.status, 'void');
    // a session that is not yet due is untouched
    assert.equal((await env.db.paymentSession.findUnique({ where: { id: fresh.id } }))!.status, 'open');

    // a second sweep changes nothing for the orphan (idempotent)
    const expiredAt = (await env.db.paymentSession.findUnique({ where: { id: orphan.id } }))!.expiredAt;
    await (
      await env.client.workflow.start(PAYMENT_SESSION_SWEEPER_WORKFLOW, {
        taskQueue: env.config.taskQueue,
        workflowId: `payments/payment-session-sweeper-test-${randomUUID()}`,
        args: [{ graceSeconds: 0, batchSize: 50 }],
      })
    ).result();
    const after = (await env.db.paymentSession.findUnique({ where: { id: orphan.id } }))!;
    assert.equal(after.status, 'expired');
    assert.deepEqual(after.expiredAt, expiredAt);
  });
});
