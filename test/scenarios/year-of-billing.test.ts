// A year of billing on one test clock, on the real dev server, every amount hand-computed.
//
// Clock: 2025-01-01T00:00Z. Two customers on it.
// A (card that fails until recovered, set to succeed at first): 2 seats × 3000 ISK/month plus API
//   calls (sum meter), 2 ISK per call beyond 1000 included (price level); trial 31 days.
//   Jan (trial)    500 calls: free
//   Feb 1   #1     trial ends: 2 × 3000 in advance                                   =  6000
//   Feb 15         seats 2 → 3, create_prorations; Feb has 28 days, half is left:
//                  credit −6000/2 = −3000, charge 9000/2 = +4500
//   Feb usage 1500 calls → 500 beyond the allowance × 2 = 1000
//   Mar 1   #2     9000 + 1000 + (−3000 + 4500)                                      = 11500
//   Mar usage 800 (inside the allowance) → 0
//   Apr 1   #3     9000 + 0; the card now declines: Apr 1 and Apr 4 fail (past_due),
//                  the card is fixed, the Apr 9 retry succeeds (active)              =  9000
//   May 1   #4     9000 + 0                                                           =  9000
//   May 10         discount 10 % once → applies from the next invoice (Jun 1)
//   May usage 2000 → 1000 × 2 = 2000
//   Jun 1   #5     (9000 + 2000) − 10 %                                              =  9900
//   Jul 1 … Nov 1  #6–#10: 9000 each
//   Nov 20         cancel at period end; Nov usage 1200 → 200 × 2 = 400
//   Dec 1   #11    final invoice: usage only                                          =   400
//   Jan 1 2026     nothing more; the workflow has ended.                       total 90800
// B (bank invoices, kennitala, days_until_due 14): 4900 ISK/month from Jan 1.
//   Jan 1 #1 due Jan 15, paid Jan 10. Feb 1 #2 due Feb 15, unpaid → past_due, paid late on
//   Feb 20 → active; cancel at period end → canceled Mar 1 (no final invoice: nothing to bill).
// VAT (prices include VAT, so the amounts above are unchanged): seats and the bank plan at the
// standard rate, API calls at the reduced rate; the Jun 1 discount is split over both rates.
// A's Apr 9 payment (invoice #3, 9000) is refunded: 2500 on Apr 9, the remaining 6500 on May 10;
//   two credit notes. C gets a card and an invoice item on Apr 9 (left pending), pays 2000 once
//   with the card (POST /v1/payments) and leaves a 1000 payment unconfirmed, canceled May 10. Every object of
//   the clock's customers (payment methods, items, refunds, credit notes and their documents,
//   events) is dated at the clock's time, never before its cause nor after the clock.
// The ledger's invariants (test/support/ledger-invariants.ts) hold mid-year (an open invoice in
// dunning) and at the end.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { maybeRecordHistory } from '../support/histories';
import { createGateways } from '../../src/gateways';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { assertLedgerInvariants } from '../support/ledger-invariants';
import { scopedDb } from '../../src/db/tenancy';
import { loadCreditNoteDocument } from '../../src/documents/load-document';
import { formatDocumentDate } from '../../src/documents/format';
import { pdfText } from '../support/pdf';
import { settledRefund } from '../api/payments/fixtures';
import { advanceClock, attachCard, attachToClock, createClock, createCustomer, createPrice, ok, iskSubMerchant, TEST_CARDS, type SubMerchant } from '../api/subscriptions/fixtures';

