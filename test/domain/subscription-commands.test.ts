// The command path at the domain level (no HTTP): runSubscriptionCommand, payInvoiceNow and
// voidInvoice as the portal and the dashboard call them, against the real database and the
// real subscription workflow. Objects are set up through the API; the calls under test get a
// RequestScope over a transaction of their own, as a request would give them.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../support/env';
import { attachCard, createCustomer, eventually, monthlyPrice, ok, iskSubMerchant, unique, type SubMerchant } from '../api/subscriptions/fixtures';
import { scopedDb, type Tenant } from '../../src/db/tenancy';
import { ApiError } from '../../src/errors';
import type { RequestScope } from '../../src/domain/request-scope';
import type { CommandDeps } from '../../src/domain/subscriptions/command-deps';
import { runSubscriptionCommand } from '../../src/domain/subscriptions/run-subscription-command';
import { payInvoiceNow } from '../../src/domain/invoices/pay-invoice-now';
import { voidInvoice } from '../../src/domain/invoices/void-invoice';
import { createWorkflowClients } from '../../src/temporal/workflow-clients';

describe('domain: the subscription command path', function () {
  this.timeout(120_000);
  let env: TestEnv, m: SubMerchant;
  let deps: CommandDeps;
  let tenant: Tenant;
  let customer: any;
  let price: any;
  before(async () => {
    [env, m] = await envAndMerchants(iskSubMerchant);
    tenant = { merchantId: m.id, mode: 'test' };
    deps = { db: env.db, temporal: env.temporal, workflows: createWorkflowClients(env.temporal), gateways: env.gateways, log: () => undefined };
    customer = await createCustomer(m);
    await attachCard(m, customer.id);
    price = await monthlyPrice(m, 1990);
  });

  /** Runs `fn` as a request would: in one transaction, then the after-commit work. */
  async function asRequest<T>(fn: (scope: RequestScope) => Promise<T>, requestKey = `test:${unique('req')}`): Promise<T> {
    const after: Array<() => Promise<void>> = [];
    const result = await scopedDb(env.db, tenant).$transaction((db) => fn({ tenant, db, requestKey, afterCommit: (work) => void after.push(work) }), { timeout: 60_000 });
    for (const work of after) await work();
    return result;
  }

  const refused = (code: string) => (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code, err.message);
    return true;
  };

  /** Runs the command in a request and expects it refused with `code`. */
  const commandRefused = (id: string, command: Parameters<typeof runSubscriptionCommand>[3], code: string) =>
    assert.rejects(
      asRequest((scope) => runSubscriptionCommand(deps, scope, id, command)),
      refused(code),
    );

  async function paidSubscription(): Promise<{ id: string; invoiceId: string }> {
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }] } }), 201);
    const inv = await eventually(async () => {
      const [i] = await env.db.invoice.findMany({ where: { subscriptionId: s.id } });
      return i?.status === 'paid' ? i : undefined;
    }, 'first invoice paid');
    return { id: s.id, invoiceId: inv.id };
  }

  const row = (id: string) => env.db.subscription.findUniqueOrThrow({ where: { id } });

  it('applies pause and resume through the workflow, and refuses what the rules refuse', async () => {
    const { id } = await paidSubscription();
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'pause' }));
    assert.equal((await row(id)).status, 'paused');
    await commandRefused(id, { kind: 'pause' }, 'cannot_pause');
    await commandRefused(id, { kind: 'uncancel' }, 'cannot_uncancel');
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'resume' }));
    assert.equal((await row(id)).status, 'active');
    await commandRefused(id, { kind: 'resume' }, 'not_paused');
  });

  it('a repeated request key applies its command once', async () => {
    const { id } = await paidSubscription();
    const key = `test:${unique('idem')}`;
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'cancel', atPeriodEnd: true }), key);
    assert.equal((await row(id)).cancelAtPeriodEnd, true);
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'uncancel' }));
    assert.equal((await row(id)).cancelAtPeriodEnd, false);
    // The retried request (same key) gets the first answer; the pending cancellation does not come back.
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'cancel', atPeriodEnd: true }), key);
    assert.equal((await row(id)).cancelAtPeriodEnd, false);
  });

  it('an unknown or foreign subscription is resource_missing', async () => {
    await commandRefused('sub_nope', { kind: 'pause' }, 'resource_missing');
    const other = await iskSubMerchant(env);
    const theirs = await createCustomer(other);
    await attachCard(other, theirs.id);
    const theirPrice = await monthlyPrice(other, 500);
    const s = await ok(other.call('POST', '/v1/subscriptions', { body: { customer: theirs.id, items: [{ price: theirPrice.id }] } }), 201);
    await commandRefused(s.id, { kind: 'pause' }, 'resource_missing');
  });

  it('invoice actions follow the invoice status: a paid invoice is left as it is by pay, refused by void', async () => {
    const { invoiceId } = await paidSubscription();
    await asRequest((scope) => payInvoiceNow(deps, scope, invoiceId));
    assert.equal((await env.db.invoice.findUniqueOrThrow({ where: { id: invoiceId } })).status, 'paid');
    await assert.rejects(
      asRequest((scope) => voidInvoice(deps, scope, invoiceId)),
      refused('invalid_state'),
    );
    await assert.rejects(
      asRequest((scope) => payInvoiceNow(deps, scope, 'in_nope')),
      refused('resource_missing'),
    );
  });

  it('after the workflow has finished: the same rules, answered from the database', async () => {
    const { id } = await paidSubscription();
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'cancel', atPeriodEnd: false }));
    assert.equal((await row(id)).status, 'canceled');
    await eventually(async () => ((await row(id)).workflowEndedAt ? true : undefined), 'the workflow to finish');
    // Canceling again changes nothing; the rest is refused as the table says; metadata may change.
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'cancel', atPeriodEnd: false }));
    await commandRefused(id, { kind: 'pause' }, 'cannot_pause');
    await commandRefused(id, { kind: 'uncancel' }, 'cannot_uncancel');
    await commandRefused(id, { kind: 'update', changes: { collection_method: 'send_invoice' } }, 'invalid_state');
    await asRequest((scope) => runSubscriptionCommand(deps, scope, id, { kind: 'update', changes: { metadata: { note: 'after the end' } } }));
    assert.deepEqual((await row(id)).metadata, { note: 'after the end' });
    const events = await env.db.event.findMany({ where: { merchantId: m.id, type: 'subscription.updated' }, orderBy: { createdAt: 'desc' }, take: 1 });
    assert.equal((events[0]?.data as { id?: string } | undefined)?.id, id, 'the metadata change is an event');
  });
});
