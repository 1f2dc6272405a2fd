import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { call, expectError, newMerchant, type TestMerchant, liveMerchant, type LiveMerchant } from '../../support/api';
import { newId } from '../../../src/ids';
import { CARDS, createCustomer, paidPayment, settledRefund, simulator } from './fixtures';

describe('refunds and credit notes', function () {
  this.timeout(60_000);
  let env: TestEnv, m: LiveMerchant, other: TestMerchant;
  before(async () => ([env, m, other] = await envAndMerchants(liveMerchant, newMerchant)));

  it('a partial refund: pending at once, then succeeded by the workflow; payment partially_refunded; a credit note for the paid invoice', async () => {
    const { payment } = await paidPayment(m, 10_000);
    const res = await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 2500, reason: 'product_unsatisfactory', metadata: { ticket: 'T-1' } } });
    assert.equal(res.status, 201, res.text);
    const r = res.body;
    assert.match(r.id, /^ref_/);
    assert.deepEqual(
      [r.object, r.payment, r.amount, r.currency, r.status, r.reason, r.failure_code],
      ['refund', payment.id, 2500, 'ISK', 'pending', 'product_unsatisfactory', null],
    );
    assert.deepEqual(r.metadata, { ticket: 'T-1' });
    const done = await settledRefund(env, m, r.id);
    assert.equal(done.status, 'succeeded');
    assert.ok(done.succeeded_at);
    const p = (await m.call('GET', `/v1/payments/${payment.id}`)).body;
    assert.deepEqual([p.status, p.amount_refunded], ['partially_refunded', 2500]);
    const notes = (await m.call('GET', `/v1/credit_notes?invoice=${payment.invoice}`)).body;
    assert.equal(notes.has_more, false);
    assert.equal(notes.data.length, 1);
    const cn = notes.data[0];
    assert.match(cn.id, /^cn_/);
    assert.deepEqual(
      [cn.object, cn.invoice, cn.refund, cn.amount, cn.currency, cn.reason, cn.status],
      ['credit_note', payment.invoice, r.id, 2500, 'ISK', 'product_unsatisfactory', 'issued'],
    );
    assert.deepEqual((await m.call('GET', `/v1/credit_notes/${cn.id}`)).body, cn);
    const types = (await env.db.event.findMany({ where: { merchantId: m.id, type: { in: ['refund.created', 'refund.succeeded', 'credit_note.created'] } } }))
      .filter((e) => [r.id, cn.id].includes((e.data as any).id))
      .map((e) => e.type)
      .sort();
    assert.deepEqual(types, ['credit_note.created', 'refund.created', 'refund.succeeded']);
    // Recorded in the activity's transaction and dispatched right after it.
    const cnEvent = await env.db.event.findFirst({ where: { merchantId: m.id, type: 'credit_note.created', data: { path: ['id'], equals: cn.id } } });
    assert.deepEqual(cnEvent!.data, cn);
    assert.ok(cnEvent!.dispatchedAt);
    // The acquirer refunded once, under the refund id.
    const acq = await simulator(env).listRefunds(m.id);
    assert.deepEqual(
      acq.filter((x) => x.idempotencyKey === r.id).map((x) => [x.amount, x.status]),
      [[2500, 'succeeded']],
    );
  });

  it('several partial refunds up to the charge, then the rest by default: refunded; no more after that', async () => {
    const { payment } = await paidPayment(m, 1000);
    const a = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 300 } })).body;
    await settledRefund(env, m, a.id);
    const b = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 200 } })).body;
    await settledRefund(env, m, b.id);
    const rest = await m.call('POST', '/v1/refunds', { body: { payment: payment.id } });
    assert.equal(rest.status, 201, rest.text);
    assert.equal(rest.body.amount, 500);
    await settledRefund(env, m, rest.body.id);
    const p = (await m.call('GET', `/v1/payments/${payment.id}`)).body;
    assert.deepEqual([p.status, p.amount_refunded], ['refunded', 1000]);
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 1 } }), 409, 'invalid_state', 'payment');
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: payment.id } }), 409, 'invalid_state', 'payment');
    const list = (await m.call('GET', `/v1/refunds?payment=${payment.id}`)).body;
    assert.deepEqual(
      list.data.map((x: any) => x.id),
      [rest.body.id, b.id, a.id],
    );
    assert.equal(list.has_more, false);
    const two = (await m.call('GET', `/v1/refunds?payment=${payment.id}&limit=2`)).body;
    assert.deepEqual(
      two.data.map((x: any) => x.id),
      [rest.body.id, b.id],
    );
    assert.equal(two.has_more, true);
    const rest2 = (await m.call('GET', `/v1/refunds?payment=${payment.id}&limit=2&starting_after=${b.id}`)).body;
    assert.deepEqual(
      rest2.data.map((x: any) => x.id),
      [a.id],
    );
    assert.equal(rest2.has_more, false);
    assert.equal((await m.call('GET', `/v1/credit_notes?invoice=${payment.invoice}`)).body.data.length, 3);
  });

  it('a full refund in one go: refunded', async () => {
    const { payment } = await paidPayment(m, 4900);
    const r = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id } })).body;
    assert.equal(r.amount, 4900);
    assert.equal((await settledRefund(env, m, r.id)).status, 'succeeded');
    assert.deepEqual(
      [(await m.call('GET', `/v1/payments/${payment.id}`)).body.status, (await m.call('GET', `/v1/payments/${payment.id}`)).body.amount_refunded],
      ['refunded', 4900],
    );
  });

  it('refunds racing each other never exceed the charge', async () => {
    const { payment } = await paidPayment(m, 1000);
    // Eight concurrent refunds of 300: at most three fit into 1000.
    const responses = await Promise.all(Array.from({ length: 8 }, () => m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 300 } })));
    const created = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status !== 201);
    assert.equal(created.length, 3, responses.map((r) => r.status).join(','));
    for (const r of refused) expectError(r, 400, 'validation_failed', 'amount');
    for (const r of created) assert.equal((await settledRefund(env, m, r.body.id)).status, 'succeeded');
    // The remaining 100 can still be refunded, and nothing more.
    const racing = await Promise.all(Array.from({ length: 4 }, () => m.call('POST', '/v1/refunds', { body: { payment: payment.id } })));
    const last = racing.filter((r) => r.status === 201);
    assert.equal(last.length, 1);
    assert.equal(last[0]!.body.amount, 100);
    await settledRefund(env, m, last[0]!.body.id);
    const p = (await m.call('GET', `/v1/payments/${payment.id}`)).body;
    assert.deepEqual([p.status, p.amount_refunded], ['refunded', 1000]);
    const total = (await env.db.refund.aggregate({ _sum: { amount: true }, where: { paymentId: payment.id, status: { not: 'failed' } } }))._sum.amount;
    assert.equal(total, 1000n);
  });

  it('a refund the acquirer refuses (card 7726): refund failed with a reason, payment unchanged, no credit note; the amount is free again', async () => {
    const { payment } = await paidPayment(m, 2000, CARDS.refundsFail);
    const r = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 500, reason: 'duplicate' } })).body;
    const done = await settledRefund(env, m, r.id);
    assert.deepEqual([done.status, done.failure_code], ['failed', 'expired_or_canceled_card']);
    assert.equal(typeof done.failure_reason, 'string');
    assert.ok(done.failed_at);
    const p = (await m.call('GET', `/v1/payments/${payment.id}`)).body;
    assert.deepEqual([p.status, p.amount_refunded], ['succeeded', 0]);
    assert.equal((await m.call('GET', `/v1/credit_notes?invoice=${payment.invoice}`)).body.data.length, 0);
    assert.ok(await env.db.event.findFirst({ where: { merchantId: m.id, type: 'refund.failed', data: { path: ['id'], equals: r.id } } }));
    // A failed refund does not count: the full amount can be asked for again (and fails again).
    const again = await m.call('POST', '/v1/refunds', { body: { payment: payment.id } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.amount, 2000);
    assert.equal((await settledRefund(env, m, again.body.id)).status, 'failed');
  });

  it('only succeeded or partially refunded payments can be refunded', async () => {
    const waiting = (await m.call('POST', '/v1/payments', { body: { amount: 100 } })).body;
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: waiting.id } }), 409, 'invalid_state', 'payment');
    await m.call('POST', `/v1/payments/${waiting.id}/cancel`);
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: waiting.id } }), 409, 'invalid_state', 'payment');
    const customer = await createCustomer(m);
    const pm = (
      await m.call('POST', `/v1/test_helpers/customers/${customer.id}/payment_methods`, { body: { card_number: CARDS.declinesLater, exp_month: 1, exp_year: 2040, cvc: '123' } })
    ).body;
    const failed = (await m.call('POST', '/v1/payments', { body: { amount: 100, payment_method: pm.id } })).body;
    assert.equal(failed.status, 'failed');
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: failed.id } }), 409, 'invalid_state', 'payment');
  });

  it('an amount beyond the remainder is refused', async () => {
    const { payment } = await paidPayment(m, 1000);
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 1001 } }), 400, 'validation_failed', 'amount');
    const r = (await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 600 } })).body;
    // Pending refunds count too.
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 401 } }), 400, 'validation_failed', 'amount');
    await settledRefund(env, m, r.id);
  });

  describe('bad input', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing payment', { amount: 1 }, 'payment'],
      ['payment of the wrong type', { payment: 12 }, 'payment'],
      ['payment that is not an id', { payment: 'pay 1' }, 'payment'],
      ['amount as a string', { payment: 'pay_x', amount: '10' }, 'amount'],
      ['amount zero', { payment: 'pay_x', amount: 0 }, 'amount'],
      ['fractional amount', { payment: 'pay_x', amount: 1.5 }, 'amount'],
      ['oversized reason', { payment: 'pay_x', reason: 'r'.repeat(201) }, 'reason'],
      ['reason of the wrong type', { payment: 'pay_x', reason: true }, 'reason'],
      ['metadata with a nested object', { payment: 'pay_x', metadata: { a: { b: 'c' } } }, 'metadata.a'],
    ];
    for (const [name, body, param] of cases) {
      it(`refuses ${name}`, async () => {
        expectError(await m.call('POST', '/v1/refunds', { body }), 400, 'validation_failed', param);
      });
    }
  });

  it('unknown, foreign and other-mode ids', async () => {
    const { payment } = await paidPayment(other, 1000);
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: payment.id } }), 404, 'resource_not_found', 'payment');
    expectError(await m.call('POST', '/v1/refunds', { body: { payment: newId('payment') } }), 404, 'resource_not_found', 'payment');
    const live = await call(env, 'POST', '/v1/refunds', { key: m.liveSecretKey!, merchant: m.id, body: { payment: (await paidPayment(m, 100)).payment.id } });
    expectError(live, 404, 'resource_not_found', 'payment');
    const theirs = (await other.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 10 } })).body;
    await settledRefund(env, other, theirs.id);
    expectError(await m.call('GET', `/v1/refunds/${theirs.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', `/v1/refunds?payment=${payment.id}`), 404, 'resource_not_found', 'payment');
    expectError(await call(env, 'GET', `/v1/refunds/${theirs.id}`, { key: m.liveSecretKey!, merchant: m.id }), 404, 'resource_missing', 'id');
    const cn = (await other.call('GET', `/v1/credit_notes?invoice=${payment.invoice}`)).body.data[0];
    expectError(await m.call('GET', `/v1/credit_notes/${cn.id}`), 404, 'resource_missing', 'id');
    expectError(await m.call('GET', `/v1/credit_notes?invoice=${payment.invoice}`), 404, 'resource_not_found', 'invoice');
    expectError(await m.call('GET', '/v1/credit_notes?invoice=inv%20x'), 400, 'validation_failed', 'invoice');
    expectError(await m.call('GET', '/v1/refunds?limit=x'), 400, 'validation_failed', 'limit');
  });

  it('the refund list without a payment is the refunds of the merchant, newest first, paged', async () => {
    const mm = await newMerchant(env);
    const { payment } = await paidPayment(mm, 1000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = (await mm.call('POST', '/v1/refunds', { body: { payment: payment.id, amount: 100 } })).body;
      ids.push(r.id);
      await settledRefund(env, mm, r.id);
    }
    assert.deepEqual(
      (await mm.call('GET', '/v1/refunds')).body.data.map((r: any) => r.id),
      [...ids].reverse(),
    );
    assert.deepEqual((await mm.call('GET', '/v1/refunds?limit=1')).body, { data: [(await mm.call('GET', `/v1/refunds/${ids[2]}`)).body], has_more: true });
    const notes = (await mm.call('GET', '/v1/credit_notes?limit=2')).body;
    assert.equal(notes.data.length, 2);
    assert.equal(notes.has_more, true);
    const lastNote = (await mm.call('GET', `/v1/credit_notes?starting_after=${notes.data[1].id}`)).body;
    assert.equal(lastNote.data.length, 1);
    assert.equal(lastNote.has_more, false);
  });
});
