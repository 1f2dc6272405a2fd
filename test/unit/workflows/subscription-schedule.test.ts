// The subscription workflow's scheduling decisions and the dunning schedule, table-driven and
// pure (no Temporal, no database): given a view and "now", what is due next and when.
import assert from 'node:assert/strict';
import type { InvoiceView, SubscriptionView } from '../../../src/contracts/subscriptions';
import { isDue, isFinished, nextStep, pendingSteps, shouldAcknowledgeClock, waitMs } from '../../../src/contracts/subscription-schedule';
import {
  claimDueDate,
  claimExpiresAt,
  DUNNING_RETRY_DELAYS_DAYS,
  MAX_CHARGE_ATTEMPTS,
  nextChargeAttemptAt,
  nextClaimCheckAt,
  statusAfterCollection,
} from '../../../src/domain/subscriptions/dunning';

const T = (iso: string) => Date.parse(iso);

function view(over: Partial<SubscriptionView> = {}): SubscriptionView {
  return {
    id: 'sub_1',
    merchantId: 'merch_1',
    mode: 'test',
    customerId: 'cus_1',
    status: 'active',
    collectionMethod: 'charge_automatically',
    interval: 'month',
    intervalCount: 1,
    currentPeriodStart: '2025-01-31T00:00:00.000Z',
    currentPeriodEnd: '2025-02-28T00:00:00.000Z',
    trialEnd: null,
    cancelAtPeriodEnd: false,
    pausedAt: null,
    testClockId: null,
    clockTime: null,
    clockDeleted: false,
    clockSyncedTo: null,
    invoices: [],
    ...over,
  };
}

function inv(over: Partial<InvoiceView> = {}): InvoiceView {
  return { id: 'inv_1', status: 'open', collectionMethod: 'charge_automatically', attemptCount: 0, nextActionAt: null, ...over };
}

