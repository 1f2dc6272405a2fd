// The test-clock wake time (issue 28) off the renewal's hot path, at the domain level with no
// workflow running, counting the statements sent at the `pg` driver (as bench/servers/billing-worker.ts
// counts them):
//  - recording a wake time the view already carries (read with it) sends no statement at all;
//    a changed one sends one UPDATE, after which a fresh view carries it;
//  - a renewal that acknowledges its clock records the next step's clock time in the
//    acknowledgement's own UPDATE: no other statement writes clock_wake_at, and recording the view
//    it returns sends nothing;
//  - a command's clock time is read only for a subscription on a clock.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { testEnv, type TestEnv } from '../support/env';
import { attachCard, attachToClock, createClock, createCustomer, monthlyPrice, subMerchant, TEST_CARDS, type SubMerchant } from '../api/subscriptions/fixtures';
import { scopedDb, type Tenant } from '../../src/db/tenancy';
import { createSubscription } from '../../src/domain/subscriptions/create-subscription';
import { chargeSubscriptionInvoice } from '../../src/domain/subscriptions/steps/charge-invoice';
import { finalizeSubscriptionInvoice } from '../../src/domain/subscriptions/steps/finalize-invoice';
import { runSubscriptionSteps } from '../../src/domain/subscriptions/steps/run-steps';
import { loadSubscriptionView } from '../../src/domain/subscriptions/subscription-view';
import { clockWakeOf, commandTimeOnClock, recordClockWake } from '../../src/domain/subscriptions/clock-wake';
import type { SubscriptionRef } from '../../src/contracts/subscriptions';

type QueryFn = (...args: unknown[]) => unknown;

const context = new AsyncLocalStorage<object>();

/**
 * The statements `fn` sends through any pg client of this process (texts, whitespace collapsed).
 * Only calls made in `fn`'s own async context count: the suite's in-process worker keeps sending
 * statements of its own (other tests' workflows, the statistics guard), which a count of every
 * query while `fn` runs would pick up.
 */
async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  const mine = {};
  proto.query = function countedQuery(this: unknown, ...args: unknown[]) {
    if (context.getStore() === mine) {
      const first = args[0] as string | { text?: string } | undefined;
      statements.push((typeof first === 'string' ? first : (first?.text ?? '')).replace(/\s+/g, ' ').trim());
    }
    return original.apply(this, args);
  };
  try {
    return { result: await context.run(mine, fn), statements };
  } finally {
    proto.query = original;
  }
}

const writesWake = (s: string) => /^UPDATE subscriptions SET .*clock_wake_at/i.test(s);

