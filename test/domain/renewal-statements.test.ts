// The renewal's folded statements (issue 15), at the domain level with no workflow running: the
// steps are called in the order the schedule would run them, and what each returns is checked
// against the database read afresh.
//  - A renewal's period end, asked to finalize its invoice, does so in its own transaction: the
//    invoice is open and numbered, its events are the finalization's, and the view it returns is
//    the view read after commit (so the schedule sees the charge due, as it would have).
//  - A charge attempt returns the view from its own statement when the subscription's status stays,
//    equal to the view read after commit; when the status changes (past_due), it returns none and
//    the caller reads it.
//  - Both stay idempotent: a repeated period end or charge attempt changes nothing.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { attachCard, createCustomer, monthlyPrice, iskSubMerchant, TEST_CARDS, type SubMerchant } from '../api/subscriptions/fixtures';
import { scopedDb, type Tenant } from '../../src/db/tenancy';
import { createSubscription } from '../../src/domain/subscriptions/create-subscription';
import { runPeriodEnd } from '../../src/domain/subscriptions/steps/period-end';
import { chargeSubscriptionInvoice } from '../../src/domain/subscriptions/steps/charge-invoice';
import { finalizeSubscriptionInvoice } from '../../src/domain/subscriptions/steps/finalize-invoice';
import { loadSubscriptionView } from '../../src/domain/subscriptions/subscription-view';
import type { SubscriptionRef } from '../../src/contracts/subscriptions';

