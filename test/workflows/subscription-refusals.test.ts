// Business failures are outcomes, not workflow failures (docs/subscriptions.md "Refusals"):
// a bank or acquirer that says no is recorded on the invoice and the subscription, the merchant
// hears of it (invoice.payment_failed), and the workflow goes on billing the next period.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { workflowIds } from '../../src/temporal/workflow-ids';
import { clearSimulatorFaults, planSimulatorFault, REFUSED_KENNITOLUR } from '../../src/gateways';
import { advanceClock, clockCustomer, iskSubMerchant, monthlyPrice, ok, type SubMerchant } from '../api/subscriptions/fixtures';

describe('refusals from outside systems are business outcomes', function () {
  this.timeout(300_000);
  let env: TestEnv, m: SubMerchant;
  before(async () => ([env, m] = await envAndMerchants(iskSubMerchant)));
  afterEach(() => clearSimulatorFaults(m.id));

  const invoices = async (subId: string) => (await ok(m.call('GET', `/v1/invoices?subscription=${subId}&limit=100`))).data.reverse() as any[];
  const sub = (id: string) => ok(m.call('GET', `/v1/subscriptions/${id}`));
  const workflowStatus = async (subId: string) => (await env.client.workflow.getHandle(workflowIds.subscription(subId)).describe()).status.name;
  const eventsOf = async (type: string, invoiceId: string) =>
    ((await ok(m.call('GET', `/v1/webhook_events?type=${type}&limit=100`))).data as any[]).filter((e) => e.data.id === invoiceId);

  async function sendInvoiceSubscription(kennitala: string, frozen: string) {
    const { clock, customer } = await clockCustomer(m, frozen, { card: null, customer: { kennitala } });
    const price = await monthlyPrice(m, 4990);
    const s = await ok(
      m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }], collection_method: 'send_invoice', days_until_due: 10 } }),
      201,
    );
    return { clock, customer, s };
  }

  it('a kennitala the API accepted is accepted by the bank-claim step too (one rule), and billing goes on', async () => {
    // 1203894569: the 9th (check) digit does not match; the service does not verify it.
    const { clock, s } = await sendInvoiceSubscription('1203894569', '2027-01-05T12:00:00.000Z');
    await advanceClock(m, clock.id, '2027-01-06T00:00:00.000Z');
    const [first] = await invoices(s.id);
    assert.deepEqual([first.status, first.last_payment_error, first.next_payment_attempt], ['open', null, '2027-01-15T12:00:00.000Z']);
    assert.ok(await env.db.invoiceBankClaim.findFirst({ where: { invoiceId: first.id } }), 'a claim was issued');
    assert.equal((await sub(s.id)).status, 'active');
    await advanceClock(m, clock.id, '2027-02-05T12:00:00.000Z');
    assert.equal((await invoices(s.id)).length, 2, 'the next period is billed');
    assert.equal(await workflowStatus(s.id), 'RUNNING');
  });

  it('the bank refuses the claim: invoice open with the reason, subscription past_due, invoice.payment_failed; the next period still bills; fixing the customer and paying by hand recovers', async () => {
    const [closed] = Object.entries(REFUSED_KENNITOLUR).find(([, r]) => r.code === 'account_closed')!;
    const { clock, customer, s } = await sendInvoiceSubscription(closed, '2027-03-01T09:00:00.000Z');
    await advanceClock(m, clock.id, '2027-03-02T00:00:00.000Z');
    const [first] = await invoices(s.id);
    assert.equal(first.status, 'open');
    assert.equal(first.next_payment_attempt, null);
    assert.deepEqual(first.last_payment_error, { code: 'account_closed', message: REFUSED_KENNITOLUR[closed]!.message, occurred_at: '2027-03-01T09:00:00.000Z' });
    assert.equal((await sub(s.id)).status, 'past_due');
    const failed = await eventsOf('invoice.payment_failed', first.id);
    assert.equal(failed.length, 1);
    assert.deepEqual(failed[0].data.last_payment_error, first.last_payment_error);
    assert.equal(await workflowStatus(s.id), 'RUNNING');
    assert.equal(await env.db.invoiceBankClaim.count({ where: { invoiceId: first.id } }), 0);

    // The next period is billed (and refused the same way: the customer is still wrong).
    await advanceClock(m, clock.id, '2027-04-01T09:00:00.000Z');
    let all = await invoices(s.id);
    assert.deepEqual(
      all.map((i) => [i.status, i.last_payment_error?.code ?? null]),
      [
        ['open', 'account_closed'],
        ['open', 'account_closed'],
      ],
    );
    assert.equal(await workflowStatus(s.id), 'RUNNING');

    // The merchant fixes the kennitala and retries each invoice by hand: new claims, then paid.
    await ok(m.call('PATCH', `/v1/customers/${customer.id}`, { body: { kennitala: '1201743399' } }));
    for (const inv of all) {
      const retried = await ok(m.call('POST', `/v1/invoices/${inv.id}/pay`));
      assert.equal(retried.status, 'open');
      assert.ok(retried.next_payment_attempt, 'automatic collection runs again');
      const claim = await env.db.invoiceBankClaim.findFirstOrThrow({ where: { invoiceId: inv.id } });
      const sim = await env.db.simBankClaim.findFirstOrThrow({ where: { id: claim.claimId } });
      assert.equal(sim.idempotencyKey, `${inv.id}:claim:2`);
      const paid = await ok(m.call('POST', `/v1/test_helpers/invoices/${inv.id}/pay_bank_claim`, { body: {} }));
      assert.equal(paid.status, 'paid');
    }
    assert.equal((await sub(s.id)).status, 'active');
    await advanceClock(m, clock.id, '2027-05-01T09:00:00.000Z');
    all = await invoices(s.id);
    assert.equal(all.length, 3);
    assert.deepEqual([all[2].status, all[2].last_payment_error], ['open', null]);
    assert.equal(await workflowStatus(s.id), 'RUNNING');
  });

  it('the acquirer rejects a charge request: a failed attempt with its reason, dunning retries, the retry pays', async () => {
    const { clock, customer } = await clockCustomer(m, '2027-06-01T00:00:00.000Z');
    const price = await monthlyPrice(m, 1500);
    planSimulatorFault({ merchantId: m.id, operation: 'charge', kind: 'invalid_request' });
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    await advanceClock(m, clock.id, '2027-06-01T00:00:01.000Z');
    let [first] = await invoices(s.id);
    assert.deepEqual([first.status, first.last_payment_error?.code, first.next_payment_attempt], ['open', 'request_rejected', '2027-06-04T00:00:00.000Z']);
    assert.equal((await sub(s.id)).status, 'past_due');
    const payment = await ok(m.call('GET', `/v1/payments/${first.payment}`));
    assert.deepEqual([payment.status, payment.failure_code, payment.invoice], ['failed', 'request_rejected', first.id]);
    await advanceClock(m, clock.id, '2027-06-05T00:00:00.000Z');
    [first] = await invoices(s.id);
    assert.deepEqual([first.status, first.amount_paid], ['paid', 1500]);
    assert.equal((await sub(s.id)).status, 'active');
    assert.equal(await workflowStatus(s.id), 'RUNNING');
  });
});