describe('scenario: a year of billing on a test clock', function () {
  this.timeout(600_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(iskSubMerchant)));

  it('bills, collects, recovers, prorates, discounts and cancels with exact amounts', async () => {
    const clock = await createClock(m, '2025-01-01T00:00:00.000Z', 'year of billing');
    let clockNow = Date.parse(clock.frozen_time);
    const advance = async (t: string) => {
      clockNow = Date.parse(t);
      return advanceClock(m, clock.id, t);
    };
    const sub = (id: string) => ok(m.call('GET', `/v1/subscriptions/${id}`));
    const invoices = async (subId: string) => ((await ok(m.call('GET', `/v1/invoices?subscription=${subId}&limit=100`))).data as any[]).reverse();
    const invoice = (id: string) => ok(m.call('GET', `/v1/invoices/${id}`));
    const setCard = async (pmId: string, behaviour: 'succeed' | 'default') => {
      const row = await env.db.paymentMethod.findUniqueOrThrow({ where: { id: pmId } });
      await createGateways({ mode: 'test', db: env.db }).cardAcquirer.setCardBehaviour({ merchantId: m.id, token: row.acquirerToken!, behaviour });
    };

    // catalog
    const seats = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 3000, recurring: { interval: 'month' } });
    const meter = await ok(
      m.call('POST', '/v1/meters', { body: { name: 'API calls', event_name: `api-calls-${clock.id}`, aggregate_type: 'sum', aggregate_property: 'calls' } }),
      201,
    );
    const calls = await createPrice(m, {
      type: 'recurring',
      currency: 'ISK',
      unit_amount: 2,
      recurring: { interval: 'month', usage_type: 'metered' },
      meter: meter.id,
      included_units: 1000,
      vat_rate: 'reduced',
    });
    const bankPlan = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 4900, recurring: { interval: 'month' } });

    // customers on the clock
    const a = await createCustomer(m, { name: 'A' });
    await attachToClock(m, clock.id, a.id);
    const card = await attachCard(m, a.id, TEST_CARDS.recovering);
    await setCard(card.id, 'succeed');
    const b = await createCustomer(m, { name: 'B', kennitala: '1201743399' });
    await attachToClock(m, clock.id, b.id);
    // Usage is sent when it happens: a clock customer's usage may not be ahead of its clock
    // (docs/metering.md), so the clock is first advanced to the usage's time.
    const usage = async (calls: number, at: string) => {
      if (Date.parse(at) > clockNow) await advance(at);
      return ok(m.call('POST', '/v1/events', { body: { event_name: meter.event_name, customer: a.id, timestamp: at, metadata: { calls: String(calls) } } }), 201);
    };

    const subA = await ok(
      m.call('POST', '/v1/subscriptions', { body: { customer: a.id, trial_period_days: 31, items: [{ price: seats.id, quantity: 2 }, { price: calls.id }] } }),
      201,
    );
    const subB = await ok(
      m.call('POST', '/v1/subscriptions', { body: { customer: b.id, collection_method: 'send_invoice', days_until_due: 14, items: [{ price: bankPlan.id }] } }),
      201,
    );
    assert.deepEqual([subA.status, subA.trial_end], ['trialing', '2025-02-01T00:00:00.000Z']);
    assert.deepEqual([subB.status, subB.current_period_end], ['active', '2025-02-01T00:00:00.000Z']);
    const seatItem = subA.items.find((i: any) => i.price === seats.id);

    // January: trial usage (free); B's first bank invoice, paid on time.
    await advance('2025-01-10T00:00:00.000Z');
    const [b1] = await invoices(subB.id);
    assert.deepEqual([b1.status, b1.amount_due, b1.due_date], ['open', 4900, '2025-01-15T00:00:00.000Z']);
    const b1paid = await ok(m.call('POST', `/v1/test_helpers/invoices/${b1.id}/pay_bank_claim`, { body: {} }));
    assert.deepEqual([b1paid.status, b1paid.paid_at], ['paid', '2025-01-10T00:00:00.000Z']);
    await usage(500, '2025-01-15T12:00:00.000Z');

    // February 1: A's trial ends.
    await advance('2025-02-01T00:00:00.000Z');
    assert.equal((await sub(subA.id)).status, 'active');
    let ia = await invoices(subA.id);
    assert.deepEqual(
      ia.map((i) => [i.amount_due, i.status]),
      [[6000, 'paid']],
    );
    assert.deepEqual(
      (await invoice(ia[0].id)).lines.map((l: any) => [l.kind, l.quantity, l.amount]),
      [['licensed', 2, 6000]],
    );

    // February 15: a third seat, prorated.
    await usage(1500, '2025-02-10T08:00:00.000Z');
    await advance('2025-02-15T00:00:00.000Z');
    const upd = await ok(m.call('POST', `/v1/subscription_items/${seatItem.id}`, { body: { quantity: 3 } }));
    assert.equal(upd.quantity, 3);
    const pr = await env.db.invoiceItem.findMany({ where: { subscriptionId: subA.id, proration: true }, orderBy: { amount: 'asc' } });
    assert.deepEqual(
      pr.map((p) => Number(p.amount)),
      [-3000, 4500],
    );

    // B's second invoice is overdue after Feb 15 and paid late on Feb 20; then B cancels at period end.
    await advance('2025-02-16T00:00:00.000Z');
    assert.equal((await sub(subB.id)).status, 'past_due');
    await advance('2025-02-20T00:00:00.000Z');
    const b2 = (await invoices(subB.id))[1];
    assert.deepEqual([b2.status, b2.due_date], ['open', '2025-02-15T00:00:00.000Z']);
    const b2paid = await ok(m.call('POST', `/v1/test_helpers/invoices/${b2.id}/pay_bank_claim`, { body: {} }));
    assert.deepEqual([b2paid.status, b2paid.paid_at, b2paid.amount_paid], ['paid', '2025-02-20T00:00:00.000Z', 4900]);
    assert.equal((await sub(subB.id)).status, 'active');
    await ok(m.call('POST', `/v1/subscriptions/${subB.id}/cancel`, { body: { at_period_end: true } }));

    // March 1: usage in arrears, seats in advance, the prorations.
    await advance('2025-03-01T00:00:00.000Z');
    ia = await invoices(subA.id);
    const a2 = await invoice(ia[1].id);
    assert.deepEqual([a2.amount_due, a2.status, a2.period_start], [11500, 'paid', '2025-03-01T00:00:00.000Z']);
    assert.deepEqual(
      a2.lines.map((l: any) => [l.kind, l.quantity, l.amount, l.period_start, l.period_end]),
      [
        ['licensed', 3, 9000, '2025-03-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z'],
        ['metered', 500, 1000, '2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
        ['proration', 1, -3000, '2025-02-15T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
        ['proration', 1, 4500, '2025-02-15T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
      ],
    );
    const bNow = await sub(subB.id);
    assert.deepEqual([bNow.status, bNow.ended_at], ['canceled', '2025-03-01T00:00:00.000Z']);
    assert.equal((await invoices(subB.id)).length, 2);

    await usage(800, '2025-03-12T00:00:00.000Z');

    // April: the renewal fails twice, the card is fixed, the third attempt succeeds.
    await setCard(card.id, 'default');
    await advance('2025-04-01T00:00:00.000Z');
    assert.equal((await sub(subA.id)).status, 'past_due');
    await advance('2025-04-04T00:00:00.000Z');
    const a3id = (await invoices(subA.id))[2].id;
    assert.deepEqual([(await invoice(a3id)).status, (await env.db.invoice.findUniqueOrThrow({ where: { id: a3id } })).attemptCount], ['open', 2]);
    const midYear = await assertLedgerInvariants(env.db, m.id);
    assert.deepEqual(midYear.receivable, { [a.id]: 9000 });
    await setCard(card.id, 'succeed');
    await advance('2025-04-09T00:00:00.000Z');
    const a3 = await invoice(a3id);
    assert.deepEqual([a3.amount_due, a3.status, a3.paid_at], [9000, 'paid', '2025-04-09T00:00:00.000Z']);
    assert.equal((await sub(subA.id)).status, 'active');

    // Apr 9: C gets a card and an invoice item; A's Apr 9 payment is partly refunded.
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const c = await createCustomer(m, { name: 'C' });
    await attachToClock(m, clock.id, c.id);
    const cCard = await attachCard(m, c.id);
    assert.equal(cCard.created_at, '2025-04-09T00:00:00.000Z');
    const cItem = await ok(m.call('POST', '/v1/invoice_items', { body: { customer: c.id, amount: 1500, description: 'Setup' } }), 201);
    assert.equal(cItem.created_at, '2025-04-09T00:00:00.000Z');
    const creditNoteAt = async (refundAmount: number, at: string) => {
      const r = await ok(m.call('POST', '/v1/refunds', { body: { payment: a3.payment, amount: refundAmount } }), 201);
      const settled = await settledRefund(env, m, r.id);
      assert.deepEqual([settled.status, settled.created_at, settled.succeeded_at], ['succeeded', at, at]);
      const cn = ((await ok(m.call('GET', `/v1/credit_notes?invoice=${a3.id}`))).data as any[]).find((x) => x.refund === r.id);
      assert.equal(cn.created_at, at, 'the credit note is dated at the clock');
      assert.ok(Date.parse(cn.created_at) >= Date.parse(a3.paid_at), 'never before the payment it refunds');
      const doc = await loadCreditNoteDocument(scopedDb(env.db, tenant), tenant, cn.id);
      assert.equal(doc.issueDate.toISOString(), at, "the credit note's document prints the clock's date");
      // And so does the PDF itself (its text read back), never the wall date.
      const pdf = await fetch(`${env.baseUrl}/v1/credit_notes/${cn.id}/pdf`, { headers: { Authorization: `Bearer ${m.secretKey}`, 'X-Merchant-Id': m.id } });
      assert.equal(pdf.status, 200);
      const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
      assert.ok(text.includes(formatDocumentDate(new Date(at), 'en')), `the PDF prints ${formatDocumentDate(new Date(at), 'en')}:\n${text}`);
      assert.ok(!text.includes(formatDocumentDate(new Date(), 'en')), "the PDF does not print today's date");
      const posted = ((await ok(m.call('GET', `/v1/ledger_entries?invoice=${a3.id}&limit=100`))).data as any[]).filter((e) => e.kind === 'credit_note' || e.kind === 'refund');
      assert.ok(posted.length > 0 && posted.every((e) => e.occurred_at <= at && e.occurred_at >= a3.paid_at));
      return cn;
    };
    await creditNoteAt(2500, '2025-04-09T00:00:00.000Z');
    // C pays 2000 once with the saved card (POST /v1/payments) and leaves a second payment
    // unconfirmed; both and their invoices are dated at the clock, as is the charge's posting.
    const cPaid = await ok(m.call('POST', '/v1/payments', { body: { amount: 2000, currency: 'ISK', customer: c.id, payment_method: cCard.id } }), 201);
    assert.deepEqual([cPaid.status, cPaid.created_at, cPaid.succeeded_at], ['succeeded', '2025-04-09T00:00:00.000Z', '2025-04-09T00:00:00.000Z']);
    const cPaidInvoice = await invoice(cPaid.invoice);
    assert.deepEqual(
      [cPaidInvoice.status, cPaidInvoice.created_at, cPaidInvoice.finalized_at, cPaidInvoice.paid_at],
      ['paid', '2025-04-09T00:00:00.000Z', '2025-04-09T00:00:00.000Z', '2025-04-09T00:00:00.000Z'],
    );
    const cOpen = await ok(m.call('POST', '/v1/payments', { body: { amount: 1000, currency: 'ISK', customer: c.id } }), 201);
    assert.deepEqual([cOpen.status, cOpen.created_at], ['requires_payment_method', '2025-04-09T00:00:00.000Z']);

    // May 10: a discount for the next invoice; the rest of C's payment refunded.
    await advance('2025-05-10T00:00:00.000Z');
    await creditNoteAt(6500, '2025-05-10T00:00:00.000Z');
    // C's unconfirmed payment is canceled on May 10: canceled and its invoice voided at the clock.
    const cCanceled = await ok(m.call('POST', `/v1/payments/${cOpen.id}/cancel`, { body: {} }));
    assert.deepEqual([cCanceled.status, cCanceled.canceled_at], ['canceled', '2025-05-10T00:00:00.000Z']);
    const cVoided = await invoice(cOpen.invoice);
    assert.deepEqual([cVoided.status, cVoided.amount_remaining], ['void', 0]);
    assert.deepEqual((await assertLedgerInvariants(env.db, m.id)).receivable, {});
    await ok(m.call('POST', `/v1/subscriptions/${subA.id}`, { body: { discount: { percent_off: 10, duration: 'once' } } }));
    await usage(2000, '2025-05-20T00:00:00.000Z');
    await advance('2025-06-01T00:00:00.000Z');
    const a5 = await invoice((await invoices(subA.id))[4].id);
    assert.deepEqual([a5.subtotal, a5.discount_amount, a5.total, a5.status], [11000, 1100, 9900, 'paid']);
    // The discount is split over the rates by their charges: 1100 × 9000/11000 = 900, × 2000/11000 = 200.
    assert.deepEqual(
      a5.lines.map((l: any) => [l.kind, l.amount, l.vat_rate, l.vat_amount]),
      [
        ['licensed', 9000, 'standard', 1742], // round(9000 × 24/124) = round(1741.94)
        ['metered', 2000, 'reduced', 198], // round(2000 × 11/111) = round(198.2)
        ['discount', -900, 'standard', -174], // round(-174.19)
        ['discount', -200, 'reduced', -20], // round(-19.82)
      ],
    );
    assert.deepEqual(
      [a5.vat_amount, a5.vat_breakdown.map((b: any) => [b.vat_rate, b.vat_amount, b.amount_including_vat])],
      [
        1746,
        [
          ['standard', 1568, 8100],
          ['reduced', 178, 1800],
        ],
      ],
    );

    // Summer and autumn, month by month; then cancel at period end.
    for (const t of ['2025-07-01', '2025-08-01', '2025-09-01', '2025-10-01', '2025-11-01']) await advance(`${t}T00:00:00.000Z`);
    await usage(1200, '2025-11-05T00:00:00.000Z');
    await advance('2025-11-20T00:00:00.000Z');
    const pending = await ok(m.call('POST', `/v1/subscriptions/${subA.id}/cancel`, { body: { at_period_end: true } }));
    assert.deepEqual([pending.status, pending.cancel_at_period_end], ['active', true]);
    await advance('2025-12-01T00:00:00.000Z');
    const ended = await sub(subA.id);
    assert.deepEqual([ended.status, ended.ended_at], ['canceled', '2025-12-01T00:00:00.000Z']);
    await advance('2026-01-01T00:00:00.000Z');

    ia = await invoices(subA.id);
    assert.deepEqual(
      ia.map((i) => [i.period_start.slice(0, 10), i.amount_due, i.status]),
      [
        ['2025-02-01', 6000, 'paid'],
        ['2025-03-01', 11500, 'paid'],
        ['2025-04-01', 9000, 'paid'],
        ['2025-05-01', 9000, 'paid'],
        ['2025-06-01', 9900, 'paid'],
        ['2025-07-01', 9000, 'paid'],
        ['2025-08-01', 9000, 'paid'],
        ['2025-09-01', 9000, 'paid'],
        ['2025-10-01', 9000, 'paid'],
        ['2025-11-01', 9000, 'paid'],
        ['2025-11-01', 400, 'paid'],
      ],
    );
    const final = await invoice(ia[10].id);
    assert.deepEqual(
      final.lines.map((l: any) => [l.kind, l.quantity, l.amount, l.period_end]),
      [['metered', 200, 400, '2025-12-01T00:00:00.000Z']],
    );
    assert.equal(
      ia.reduce((n, i) => n + i.amount_paid, 0),
      90800,
    );
    // Exactly one invoice per period and one successful charge per invoice.
    const keys = await env.db.invoice.findMany({ where: { subscriptionId: subA.id }, select: { periodKey: true } });
    assert.equal(new Set(keys.map((k) => k.periodKey)).size, 11);
    // Eleven renewals of A and C's one-off payment.
    const charges = (await createGateways({ mode: 'test', db: env.db }).cardAcquirer.listCharges(m.id, { limit: 1000 })).filter((c) => c.status === 'succeeded');
    assert.equal(charges.length, 12);
    assert.equal(
      charges.reduce((n, c) => n + c.amount, 0),
      90800 + 2000,
    );

    // Timestamps of the clock's objects: none after the clock, none before its cause.
    const clockEnd = Date.parse('2026-01-01T00:00:00.000Z');
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    const allInvoices = await env.db.invoice.findMany({ where: { merchantId: m.id } });
    const cObjects = [
      ...(await env.db.creditNote.findMany({ where: { merchantId: m.id } })).map((x) => ['credit note', x.createdAt, a3.paid_at] as const),
      ...(await env.db.payment.findMany({ where: { merchantId: m.id } })).flatMap((x) => [
        ['payment', x.createdAt, clock.frozen_time] as const,
        ...(x.succeededAt ? [['payment succeeded', x.succeededAt, x.createdAt.toISOString()] as const] : []),
        ...(x.canceledAt ? [['payment canceled', x.canceledAt, x.createdAt.toISOString()] as const] : []),
      ]),
      ...allInvoices.flatMap((x) =>
        (
          [
            ['invoice', x.createdAt],
            ['invoice finalized', x.finalizedAt],
            ['invoice paid', x.paidAt],
            ['invoice voided', x.voidedAt],
          ] as const
        )
          .filter(([, at]) => at !== null)
          .map(([what, at]) => [what, at!, what === 'invoice' ? clock.frozen_time : iso(x.createdAt)!] as const),
      ),
      // A posting is never before the invoice it is about.
      ...(await env.db.ledgerPosting.findMany({ where: { merchantId: m.id } })).map(
        (x) => [`ledger posting ${x.kind}`, x.occurredAt, iso(allInvoices.find((i) => i.id === x.invoiceId)?.createdAt ?? null) ?? clock.frozen_time] as const,
      ),
      ...(await env.db.refund.findMany({ where: { merchantId: m.id } })).flatMap((x) => [
        ['refund', x.createdAt, a3.paid_at] as const,
        ['refund succeeded', x.succeededAt!, x.createdAt.toISOString()] as const,
      ]),
      ...(await env.db.invoiceItem.findMany({ where: { merchantId: m.id } })).map((x) => ['invoice item', x.createdAt, clock.frozen_time] as const),
      ...(await env.db.paymentMethod.findMany({ where: { merchantId: m.id } })).map((x) => ['payment method', x.createdAt, clock.frozen_time] as const),
    ];
    for (const [what, at, cause] of cObjects) {
      assert.ok(at.getTime() <= clockEnd, `${what} ${at.toISOString()} after the clock`);
      assert.ok(at.getTime() >= Date.parse(cause), `${what} ${at.toISOString()} before its cause ${cause}`);
    }
    const events = await env.db.event.findMany({ where: { merchantId: m.id, type: { not: 'customer.created' } } });
    assert.ok(events.length > 0);
    for (const e of events) {
      assert.ok(e.createdAt.getTime() <= clockEnd && e.createdAt.getTime() >= Date.parse(clock.frozen_time), `event ${e.type} at ${e.createdAt.toISOString()}`);
      // Never before its cause: the object it carries existed when the event happened (but the
      // customer itself is wall-time by design, docs/test-clocks.md, so customer.* events carry
      // a customer created "later" than the clock).
      const created = (e.data as { created_at?: string }).created_at;
      if (created && !e.type.startsWith('customer.'))
        assert.ok(e.createdAt.getTime() >= Date.parse(created), `event ${e.type} at ${e.createdAt.toISOString()} before its object (${created})`);
    }
    assert.ok(['payment.succeeded', 'payment.canceled', 'invoice.voided', 'payment_method.attached'].every((t) => events.some((e) => e.type === t)));

    // The ledger: every posting balances, nothing is receivable, revenue is the year's totals less VAT.
    const ledger = await assertLedgerInvariants(env.db, m.id);
    assert.deepEqual(ledger.receivable, {});
    const vatYear = (await env.db.invoice.aggregate({ where: { merchantId: m.id, status: { not: 'void' } }, _sum: { vatAmount: true } }))._sum.vatAmount!;
    // Invoice #3 was refunded in full: its credit notes return its net (9000 less its VAT); C's
    // one-off payment of 2000 is revenue, its canceled one is not.
    assert.equal(ledger.revenue, 90800 + 4900 * 2 + 2000 - Number(vatYear) - (9000 - a3.vat_amount));
    const tb = (await ok(m.call('GET', '/v1/trial_balance'))).currencies[0];
    const bal = Object.fromEntries(tb.accounts.map((x: any) => [x.account, x.balance]));
    assert.deepEqual([bal.card_clearing, bal.bank_claim_clearing, tb.total_debit === tb.total_credit], [90800 - 9000 + 2000, 9800, true]);

    // Both workflows have finished; the clock is ready.
    const handleA = env.client.workflow.getHandle(workflowIds.subscription(subA.id));
    assert.deepEqual(await handleA.result(), { subscriptionId: subA.id, status: 'canceled' });
    await maybeRecordHistory(handleA, 'subscription-year-final-run');
    assert.deepEqual(await env.client.workflow.getHandle(workflowIds.subscription(subB.id)).result(), { subscriptionId: subB.id, status: 'canceled' });
  });
});
