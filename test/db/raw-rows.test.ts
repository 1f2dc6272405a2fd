// Hot paths lock a row and read it with one raw `SELECT * … FOR UPDATE` (src/db/raw-rows.ts):
// the row mapped by camelRow must equal what the model query gives, field for field and type
// for type, for every model read that way. A column added later with a name that is not the
// snake_case of its field fails here.
import assert from 'node:assert/strict';
import { testEnv, type TestEnv } from '../support/env';
import { camelRow } from '../../src/db/raw-rows';
import { lockedSubscription } from '../../src/domain/subscriptions/lock-subscription';
import { scopedDb } from '../../src/db/tenancy';
import { attachCard, createCustomer, monthlyPrice, ok, subMerchant } from '../api/subscriptions/fixtures';

describe('raw rows in the shape of the models', function () {
  this.timeout(120_000);
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('SELECT * mapped by camelRow equals the model query (subscriptions, invoices)', async () => {
    const m = await subMerchant(env, { currency: 'ISK' });
    const customer = await createCustomer(m);
    await attachCard(m, customer.id);
    const price = await monthlyPrice(m, 1500);
    const s = await ok(m.call('POST', '/v1/subscriptions', { body: { customer: customer.id, items: [{ price: price.id }], metadata: { plan: 'gold' } } }), 201);
    const tenant = { merchantId: m.id, mode: 'test' as const };
    const scoped = scopedDb(env.db, tenant);

    // Each pair is read in one transaction with the row locked: the subscription's workflow is
    // finalizing and charging the first invoice meanwhile, and must not change it between the reads.
    const [sub, model] = await scoped.$transaction(async (tx) => [await lockedSubscription(tx, tenant, s.id), await tx.subscription.findFirst({ where: { id: s.id } })]);
    assert.deepEqual(sub, model);
    assert.equal(await scoped.$transaction((tx) => lockedSubscription(tx, { merchantId: m.id, mode: 'live' }, s.id)), null, 'the other mode');

    const { id: invoiceId } = await env.db.invoice.findFirstOrThrow({ where: { subscriptionId: s.id }, select: { id: true } });
    const [raw, invoice] = await env.db.$transaction(async (tx) => [
      (await tx.$queryRaw<Array<Record<string, unknown>>>`SELECT * FROM invoices WHERE id = ${invoiceId} FOR UPDATE`)[0]!,
      await tx.invoice.findUniqueOrThrow({ where: { id: invoiceId } }),
    ]);
    assert.deepEqual(camelRow(raw), invoice);
    assert.equal(typeof invoice.amountDue, 'bigint');
  });
});
