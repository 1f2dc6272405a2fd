// Canceling an unpaid payment records payment.canceled and invoice.voided in the outbox, with
// the resources as the API presents them.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { newMerchant, type TestMerchant } from '../../support/api';

describe('events of canceled payments and voided invoices', () => {
  let env: TestEnv, m: TestMerchant;
  before(async () => ([env, m] = await envAndMerchants(newMerchant)));

  it('records payment.canceled and invoice.voided once', async () => {
    const p = await m.call('POST', '/v1/payments', { body: { amount: 1990, currency: 'ISK', description: 'Ársáskrift' } });
    assert.equal(p.status, 201, p.text);
    const c = await m.call('POST', `/v1/payments/${p.body.id}/cancel`);
    assert.equal(c.status, 200, c.text);
    assert.equal(c.body.status, 'canceled');
    const again = await m.call('POST', `/v1/payments/${p.body.id}/cancel`);
    assert.equal(again.status, 200);
    const events = await env.db.event.findMany({ where: { merchantId: m.id, type: { in: ['payment.canceled', 'invoice.voided'] } } });
    assert.deepEqual(events.map((e) => e.type).sort(), ['invoice.voided', 'payment.canceled']);
    const canceled = events.find((e) => e.type === 'payment.canceled')!.data as Record<string, unknown>;
    assert.equal(canceled.id, p.body.id);
    assert.equal(canceled.status, 'canceled');
    const voided = events.find((e) => e.type === 'invoice.voided')!.data as Record<string, unknown>;
    assert.equal(voided.status, 'void');
    assert.equal(voided.id, p.body.invoice);
  });
});