describe('subscription schedule: what is due next', () => {
  const cases: Array<{ name: string; v: SubscriptionView; expect: { kind: string; reason: string; at: string | null; attempt?: number; invoiceId?: string } | null }> = [
    { name: 'active: renewal at period end', v: view(), expect: { kind: 'period_end', reason: 'renewal', at: '2025-02-28T00:00:00.000Z' } },
    {
      name: 'trialing: trial end (the trial is the current period)',
      v: view({ status: 'trialing', currentPeriodEnd: '2025-02-14T00:00:00.000Z', trialEnd: '2025-02-14T00:00:00.000Z' }),
      expect: { kind: 'period_end', reason: 'trial_end', at: '2025-02-14T00:00:00.000Z' },
    },
    {
      name: 'cancel pending: cancel at period end',
      v: view({ cancelAtPeriodEnd: true }),
      expect: { kind: 'period_end', reason: 'cancel_at_period_end', at: '2025-02-28T00:00:00.000Z' },
    },
    {
      name: 'trialing with a pending cancel: cancel at trial end',
      v: view({ status: 'trialing', cancelAtPeriodEnd: true, trialEnd: '2025-02-28T00:00:00.000Z' }),
      expect: { kind: 'period_end', reason: 'cancel_at_period_end', at: '2025-02-28T00:00:00.000Z' },
    },
    {
      name: 'paused: periods roll without invoices',
      v: view({ status: 'paused', pausedAt: '2025-02-01T00:00:00.000Z' }),
      expect: { kind: 'period_end', reason: 'roll_without_invoice', at: '2025-02-28T00:00:00.000Z' },
    },
    {
      name: 'unpaid: periods roll without invoices',
      v: view({ status: 'unpaid' }),
      expect: { kind: 'period_end', reason: 'roll_without_invoice', at: '2025-02-28T00:00:00.000Z' },
    },
    { name: 'past_due: still renews', v: view({ status: 'past_due' }), expect: { kind: 'period_end', reason: 'renewal', at: '2025-02-28T00:00:00.000Z' } },
    { name: 'canceled, nothing to collect: finished', v: view({ status: 'canceled' }), expect: null },
    {
      name: 'a draft invoice is finalized at once, before anything else',
      v: view({ invoices: [inv({ status: 'open', nextActionAt: '2025-01-01T00:00:00.000Z', attemptCount: 1 }), inv({ id: 'inv_2', status: 'draft' })] }),
      expect: { kind: 'finalize_invoice', reason: 'draft_invoice', at: null, invoiceId: 'inv_2' },
    },
    {
      name: 'first charge attempt',
      v: view({ invoices: [inv({ nextActionAt: '2025-01-31T00:00:00.000Z' })] }),
      expect: { kind: 'charge_invoice', reason: 'first_attempt', at: '2025-01-31T00:00:00.000Z', attempt: 1 },
    },
    {
      name: 'dunning retry before the period end',
      v: view({ status: 'past_due', invoices: [inv({ attemptCount: 2, nextActionAt: '2025-02-08T00:00:00.000Z' })] }),
      expect: { kind: 'charge_invoice', reason: 'dunning_retry', at: '2025-02-08T00:00:00.000Z', attempt: 3 },
    },
    {
      name: 'a retry after the period end waits: the renewal comes first',
      v: view({ status: 'past_due', invoices: [inv({ attemptCount: 3, nextActionAt: '2025-03-05T00:00:00.000Z' })] }),
      expect: { kind: 'period_end', reason: 'renewal', at: '2025-02-28T00:00:00.000Z' },
    },
    {
      name: 'tie between a retry and the period end: the invoice goes first',
      v: view({ status: 'past_due', invoices: [inv({ attemptCount: 1, nextActionAt: '2025-02-28T00:00:00.000Z' })] }),
      expect: { kind: 'charge_invoice', reason: 'dunning_retry', at: '2025-02-28T00:00:00.000Z', attempt: 2 },
    },
    {
      name: 'send_invoice: claim check on its due date',
      v: view({ collectionMethod: 'send_invoice', invoices: [inv({ collectionMethod: 'send_invoice', nextActionAt: '2025-02-14T00:00:00.000Z' })] }),
      expect: { kind: 'check_bank_claim', reason: 'claim_check', at: '2025-02-14T00:00:00.000Z' },
    },
    {
      name: 'open invoice without automatic work (dunning exhausted) is not a step',
      v: view({ status: 'canceled', invoices: [inv({ attemptCount: 4, nextActionAt: null })] }),
      expect: null,
    },
    {
      name: 'canceled with an invoice still being collected: collection goes on',
      v: view({ status: 'canceled', invoices: [inv({ attemptCount: 1, nextActionAt: '2025-03-03T00:00:00.000Z' })] }),
      expect: { kind: 'charge_invoice', reason: 'dunning_retry', at: '2025-03-03T00:00:00.000Z', attempt: 2 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const step = nextStep(c.v);
      if (c.expect === null) {
        assert.equal(step, null);
        return;
      }
      assert.ok(step);
      assert.equal(step.kind, c.expect.kind);
      assert.equal(step.reason, c.expect.reason);
      if (c.expect.at === null) assert.equal(step.at, Number.NEGATIVE_INFINITY);
      else assert.equal(step.at, T(c.expect.at));
      if (c.expect.attempt !== undefined) assert.equal((step as { attempt: number }).attempt, c.expect.attempt);
      if (c.expect.invoiceId !== undefined) assert.equal((step as { invoiceId: string }).invoiceId, c.expect.invoiceId);
    });
  }

  it('orders every pending step, oldest invoice first on equal times', () => {
    const v = view({
      status: 'past_due',
      invoices: [inv({ id: 'a', attemptCount: 1, nextActionAt: '2025-02-10T00:00:00.000Z' }), inv({ id: 'b', attemptCount: 1, nextActionAt: '2025-02-10T00:00:00.000Z' })],
    });
    assert.deepEqual(
      pendingSteps(v).map((s) => `${s.kind}:${'invoiceId' in s ? s.invoiceId : s.reason}`),
      ['charge_invoice:a', 'charge_invoice:b', 'period_end:renewal'],
    );
  });

  it('isDue / waitMs / isFinished', () => {
    const step = nextStep(view())!;
    assert.equal(isDue(step, T('2025-02-27T23:59:59.999Z')), false);
    assert.equal(isDue(step, T('2025-02-28T00:00:00.000Z')), true);
    assert.equal(waitMs(step, T('2025-02-27T23:59:59.000Z')), 1000);
    assert.equal(waitMs(step, T('2025-03-01T00:00:00.000Z')), 0);
    assert.equal(isFinished(view()), false);
    assert.equal(isFinished(view({ status: 'canceled' })), true);
    assert.equal(isFinished(view({ status: 'canceled', invoices: [inv({ status: 'draft' })] })), false);
    // canceled on a deleted test clock: its pending retries would never come
    const stuck = { status: 'canceled' as const, testClockId: 'clock_1', invoices: [inv({ attemptCount: 1, nextActionAt: '2025-03-03T00:00:00.000Z' })] };
    assert.equal(isFinished(view({ ...stuck, clockDeleted: true })), true);
    assert.equal(isFinished(view({ ...stuck, clockDeleted: false })), false);
  });

  describe('trial notice (subscription.trial_will_end)', () => {
    const on = { trialNotices: true };
    const trialing = (over: Partial<SubscriptionView> = {}) =>
      view({ status: 'trialing', currentPeriodStart: '2025-02-01T00:00:00.000Z', currentPeriodEnd: '2025-02-15T00:00:00.000Z', trialEnd: '2025-02-15T00:00:00.000Z', ...over });
    const cases: Array<{ name: string; v: SubscriptionView; opts: { trialNotices?: boolean }; expect: [string, string, string] }> = [
      { name: 'three days before trial end', v: trialing(), opts: on, expect: ['trial_notice', 'trial_will_end', '2025-02-12T00:00:00.000Z'] },
      { name: 'histories from before the notice: not scheduled', v: trialing(), opts: {}, expect: ['period_end', 'trial_end', '2025-02-15T00:00:00.000Z'] },
      {
        name: 'already sent for this trial end',
        v: trialing({ trialWillEndNotifiedFor: '2025-02-15T00:00:00.000Z' }),
        opts: on,
        expect: ['period_end', 'trial_end', '2025-02-15T00:00:00.000Z'],
      },
      {
        name: 'sent for another trial end: due again',
        v: trialing({ trialWillEndNotifiedFor: '2025-02-10T00:00:00.000Z' }),
        opts: on,
        expect: ['trial_notice', 'trial_will_end', '2025-02-12T00:00:00.000Z'],
      },
      {
        name: 'a one-day trial: due before it began, so at once',
        v: trialing({ currentPeriodEnd: '2025-02-02T00:00:00.000Z', trialEnd: '2025-02-02T00:00:00.000Z' }),
        opts: on,
        expect: ['trial_notice', 'trial_will_end', '2025-01-30T00:00:00.000Z'],
      },
      {
        name: 'paused during the trial: no notice while paused',
        v: trialing({ status: 'paused', pausedAt: '2025-02-03T00:00:00.000Z' }),
        opts: on,
        expect: ['period_end', 'roll_without_invoice', '2025-02-15T00:00:00.000Z'],
      },
      { name: 'active (trial over): none', v: view({ trialEnd: '2025-01-31T00:00:00.000Z' }), opts: on, expect: ['period_end', 'renewal', '2025-02-28T00:00:00.000Z'] },
      {
        name: 'exactly three days: the notice goes before the trial end on a tie',
        v: trialing({ currentPeriodEnd: '2025-02-04T00:00:00.000Z', trialEnd: '2025-02-04T00:00:00.000Z', invoices: [] }),
        opts: on,
        expect: ['trial_notice', 'trial_will_end', '2025-02-01T00:00:00.000Z'],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const s = nextStep(c.v, c.opts)!;
        assert.deepEqual([s.kind, s.reason, new Date(s.at).toISOString()], c.expect);
      });
    }
    it('a clock past the notice time is not acknowledged until the notice is sent', () => {
      const v = trialing({ clockSyncedTo: '2025-02-01T00:00:00.000Z' });
      assert.equal(shouldAcknowledgeClock(v, T('2025-02-13T00:00:00.000Z'), on), false);
      assert.equal(shouldAcknowledgeClock(v, T('2025-02-13T00:00:00.000Z')), true);
      assert.equal(shouldAcknowledgeClock({ ...v, trialWillEndNotifiedFor: '2025-02-15T00:00:00.000Z' }, T('2025-02-13T00:00:00.000Z'), on), true);
    });
  });

  const clockCases: Array<{ name: string; v: SubscriptionView; clock: string; expect: boolean }> = [
    { name: 'nothing due up to the clock, not yet acknowledged', v: view({ clockSyncedTo: '2025-02-01T00:00:00.000Z' }), clock: '2025-02-10T00:00:00.000Z', expect: true },
    { name: 'already acknowledged that time', v: view({ clockSyncedTo: '2025-02-10T00:00:00.000Z' }), clock: '2025-02-10T00:00:00.000Z', expect: false },
    { name: 'the period end is due at the clock time: work first', v: view({ clockSyncedTo: null }), clock: '2025-02-28T00:00:00.000Z', expect: false },
    {
      name: 'a retry is due before the clock: work first',
      v: view({ invoices: [inv({ attemptCount: 1, nextActionAt: '2025-02-03T00:00:00.000Z' })] }),
      clock: '2025-02-10T00:00:00.000Z',
      expect: false,
    },
    { name: 'never acknowledged, nothing due', v: view(), clock: '2025-02-01T00:00:00.000Z', expect: true },
    { name: 'canceled and settled: acknowledges', v: view({ status: 'canceled' }), clock: '2026-01-01T00:00:00.000Z', expect: true },
  ];
  for (const c of clockCases) {
    it(`test clock: ${c.name}`, () => assert.equal(shouldAcknowledgeClock(c.v, T(c.clock)), c.expect));
  }
});