describe('domain: a renewal in fewer statements returns what a fresh read returns', function () {
  this.timeout(120_000);
  let env: TestEnv, m: SubMerchant;
  let tenant: Tenant;
  let price: any;
  before(async () => {
    [env, m] = await envAndMerchants(iskSubMerchant);
    tenant = { merchantId: m.id, mode: 'test' };
    price = await monthlyPrice(m, 1990);
  });

  /** A subscription made by the domain code with no workflow, on a customer with `card`; its first invoice finalized and charged here. */
  async function subscription(card: string): Promise<{ ref: SubscriptionRef; firstInvoiceId: string }> {
    const customer = await createCustomer(m);
    await attachCard(m, customer.id, card);
    const created = await scopedDb(env.db, tenant).$transaction((tx) => createSubscription(tx, tenant, { customer: customer.id, items: [{ price: price.id }] }, new Date()), {
      timeout: 30_000,
    });
    const ref = { subscriptionId: created.subscription.id, merchantId: m.id, mode: 'test' as const };
    const [first] = await env.db.invoice.findMany({ where: { subscriptionId: ref.subscriptionId } });
    assert.ok(first, 'the first invoice was built');
    return { ref, firstInvoiceId: first.id };
  }

  const fresh = (ref: SubscriptionRef) => loadSubscriptionView(env.db, ref);
  const charge = (ref: SubscriptionRef, invoiceId: string, attempt: number, now: string) =>
    chargeSubscriptionInvoice({ db: env.db, gateways: env.gateways }, { ...ref, invoiceId, attempt, manual: false, now });

  /** A subscription on `card` whose first invoice is finalized and charged once (attempt 1) at its start. */
  async function firstAttempt(card: string) {
    const { ref, firstInvoiceId } = await subscription(card);
    const start = await env.db.subscription.findUniqueOrThrow({ where: { id: ref.subscriptionId } });
    const now = start.currentPeriodStart.toISOString();
    await finalizeSubscriptionInvoice(env.db, { ...ref, invoiceId: firstInvoiceId, now });
    return { ref, firstInvoiceId, start, now, first: await charge(ref, firstInvoiceId, 1, now) };
  }

  it('finalizes the renewal invoice in the period end and returns the view a fresh read gives; the charge returns the view after it', async () => {
    const { ref, start, first: firstCharge } = await firstAttempt(TEST_CARDS.visa);
    assert.deepEqual(
      firstCharge.events.map((e) => e.type),
      ['payment.succeeded', 'invoice.paid'],
    );
    assert.ok(firstCharge.view, 'the charge returned the view from its statement');
    assert.deepEqual(firstCharge.view, await fresh(ref));
    assert.deepEqual(firstCharge.view.invoices, [], 'the paid invoice needs no more work');

    const periodEnd = start.currentPeriodEnd.toISOString();
    const out = await runPeriodEnd(env.db, { ...ref, periodEnd, now: periodEnd }, { finalizeRenewal: true });
    assert.equal(out.done, 'renewal');
    assert.ok(out.invoiceId);
    assert.deepEqual(
      out.finalized?.map((e) => e.type),
      ['invoice.finalized'],
    );
    const renewal = await env.db.invoice.findUniqueOrThrow({ where: { id: out.invoiceId } });
    assert.equal(renewal.status, 'open');
    assert.match(renewal.number ?? '', /000002$/, 'numbered after the first invoice');
    assert.equal(renewal.finalizedAt?.toISOString(), periodEnd);
    assert.equal(renewal.nextPaymentAttemptAt?.toISOString(), periodEnd);
    const afterPeriodEnd = await fresh(ref);
    assert.deepEqual(out.view, afterPeriodEnd);
    assert.deepEqual(
      afterPeriodEnd!.invoices.map((i) => [i.id, i.status, i.attemptCount, i.nextActionAt]),
      [[renewal.id, 'open', 0, periodEnd]],
      'the first charge attempt is due at the period end',
    );
    const finalizedEvents = await env.db.event.findMany({ where: { merchantId: m.id, type: 'invoice.finalized' } });
    assert.equal(finalizedEvents.filter((e) => (e.data as { id: string }).id === renewal.id).length, 1);

    // The same period end again (a retried activity): nothing, and no second invoice.
    const again = await runPeriodEnd(env.db, { ...ref, periodEnd, now: periodEnd }, { finalizeRenewal: true });
    assert.equal(again.done, 'nothing');
    assert.equal(again.finalized, undefined);
    assert.equal(await env.db.invoice.count({ where: { subscriptionId: ref.subscriptionId } }), 2);

    const renewalCharge = await charge(ref, renewal.id, 1, periodEnd);
    assert.deepEqual(
      renewalCharge.events.map((e) => e.type),
      ['payment.succeeded', 'invoice.paid'],
    );
    assert.deepEqual(renewalCharge.view, await fresh(ref));
    assert.deepEqual(renewalCharge.view!.invoices, []);
    // The same attempt again: nothing recorded, nothing returned.
    const repeated = await charge(ref, renewal.id, 1, periodEnd);
    assert.deepEqual(repeated, { events: [] });
    assert.equal(await env.db.payment.count({ where: { merchantId: m.id, customerId: renewal.customerId, status: 'succeeded' } }), 2);
  });

  it('returns no view when the attempt changes the status (past_due), and the view of its statement when it does not', async () => {
    const { ref, firstInvoiceId, now, first } = await firstAttempt(TEST_CARDS.alwaysDeclines);
    assert.deepEqual(
      first.events.map((e) => e.type),
      ['payment.failed', 'invoice.payment_failed', 'subscription.updated'],
    );
    assert.equal(first.view, undefined, 'the status changed after the statement: the caller reads the view');
    const pastDue = await fresh(ref);
    assert.equal(pastDue!.status, 'past_due');
    const retryAt = pastDue!.invoices[0]!.nextActionAt!;
    assert.ok(Date.parse(retryAt) > Date.parse(now), 'the next attempt is scheduled');

    const second = await charge(ref, firstInvoiceId, 2, retryAt);
    assert.deepEqual(
      second.events.map((e) => e.type),
      ['payment.failed', 'invoice.payment_failed'],
    );
    assert.ok(second.view, 'past_due stays past_due: the view came from the statement');
    assert.deepEqual(second.view, await fresh(ref));
    assert.deepEqual(
      second.view.invoices.map((i) => [i.id, i.status, i.attemptCount]),
      [[firstInvoiceId, 'open', 2]],
    );
    assert.ok(Date.parse(second.view.invoices[0]!.nextActionAt!) > Date.parse(retryAt), 'the third attempt comes later');
  });
});
