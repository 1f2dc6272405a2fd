// Subscriptions through the API: create with every rule of the spec, retrieve, list, update and
// the commands (cancel, uncancel, pause, resume) answered by the workflow through Updates.
import assert from 'node:assert/strict';
import { envAndMerchants, type TestEnv } from '../../support/env';
import { expectError } from '../../support/api';
import { maybeRecordHistory } from '../../support/histories';
import { workflowIds } from '../../../src/temporal/workflow-ids';
import { addMonthsClamped } from '../../../src/billing';
import { SA_CUSTOMER, SA_STATUS } from '../../../src/contracts/search-attributes';
import { attachCard, createCustomer, createPrice, eventually, monthlyPrice, ok, iskSubMerchant, type SubMerchant } from './fixtures';

describe('subscriptions API', function () {
  this.timeout(120_000);
  let env: TestEnv, m: SubMerchant, other: SubMerchant;
  let customer: any;
  let price: any;
  before(async () => {
    [env, m, other] = await envAndMerchants(iskSubMerchant, iskSubMerchant);
    customer = await createCustomer(m, { kennitala: '1201743399' });
    await attachCard(m, customer.id);
    price = await monthlyPrice(m, 1990);
  });

  const create = (body: Record<string, unknown>, opts: { idempotencyKey?: string } = {}) =>
    m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id, quantity: 2 }], ...body }, ...opts });

  const invoicesOf = (subId: string) => env.db.invoice.findMany({ where: { subscriptionId: subId }, orderBy: { createdAt: 'asc' } });

  it('creates an active subscription whose workflow invoices and charges the first period', async () => {
    const res = await create({ metadata: { plan: 'pro' } });
    assert.equal(res.status, 201, res.text);
    const s = res.body;
    assert.match(s.id, /^sub_/);
    assert.deepEqual(
      [
        s.object,
        s.customer,
        s.status,
        s.collection_method,
        s.days_until_due,
        s.currency,
        s.cancel_at_period_end,
        s.trial_start,
        s.trial_end,
        s.pause_collection,
        s.discount,
        s.test_clock,
      ],
      ['subscription', customer.id, 'active', 'charge_automatically', null, 'ISK', false, null, null, null, null, null],
    );
    assert.equal(s.current_period_end, addMonthsClamped(new Date(s.current_period_start), 1).toISOString());
    assert.equal(s.items.length, 1);
    assert.deepEqual([s.items[0].object, s.items[0].price, s.items[0].quantity, s.items[0].subscription], ['subscription_item', price.id, 2, s.id]);
    assert.deepEqual(s.metadata, { plan: 'pro' });
    assert.deepEqual(await ok(m.call('GET', `/v1/subscriptions/${s.id}`)), s);

    const paid = await eventually(async () => {
      const [inv] = await invoicesOf(s.id);
      return inv?.status === 'paid' ? inv : undefined;
    }, 'first invoice paid');
    // The workflow's own bookkeeping (attached, clock sync) is not a change the merchant sees.
    const row = await env.db.subscription.findUniqueOrThrow({ where: { id: s.id } });
    assert.ok(row.workflowAttachedAt, 'the workflow has attached');
    assert.equal((await ok(m.call('GET', `/v1/subscriptions/${s.id}`))).updated_at, s.updated_at);
    assert.equal(Number(paid.amountDue), 3980);
    assert.equal(Number(paid.amountPaid), 3980);
    assert.equal(paid.billingReason, 'subscription_create');
    assert.equal(paid.periodKey, `${s.id}:${s.current_period_start}:subscription_create`);
    assert.match(paid.number ?? '', /^INV-\d{6}$/);
    const invoice = await ok(m.call('GET', `/v1/invoices/${paid.id}`));
    assert.equal(invoice.subscription, s.id);
    assert.deepEqual(
      invoice.lines.map((l: any) => [l.kind, l.quantity, l.unit_amount, l.amount]),
      [['licensed', 2, 1990, 3980]],
    );
    const events = await env.db.event.findMany({ where: { merchantId: m.id }, orderBy: { createdAt: 'asc' } });
    const types = events.map((e) => e.type);
    for (const t of ['subscription.created', 'invoice.finalized', 'payment.succeeded', 'invoice.paid']) assert.ok(types.includes(t), `${t} in ${types.join(',')}`);

    // The workflow: id from the subscription id, search attributes for operators.
    const desc = await env.client.workflow.getHandle(workflowIds.subscription(s.id)).describe();
    assert.equal(desc.status.name, 'RUNNING');
    assert.equal(desc.typedSearchAttributes.get(SA_CUSTOMER), customer.id);
    assert.equal(desc.typedSearchAttributes.get(SA_STATUS), 'active');
  });

  it('a trial gives trialing with trial_start/trial_end and no invoice yet', async () => {
    const s = await ok(create({ trial_period_days: 14 }), 201);
    assert.equal(s.status, 'trialing');
    assert.equal(s.trial_start, s.current_period_start);
    assert.equal(new Date(s.trial_end).getTime() - new Date(s.trial_start).getTime(), 14 * 86_400_000);
    assert.equal(s.current_period_end, s.trial_end);
    assert.equal(s.billing_cycle_anchor, s.trial_end);
    const state = await eventually(async () => {
      const st: any = await env.client.workflow.getHandle(workflowIds.subscription(s.id)).query('state');
      return st.view ? st : undefined;
    }, 'workflow state');
    // Next: the trial_will_end notice three days before the trial ends (docs/subscriptions.md).
    const noticeAt = new Date(new Date(s.trial_end).getTime() - 3 * 86_400_000).toISOString();
    assert.deepEqual([state.next.kind, state.next.reason, state.next.at], ['trial_notice', 'trial_will_end', noticeAt]);
    assert.equal((await invoicesOf(s.id)).length, 0);
  });

  it('enforces the spec rules with their error codes', async () => {
    const eur = await createPrice(m, { type: 'recurring', currency: 'EUR', unit_amount: 500, recurring: { interval: 'month' } });
    const yearly = await createPrice(m, { type: 'recurring', currency: 'ISK', unit_amount: 500, recurring: { interval: 'year' } });
    const oneTime = await createPrice(m, { type: 'one_time', currency: 'ISK', unit_amount: 500 });
    const inactive = await monthlyPrice(m, 100);
    await ok(m.call('PATCH', `/v1/prices/${inactive.id}`, { body: { active: false } }));
    const foreignPrice = await monthlyPrice(other, 100);
    const livePrice = await ok(
      m.live('POST', '/v1/prices', {
        body: {
          product: (await ok(m.live('POST', '/v1/products', { body: { name: 'L' } }), 201)).id,
          type: 'recurring',
          currency: 'ISK',
          unit_amount: 5,
          recurring: { interval: 'month' },
        },
      }),
      201,
    );
    const noCard = await createCustomer(m);
    const foreignCustomer = await createCustomer(other);

    expectError(await create({ items: [{ price: eur.id }, { price: price.id }] }), 400, 'invalid_subscription', 'items');
    expectError(await create({ items: [{ price: price.id }, { price: yearly.id }] }), 400, 'invalid_subscription', 'items');
    expectError(await create({ items: [{ price: price.id }, { price: price.id }] }), 400, 'invalid_subscription', 'items');
    expectError(await create({ items: [{ price: oneTime.id }] }), 400, 'invalid_subscription', 'items[0].price');
    expectError(await create({ items: [{ price: price.id }, { price: oneTime.id }] }), 400, 'invalid_price_type', 'items[1].price');
    expectError(await create({ items: [{ price: inactive.id }] }), 400, 'invalid_subscription', 'items[0].price');
    expectError(await create({ items: [{ price: 'price_nope' }] }), 404, 'resource_not_found', 'items[0].price');
    expectError(await create({ items: [{ price: foreignPrice.id }] }), 404, 'resource_not_found', 'items[0].price');
    expectError(await create({ items: [{ price: livePrice.id }] }), 404, 'resource_not_found', 'items[0].price');
    expectError(await create({ customer: 'cus_nope' }), 404, 'resource_not_found', 'customer');
    expectError(await create({ customer: foreignCustomer.id }), 404, 'resource_not_found', 'customer');
    expectError(await create({ customer: noCard.id }), 400, 'invalid_subscription', 'customer');
    expectError(await create({ customer: noCard.id, collection_method: 'send_invoice' }), 400, 'invalid_subscription', 'customer');
    expectError(await create({ collection_method: 'send_invoice', items: [{ price: eur.id }] }), 400, 'invalid_subscription', 'collection_method');
    expectError(await create({ days_until_due: 10 }), 400, 'validation_failed', 'days_until_due');

    // types, required fields, bounds
    expectError(await m.call('POST', '/v1/subscriptions', { body: { items: [{ price: price.id }] } }), 400, 'validation_failed', 'customer');
    expectError(await create({ items: [] }), 400, 'validation_failed', 'items');
    expectError(await create({ items: 'price_x' }), 400, 'validation_failed', 'items');
    expectError(await create({ items: [{ quantity: 1 }] }), 400, 'validation_failed', 'items[0].price');
    expectError(await create({ items: [{ price: price.id, quantity: '2' }] }), 400, 'validation_failed', 'items[0].quantity');
    expectError(await create({ items: [{ price: price.id, quantity: -1 }] }), 400, 'validation_failed', 'items[0].quantity');
    expectError(await create({ items: [{ price: price.id, included_units: 5 }] }), 400, 'validation_failed', 'items[0].included_units');
    expectError(await create({ trial_period_days: '7' }), 400, 'validation_failed', 'trial_period_days');
    expectError(await create({ trial_period_days: 731 }), 400, 'validation_failed', 'trial_period_days');
    expectError(await create({ collection_method: 'cash' }), 400, 'validation_failed', 'collection_method');
    expectError(await create({ customer: 12 }), 400, 'validation_failed', 'customer');
    expectError(await create({ customer: 'x'.repeat(300) }), 400, 'validation_failed', 'customer');
    expectError(await create({ metadata: { k: 5 } }), 400, 'validation_failed', 'metadata');
    expectError(await create({ metadata: { ['k'.repeat(41)]: 'v' } }), 400, 'validation_failed', 'metadata');
    expectError(await create({ discount: { amount_off: 100, percent_off: 10, duration: 'once' } }), 400, 'validation_failed', 'discount');
    expectError(await create({ discount: { percent_off: 150, duration: 'once' } }), 400, 'validation_failed', 'discount.percent_off');
    expectError(await create({ discount: { amount_off: 100, duration: 'sometimes' } }), 400, 'validation_failed', 'discount.duration');
    expectError(await create({ discount: { amount_off: 100, duration: 'repeating' } }), 400, 'validation_failed', 'discount');
    expectError(await create({ discount: 'ten' }), 400, 'validation_failed', 'discount');
    // nothing was created by any of these
    assert.equal(await env.db.subscription.count({ where: { customerId: noCard.id } }), 0);
  });

  it('lists newest first, filters by customer and status, and isolates tenants and modes', async () => {
    const c2 = await createCustomer(m);
    await attachCard(m, c2.id);
    const a = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: c2.id, items: [{ price: price.id }] } }), 201);
    const b = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: c2.id, items: [{ price: price.id }], trial_period_days: 3 } }), 201);
    const list = await ok(m.call('GET', `/v1/subscriptions?customer=${c2.id}`));
    assert.deepEqual(
      list.data.map((s: any) => s.id),
      [b.id, a.id],
    );
    assert.equal(list.data[0].items.length, 1);
    const trialing = await ok(m.call('GET', `/v1/subscriptions?customer=${c2.id}&status=trialing`));
    assert.deepEqual(
      trialing.data.map((s: any) => s.id),
      [b.id],
    );
    const page = await ok(m.call('GET', `/v1/subscriptions?customer=${c2.id}&limit=1`));
    assert.equal(page.has_more, true);
    const next = await ok(m.call('GET', `/v1/subscriptions?customer=${c2.id}&limit=1&starting_after=${page.data[0].id}`));
    assert.deepEqual(
      next.data.map((s: any) => s.id),
      [a.id],
    );
    expectError(await m.call('GET', '/v1/subscriptions?status=late'), 400, 'validation_failed', 'status');
    expectError(await m.call('GET', '/v1/subscriptions?customer=cus_nope'), 404, 'resource_not_found', 'customer');
    expectError(await other.call('GET', `/v1/subscriptions/${a.id}`), 404, 'resource_missing', 'id');
    expectError(await m.live('GET', `/v1/subscriptions/${a.id}`), 404, 'resource_missing', 'id');
    expectError(await other.call('GET', `/v1/subscriptions?starting_after=${a.id}`), 404, 'resource_missing', 'starting_after');
    expectError(await other.call('POST', `/v1/subscriptions/${a.id}/pause`), 404, 'resource_missing', 'id');
    expectError(await m.live('POST', `/v1/subscriptions/${a.id}/cancel`), 404, 'resource_missing', 'id');
    assert.equal((await ok(m.live('GET', '/v1/subscriptions'))).data.length, 0);
  });

  it('pause, resume, cancel at period end, uncancel and cancel answer with the resulting subscription', async () => {
    const s = await ok(create({}), 201);
    const path = `/v1/subscriptions/${s.id}`;
    expectError(await m.call('POST', `${path}/resume`), 409, 'not_paused', 'id');
    expectError(await m.call('POST', `${path}/uncancel`), 409, 'cannot_uncancel', 'id');

    const paused = await ok(m.call('POST', `${path}/pause`));
    assert.equal(paused.status, 'paused');
    assert.ok(paused.pause_collection?.paused_at);
    expectError(await m.call('POST', `${path}/pause`), 409, 'cannot_pause', 'id');
    const resumed = await ok(m.call('POST', `${path}/resume`));
    assert.deepEqual([resumed.status, resumed.pause_collection], ['active', null]);

    const pending = await ok(m.call('POST', `${path}/cancel`, { body: { at_period_end: true } }));
    assert.deepEqual([pending.status, pending.cancel_at_period_end, pending.ended_at], ['active', true, null]);
    assert.ok(pending.canceled_at);
    const undone = await ok(m.call('POST', `${path}/uncancel`));
    assert.deepEqual([undone.cancel_at_period_end, undone.canceled_at], [false, null]);
    expectError(await m.call('POST', `${path}/cancel`, { body: { at_period_end: 'yes' } }), 400, 'validation_failed', 'at_period_end');

    const canceled = await ok(m.call('POST', `${path}/cancel`));
    assert.equal(canceled.status, 'canceled');
    assert.ok(canceled.ended_at);
    assert.equal(canceled.canceled_at, canceled.ended_at);
    // Safe to repeat; the other commands are refused with their codes.
    assert.equal((await ok(m.call('POST', `${path}/cancel`))).status, 'canceled');
    expectError(await m.call('POST', `${path}/pause`), 409, 'cannot_pause', 'id');
    expectError(await m.call('POST', `${path}/resume`), 409, 'not_paused', 'id');
    expectError(await m.call('POST', `${path}/uncancel`), 409, 'cannot_uncancel', 'id');
    expectError(await m.call('POST', path, { body: { cancel_at_period_end: true } }), 409, 'invalid_state', 'id');
    const meta = await ok(m.call('POST', path, { body: { metadata: { note: 'closed' } } }));
    assert.deepEqual(meta.metadata, { note: 'closed' });

    // Canceled with its first invoice settled: the workflow has nothing left to do.
    const handle = env.client.workflow.getHandle(workflowIds.subscription(s.id));
    assert.deepEqual(await handle.result(), { subscriptionId: s.id, status: 'canceled' });
    await maybeRecordHistory(handle, 'subscription-commands');
    const row = await env.db.subscription.findUnique({ where: { id: s.id } });
    assert.ok(row?.workflowEndedAt);
    // After the workflow ended the answers come from the database, with the same codes.
    assert.equal((await ok(m.call('POST', `${path}/cancel`))).status, 'canceled');
    expectError(await m.call('POST', `${path}/pause`), 409, 'cannot_pause', 'id');
    expectError(await m.call('POST', `${path}/uncancel`), 409, 'cannot_uncancel', 'id');
    expectError(await m.call('POST', `${path}/resume`), 409, 'not_paused', 'id');
    assert.deepEqual((await ok(m.call('POST', path, { body: { metadata: { note: null, by: 'ops' } } }))).metadata, { by: 'ops' });
    expectError(await m.call('POST', path, { body: { discount: null } }), 409, 'invalid_state', 'id');
    const types = (await env.db.event.findMany({ where: { merchantId: m.id, type: { startsWith: 'subscription.' } } })).map((e) => e.type);
    for (const t of ['subscription.paused', 'subscription.resumed', 'subscription.canceled', 'subscription.updated']) assert.ok(types.includes(t), t);
  });

  it('updates discount, collection method and metadata; a trialing subscription can be paused', async () => {
    const s = await ok(create({ trial_period_days: 30, metadata: { a: '1', b: '2' } }), 201);
    const path = `/v1/subscriptions/${s.id}`;
    const u = await ok(m.call('POST', path, { body: { discount: { percent_off: 25, duration: 'forever' }, metadata: { a: null, c: '3' } } }));
    assert.deepEqual(u.discount, { amount_off: null, percent_off: 25, duration: 'forever', duration_in_months: null, start: s.trial_end });
    assert.deepEqual(u.metadata, { b: '2', c: '3' });
    const sendInvoice = await ok(m.call('POST', path, { body: { collection_method: 'send_invoice', days_until_due: 10 } }));
    assert.deepEqual([sendInvoice.collection_method, sendInvoice.days_until_due], ['send_invoice', 10]);
    const back = await ok(m.call('POST', path, { body: { collection_method: 'charge_automatically' } }));
    assert.deepEqual([back.collection_method, back.days_until_due], ['charge_automatically', null]);
    assert.equal((await ok(m.call('POST', path, { body: { discount: null } }))).discount, null);
    expectError(await m.call('POST', path, { body: { discount: { amount_off: 0, duration: 'once' } } }), 400, 'validation_failed', 'discount.amount_off');
    expectError(await m.call('POST', path, { body: { days_until_due: 3 } }), 400, 'validation_failed', 'days_until_due');
    expectError(await m.call('POST', path, { body: { cancel_at_period_end: 'no' } }), 400, 'validation_failed', 'cancel_at_period_end');
    const paused = await ok(m.call('POST', `${path}/pause`));
    assert.equal(paused.status, 'paused');
    assert.equal((await ok(m.call('POST', `${path}/resume`))).status, 'trialing');
  });

  it('replays a command sent twice with the same Idempotency-Key', async () => {
    const s = await ok(create({}), 201);
    const first = await m.call('POST', `/v1/subscriptions/${s.id}/pause`, { idempotencyKey: `pause-${s.id}` });
    const second = await m.call('POST', `/v1/subscriptions/${s.id}/pause`, { idempotencyKey: `pause-${s.id}` });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(second.body, first.body);
    assert.equal(await env.db.subscriptionCommand.count({ where: { subscriptionId: s.id, kind: 'pause' } }), 1);
  });
});