describe('dunning schedule', () => {
  const day = 86_400_000;
  const first = new Date('2025-03-01T10:00:00.000Z');

  it('retries 3, 5 and 7 days after each failure: attempts on days 0, 3, 8, 15, then none', () => {
    assert.deepEqual(DUNNING_RETRY_DELAYS_DAYS, [3, 5, 7]);
    assert.equal(MAX_CHARGE_ATTEMPTS, 4);
    let at = first;
    const days: number[] = [0];
    for (let made = 1; ; made++) {
      const next = nextChargeAttemptAt(at, made);
      if (next === null) {
        assert.equal(made, MAX_CHARGE_ATTEMPTS);
        break;
      }
      days.push((next.getTime() - first.getTime()) / day);
      at = next;
    }
    assert.deepEqual(days, [0, 3, 8, 15]);
    assert.throws(() => nextChargeAttemptAt(first, 0), RangeError);
  });

  it('bank claims: due after days_until_due, checked on the due date, then daily until expiry 30 days later', () => {
    const due = claimDueDate(first, 14);
    assert.equal(due.toISOString(), '2025-03-15T10:00:00.000Z');
    const expires = claimExpiresAt(due);
    assert.equal(expires.toISOString(), '2025-04-14T10:00:00.000Z');
    const table: Array<[string, string | null]> = [
      ['2025-03-01T10:00:00.000Z', '2025-03-15T10:00:00.000Z'],
      ['2025-03-15T10:00:00.000Z', '2025-03-16T10:00:00.000Z'],
      ['2025-04-14T00:00:00.000Z', '2025-04-14T10:00:00.000Z'],
      ['2025-04-14T10:00:00.000Z', null],
      ['2025-05-01T00:00:00.000Z', null],
    ];
    for (const [now, expected] of table) {
      assert.equal(nextClaimCheckAt(new Date(now), due, expires)?.toISOString() ?? null, expected, now);
    }
  });

  it('subscription status follows its invoices; trialing, paused and canceled do not move', () => {
    const table: Array<[Parameters<typeof statusAfterCollection>[0], boolean, boolean, string]> = [
      ['active', false, false, 'active'],
      ['active', false, true, 'past_due'],
      ['past_due', false, false, 'active'],
      ['past_due', true, true, 'unpaid'],
      ['unpaid', false, true, 'past_due'],
      ['unpaid', false, false, 'active'],
      ['trialing', true, true, 'trialing'],
      ['paused', false, true, 'paused'],
      ['canceled', true, false, 'canceled'],
    ];
    for (const [current, uncollectible, overdue, expected] of table) {
      assert.equal(statusAfterCollection(current, { uncollectible, overdue }), expected, `${current} ${uncollectible} ${overdue}`);
    }
  });
});