describe('domain: the test-clock wake time costs a renewal no statement of its own', function () {
  this.timeout(120_000);
  let env: TestEnv;
  let m: SubMerchant;
  let tenant: Tenant;
  let price: any;
  before(async () => {
    env = await testEnv();
    m = await subMerchant(env, { currency: 'ISK' });
    tenant = { merchantId: m.id, mode: 'test' };
    price = await monthlyPrice(m, 1990);
  });

  /** A subscription made by the domain code with no workflow, its first invoice finalized and paid at its start; on a new clock when `onClock`. */
  async function paidSubscription(onClock: boolean): Promise<{ ref: SubscriptionRef; periodEnd: string }> {
    const customer = await createCustomer(m);
    if (onClock) {
      const clock = await createClock(m, '2025-03-10T08:00:00.000Z');
      await attachToClock(m, clock.id, customer.id);
    }
    await attachCard(m, customer.id, TEST_CARDS.visa);
    const created = await scopedDb(env.db, tenant).$transaction((tx) => createSubscription(tx, tenant, { customer: customer.id, items: [{ price: price.id }] }, new Date()), {
      timeout: 30_000,
    });
    const ref = { subscriptionId: created.subscription.id, merchantId: m.id, mode: 'test' as const };
    const [first] = await env.db.invoice.findMany({ where: { subscriptionId: ref.subscriptionId } });
    assert.ok(first, 'the first invoice was built');
    const row = await env.db.subscription.findUniqueOrThrow({ where: { id: ref.subscriptionId } });
    const now = row.currentPeriodStart.toISOString();
    await finalizeSubscriptionInvoice(env.db, { ...ref, invoiceId: first.id, now });
    await chargeSubscriptionInvoice({ db: env.db, gateways: env.gateways }, { ...ref, invoiceId: first.id, attempt: 1, manual: false, now });
    return { ref, periodEnd: row.currentPeriodEnd.toISOString() };
  }

  const storedWake = async (ref: SubscriptionRef) => (await env.db.subscription.findUniqueOrThrow({ where: { id: ref.subscriptionId } })).clockWakeAt?.toISOString() ?? null;

  it('writes a changed wake time once, and an unchanged one not at all', async () => {
    const { ref, periodEnd } = await paidSubscription(true);
    const view = await loadSubscriptionView(env.db, ref);
    assert.ok(view && view.testClockId, 'a clock subscription');
    assert.equal(view.clockWakeAt, null, 'nothing recorded yet');
    assert.equal(clockWakeOf(view)?.toISOString(), periodEnd, 'paid: next due at the period end');

    const changed = await statementsOf(() => recordClockWake(env.db, ref, view));
    assert.equal(changed.statements.length, 1, `one statement: ${changed.statements.join(' | ')}`);
    assert.ok(writesWake(changed.statements[0]!), changed.statements[0]);
    assert.equal(changed.result?.clockWakeAt, periodEnd, 'the view returned carries what was written');
    assert.equal(await storedWake(ref), periodEnd);

    const again = await loadSubscriptionView(env.db, ref);
    assert.equal(again?.clockWakeAt, periodEnd, 'a fresh view carries the stored wake time');
    const unchanged = await statementsOf(() => recordClockWake(env.db, ref, again));
    assert.deepEqual(unchanged.statements, [], 'an unchanged wake time sends no statement');
    assert.deepEqual(unchanged.result, again);

    // A command clears it (send-subscription-command.ts): the next record writes it again.
    await env.db.$executeRaw`UPDATE subscriptions SET clock_wake_at = NULL WHERE id = ${ref.subscriptionId}`;
    const cleared = await loadSubscriptionView(env.db, ref);
    const rewritten = await statementsOf(() => recordClockWake(env.db, ref, cleared));
    assert.equal(rewritten.statements.filter(writesWake).length, 1);
    assert.equal(await storedWake(ref), periodEnd);
  });

  it('records the next wake time in the renewal’s clock acknowledgement, with no statement of its own', async () => {
    const { ref, periodEnd } = await paidSubscription(true);
    await recordClockWake(env.db, ref, await loadSubscriptionView(env.db, ref));
    assert.equal(await storedWake(ref), periodEnd);

    const renewal = await statementsOf(() =>
      runSubscriptionSteps(
        { db: env.db, gateways: env.gateways, metrics: env.metrics, dispatch: async () => undefined },
        { ...ref, step: { kind: 'period_end', periodEnd }, now: periodEnd, trialNotices: true, clockTime: periodEnd },
      ),
    );
    const out = renewal.result;
    assert.ok(out.view, 'the renewal returned its view');
    assert.equal(out.clockSynced, out.view.testClockId, 'nothing more due by the clock time: acknowledged');
    const nextEnd = out.view.currentPeriodEnd;
    assert.ok(Date.parse(nextEnd) > Date.parse(periodEnd), 'the period rolled');
    assert.deepEqual(out.view.invoices, [], 'the renewal invoice was paid');
    const wakeWrites = renewal.statements.filter(writesWake);
    assert.equal(wakeWrites.length, 1, `clock_wake_at written by one statement: ${wakeWrites.join(' | ')}`);
    assert.match(wakeWrites[0]!, /clock_synced_to/, 'the acknowledgement’s UPDATE');
    assert.equal(out.view.clockWakeAt, nextEnd, 'the view carries the next period end');
    assert.equal(await storedWake(ref), nextEnd);

    const recorded = await statementsOf(() => recordClockWake(env.db, ref, out.view));
    assert.deepEqual(recorded.statements, [], 'the activity’s record after the renewal sends nothing');
    const fresh = await loadSubscriptionView(env.db, ref);
    assert.deepEqual(out.view, fresh, 'the view returned is what a fresh read gives');
  });

  it('reads the clock time for a command only on a clock', async () => {
    const off = await paidSubscription(false);
    const now = '2026-01-01T00:00:00.000Z';
    const none = await statementsOf(() => commandTimeOnClock(env.db, { ...off.ref, testClockId: null }, now));
    assert.equal(none.result, now);
    assert.deepEqual(none.statements, [], 'no clock: no query');

    const on = await paidSubscription(true);
    const view = await loadSubscriptionView(env.db, on.ref);
    const early = '2025-03-01T00:00:00.000Z';
    const read = await statementsOf(() => commandTimeOnClock(env.db, { ...on.ref, testClockId: view!.testClockId }, early));
    assert.equal(read.statements.length, 1);
    assert.equal(read.result, '2025-03-10T08:00:00.000Z', 'the ready clock’s time, later than the workflow’s');
    // An input from a workflow run before the clock was passed (no testClockId): read as on a clock.
    const legacy = await statementsOf(() => commandTimeOnClock(env.db, on.ref, early));
    assert.equal(legacy.result, '2025-03-10T08:00:00.000Z');
    assert.equal(legacy.statements.length, 1);
  });
});
