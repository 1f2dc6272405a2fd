// Subscription and test-clock activities: thin wrappers over src/domain/subscriptions and
// src/domain/test-clocks. Every activity is idempotent (docs/subscriptions.md "Exactly once"):
// period steps are keyed by the period end, invoices by their period key, charges by
// `${invoiceId}:attempt:${n}`, bank claims by `${invoiceId}:claim`, commands by their update id.
// Each returns the subscription's view after the step, so the workflow needs no second read.
// runSubscriptionSteps runs a due step and then the invoice steps due at the same instant (a
// renewal: the period end with its invoice's finalization in one transaction, then the first
// charge) in one activity, reading the schedule exactly as the workflow does
// (workflows/subscription/schedule.ts, pure), and acknowledges the test clock when nothing more
// is due by its time: one local activity in one workflow task per renewal.
// Test clocks (issue 28): every activity that hands the workflow a view of a clock subscription
// also records from which clock time it has something due (`clock_wake_at`, the schedule's next
// step); an advance wakes only the subscriptions due by the new time (notifyClockSubscriptions),
// so its work grows with the subscriptions that bill, not with all of the clock's. A command
// (and a manual pay) runs at the clock's time, which a subscription not woken by the last
// advances has not been told.
import { Context } from '@temporalio/activity';
import type { Db } from '../src/db/client';
import type { ModeGateways } from '../src/gateways';
import type { Config } from '../src/config';
import { datingEventsAt, dispatchEventsFromActivity, type RecordedEvent } from '../src/events';
import { clockSubscriptionsPage, completeAdvanceIfCaughtUp, clockFrozenTime } from '../src/domain/test-clocks/clock-progress';
import { loadSubscriptionView } from '../src/domain/subscriptions/subscription-view';
import { attachWorkflow, markClockSynced, recordClockSync, recordWorkflowEnded } from '../src/domain/subscriptions/workflow-lifecycle';
import { applySubscriptionCommand } from '../src/domain/subscriptions/apply-command';
import { refusalOf } from '../src/domain/refusals';
import type { Refusal } from '../src/contracts/refusal';
import { runPeriodEnd } from '../src/domain/subscriptions/period-end';
import { sendTrialWillEnd } from '../src/domain/subscriptions/trial-notice';
import { chargeSubscriptionInvoice, checkInvoiceBankClaim, finalizeSubscriptionInvoice } from '../src/domain/subscriptions/collect-invoice';
import { reconcileSubscriptions } from '../src/domain/subscriptions/reconcile-subscriptions';
import { testClockWorkflowClient } from '../src/temporal/test-clock-workflow';
import { isDue, isInvoiceStep, nextStep, shouldAcknowledgeClock, stepRequest } from '../workflows/subscription/schedule';
import { workflowClientsOfActivity } from './workflow-clients';
import { countBillingStep } from './observe';
import type { Metrics } from '../src/observability/metrics';
import {
  type ApplyCommandInput,
  type ChargeStepInput,
  type ClockNotifyResult,
  type ClockProgressResult,
  type ClockSyncInput,
  type CommandActivityResult,
  type InvoiceStepInput,
  type PayInvoiceInput,
  type PeriodEndInput,
  type ReconcileSubscriptionsInput,
  type ReconcileSubscriptionsResult,
  type RunStepsInput,
  type StepRequest,
  type SubscriptionRef,
  type SubscriptionView,
  type TestClockWorkflowInput,
  type TrialNoticeInput,
} from '../src/contracts/subscriptions';

export interface SubscriptionActivityDeps {
  db: Db;
  config: Config;
  gateways: ModeGateways;
  log: (line: string) => void;
  metrics: Metrics;
}

const NOTIFY_PAGE = 200;
/** clock_wake_at of a subscription with nothing scheduled (only a command can give it a step, and a command clears it first). */
const NEVER = new Date('9999-12-31T00:00:00.000Z');
/**
 * Billing steps heartbeat while they work, so a worker that dies mid-step is noticed within the
 * heartbeat timeout (15 s), counted from the activity's start. No heartbeat at the start: the SDK
 * sends a first heartbeat to the server at once, and most steps finish long before the first
 * interval (one call to the server less per renewal; docs/benchmarks.md). A renewal that runs as
 * a local activity (workflows/subscription.ts) does not heartbeat.
 */
const HEARTBEAT_EVERY_MS = 2_000;

async function heartbeating<T>(fn: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  // A local activity has no heartbeat: its worker keeps the workflow task alive instead.
  if (ctx.info.isLocal) return fn();
  const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
const NOTIFY_PARALLEL = 25;
/** At most this many steps in one runSubscriptionSteps (a renewal takes three). */
const MAX_STEPS_PER_ACTIVITY = 6;
/** Nudges of one clock from this process are sent at most this often (the last one always goes). */
const NUDGE_COALESCE_MS = 100;

/** A refused command (ApiError: cannot_pause, invalid_subscription, …) is a result, not a failure: nothing to retry. */
function refusalOrThrow(err: unknown): Refusal {
  const refusal = refusalOf(err);
  if (!refusal) throw err;
  return refusal;
}

export function createSubscriptionActivities(deps: SubscriptionActivityDeps) {
  const { db } = deps;
  /** The steps that call the acquirer or the bank get the gateways too. */
  const steps = { db, gateways: deps.gateways };
  const workflows = workflowClientsOfActivity();
  const dispatch = async (events: RecordedEvent[]) => {
    if (events.length > 0) await dispatchEventsFromActivity(db, events, deps.log);
  };
  /**
   * Wakes the clock's workflow so it recounts (a finished run ignores it: the next advance
   * recounts anyway). Many subscriptions of one clock catch up together: their nudges from this
   * process are coalesced into one per NUDGE_COALESCE_MS, sent after the activity returns (a
   * nudge lost with a dying process is covered by the clock workflow's periodic recount).
   */
  const nudging = new Set<string>();
  const nudgeClock = async (testClockId: string) => {
    if (nudging.has(testClockId)) return;
    nudging.add(testClockId);
    // The activity's context is gone when the timer fires: take its client now.
    const ctx = Context.current();
    const clocks = testClockWorkflowClient({ client: async () => ctx.client, taskQueue: ctx.info.taskQueue });
    setTimeout(() => {
      nudging.delete(testClockId);
      clocks.signalSubscriptionSynced(testClockId).catch(() => {
        // unreachable now: the clock's workflow recounts on its next wake-up anyway
      });
    }, NUDGE_COALESCE_MS).unref();
  };
  /**
   * Records the clock time from which a clock subscription has something due, as the view the
   * workflow continues with says (the schedule with trial notices: the earliest it can be). A
   * view whose next step is due at once (a draft invoice) records null: woken by every advance.
   */
  const recordWake = async (ref: SubscriptionRef, v: SubscriptionView | null): Promise<SubscriptionView | null> => {
    if (v === null || v.testClockId === null) return v;
    const step = nextStep(v, { trialNotices: true });
    const wake = step === null ? NEVER : Number.isFinite(step.at) ? new Date(step.at) : null;
    await db.$executeRaw`UPDATE subscriptions SET clock_wake_at = ${wake}::timestamptz
      WHERE id = ${ref.subscriptionId} AND merchant_id = ${ref.merchantId} AND mode = ${ref.mode}::"Mode" AND clock_wake_at IS DISTINCT FROM ${wake}::timestamptz`;
    return v;
  };
  const view = async (ref: SubscriptionRef) => recordWake(ref, await loadSubscriptionView(db, ref));
  /**
   * The time a command applies at. On a test clock that is ready: the clock's time, when later
   * than the workflow's (a subscription with nothing due is not told of an advance). While the
   * clock advances (a command that raced an advance): the workflow's.
   */
  const commandNow = async (ref: SubscriptionRef, now: string): Promise<string> => {
    const rows = await db.$queryRaw<Array<{ t: Date }>>`
      SELECT c.frozen_time AS t FROM subscriptions s JOIN test_clocks c ON c.id = s.test_clock_id AND c.merchant_id = s.merchant_id
      WHERE s.id = ${ref.subscriptionId} AND s.merchant_id = ${ref.merchantId} AND s.mode = ${ref.mode}::"Mode" AND c.status = 'ready' AND c.deleted_at IS NULL`;
    const t = rows[0]?.t;
    return t && t.getTime() > Date.parse(now) ? t.toISOString() : now;
  };
  /** Metrics: the step's outcome (activities/observe.ts); returns its events. */
  const counted = (kind: StepRequest['kind'], outcome: { events: RecordedEvent[]; done?: string }) => {
    countBillingStep(deps.metrics, kind, outcome.events, outcome.done);
    return outcome.events;
  };
  /** One billing step and the dispatch of its events; the view after it when the step read it (a renewal, most charge attempts), else undefined. */
  const runStep = (ref: SubscriptionRef, now: string, step: StepRequest): Promise<SubscriptionView | null | undefined> =>
    // Events of the step are dated at the step's time (the clock's time on a test clock).
    datingEventsAt(new Date(now), () => runStepNow(ref, now, step));
  const runStepNow = async (ref: SubscriptionRef, now: string, step: StepRequest): Promise<SubscriptionView | null | undefined> => {
    switch (step.kind) {
      case 'period_end': {
        // A renewal's invoice is finalized in the period end's transaction: the finalize step
        // the schedule would run next (src/domain/subscriptions/period-end.ts).
        const out = await runPeriodEnd(db, { ...ref, periodEnd: step.periodEnd, now }, { finalizeRenewal: true });
        const finalized = out.finalized ? counted('finalize_invoice', { events: out.finalized }) : [];
        await dispatch([...counted(step.kind, out), ...finalized]);
        return out.view;
      }
      case 'finalize_invoice':
        await dispatch(counted(step.kind, await finalizeSubscriptionInvoice(db, { ...ref, invoiceId: step.invoiceId, now })));
        return undefined;
      case 'charge_invoice': {
        const out = await chargeSubscriptionInvoice(steps, { ...ref, invoiceId: step.invoiceId, attempt: step.attempt, manual: false, now });
        await dispatch(counted(step.kind, out));
        return out.view;
      }
      case 'check_bank_claim':
        await dispatch(counted(step.kind, await checkInvoiceBankClaim(steps, { ...ref, invoiceId: step.invoiceId, now })));
        return undefined;
      case 'trial_notice':
        await dispatch(counted(step.kind, await sendTrialWillEnd(db, { ...ref, trialEnd: step.trialEnd })));
        return undefined;
    }
  };

  return {
    // ---- subscription workflow ----

    async attachSubscriptionWorkflow(ref: SubscriptionRef): Promise<SubscriptionView | null> {
      return recordWake(ref, await attachWorkflow(db, ref, new Date()));
    },

    async loadSubscriptionView(ref: SubscriptionRef): Promise<SubscriptionView | null> {
      return view(ref);
    },

    async applySubscriptionCommand(given: ApplyCommandInput): Promise<CommandActivityResult> {
      const input = { ...given, now: await commandNow(given, given.now) };
      let outcome;
      try {
        outcome = await datingEventsAt(new Date(input.now), () => applySubscriptionCommand(steps, input, dispatch));
      } catch (err) {
        return { view: await view(input), objectId: null, refusal: refusalOrThrow(err) };
      }
      return { view: await view(input), objectId: outcome.objectId, refusal: null };
    },

    /** For a manual retry: the invoice's attempts so far (recorded in history, so the attempt number is fixed). */
    async invoiceCollectionState(input: PayInvoiceInput): Promise<{ attemptCount: number; status: string; collectionMethod: string | null } | null> {
      const inv = await db.invoice.findFirst({
        where: { id: input.invoiceId, merchantId: input.merchantId, mode: input.mode, subscriptionId: input.subscriptionId },
        select: { attemptCount: true, status: true, collectionMethod: true },
      });
      return inv ? { attemptCount: inv.attemptCount, status: inv.status, collectionMethod: inv.collectionMethod } : null;
    },

    /**
     * The due step, then every invoice step the schedule makes due by the same instant (each in
     * its own transaction, each idempotent, so a retry resumes where the last attempt stopped),
     * then the clock acknowledgement when nothing more is due by the clock's time.
     */
    async runSubscriptionSteps(input: RunStepsInput): Promise<SubscriptionView | null> {
      return heartbeating(async () => {
        const ref = { subscriptionId: input.subscriptionId, merchantId: input.merchantId, mode: input.mode };
        const at = Date.parse(input.now);
        const opts = { trialNotices: input.trialNotices };
        let step: StepRequest | null = input.step;
        let current: SubscriptionView | null = null;
        for (let n = 1; step !== null; n++) {
          const after = await runStep(ref, input.now, step);
          current = after !== undefined ? after : await view(ref);
          const next = current !== null && n < MAX_STEPS_PER_ACTIVITY ? nextStep(current, opts) : null;
          step = next !== null && isInvoiceStep(next) && isDue(next, at) ? stepRequest(next) : null;
        }
        if (current !== null && current.testClockId !== null && input.clockTime !== null && shouldAcknowledgeClock(current, Date.parse(input.clockTime), opts)) {
          await markClockSynced(db, { ...ref, testClockId: current.testClockId, clockTime: input.clockTime });
          current = { ...current, clockSyncedTo: input.clockTime };
          await nudgeClock(current.testClockId!);
        }
        return recordWake(ref, current);
      });
    },

    async runSubscriptionPeriodEnd(input: PeriodEndInput): Promise<SubscriptionView | null> {
      return heartbeating(async () => {
        await dispatch((await datingEventsAt(new Date(input.now), () => runPeriodEnd(db, input))).events);
        return view(input);
      });
    },

    async sendSubscriptionTrialNotice(input: TrialNoticeInput): Promise<SubscriptionView | null> {
      return heartbeating(async () => {
        await dispatch((await sendTrialWillEnd(db, input)).events);
        return view(input);
      });
    },

    async finalizeSubscriptionInvoice(input: InvoiceStepInput): Promise<SubscriptionView | null> {
      return heartbeating(async () => {
        await dispatch((await datingEventsAt(new Date(input.now), () => finalizeSubscriptionInvoice(db, input))).events);
        return view(input);
      });
    },

    async chargeSubscriptionInvoice(given: ChargeStepInput): Promise<SubscriptionView | null> {
      return heartbeating(async () => {
        const input = given.manual ? { ...given, now: await commandNow(given, given.now) } : given;
        await dispatch((await datingEventsAt(new Date(input.now), () => chargeSubscriptionInvoice(steps, input))).events);
        return view(input);
      });
    },

    async checkSubscriptionBankClaim(given: InvoiceStepInput): Promise<SubscriptionView | null> {
      return heartbeating(async () => {
        const input = given.force ? { ...given, now: await commandNow(given, given.now) } : given;
        await dispatch((await datingEventsAt(new Date(input.now), () => checkInvoiceBankClaim(steps, input))).events);
        return view(input);
      });
    },

    async syncSubscriptionClock(input: ClockSyncInput): Promise<SubscriptionView | null> {
      const v = await recordClockSync(db, input);
      await nudgeClock(input.testClockId);
      return recordWake(input, v);
    },

    async markSubscriptionWorkflowEnded(ref: SubscriptionRef): Promise<void> {
      const { testClockId } = await recordWorkflowEnded(db, ref, new Date());
      if (testClockId) await nudgeClock(testClockId);
    },

    async reconcileSubscriptionWorkflows(input: ReconcileSubscriptionsInput): Promise<ReconcileSubscriptionsResult> {
      const ctx = Context.current();
      const r = await reconcileSubscriptions(db, workflows, input, () => ctx.heartbeat(), deps.log);
      if (r.started > 0 || r.clocksNudged > 0 || r.restarted || r.halted) {
        deps.log(`subscription reconciler: started ${r.started} workflow(s), woke ${r.clocksNudged} clock(s), restarted ${r.restarted ?? 0}, halted ${r.halted ?? 0}`);
      }
      return r;
    },

    // ---- test-clock workflow ----

    /**
     * Signals the running subscriptions of the clock that have something due by its frozen time
     * (clock_wake_at at or before it, or unknown), starting any that never started. The others
     * have nothing to do by then: they count as caught up (completeAdvanceIfCaughtUp) and are
     * told the time by a later advance that passes their wake time.
     */
    async notifyClockSubscriptions(input: TestClockWorkflowInput): Promise<ClockNotifyResult> {
      const ref = { testClockId: input.testClockId, merchantId: input.merchantId };
      const frozen = await clockFrozenTime(db, ref);
      if (!frozen) return { status: 'deleted', frozenTime: new Date(0).toISOString(), notified: 0 };
      const time = frozen.toISOString();
      let afterId: string | null = null;
      let notified = 0;
      for (;;) {
        const page = await clockSubscriptionsPage(db, { ...ref, afterId, take: NOTIFY_PAGE, dueBy: frozen });
        for (let i = 0; i < page.length; i += NOTIFY_PARALLEL) {
          await Promise.all(
            page.slice(i, i + NOTIFY_PARALLEL).map(async (s) => {
              const running = await workflows.subscription.signalClockAdvanced({ ...s, clockTime: time }, time);
              if (running) notified += 1;
              else {
                // Its workflow finished long ago (canceled, settled): it no longer follows the clock.
                await db.subscription.updateMany({ where: { id: s.subscriptionId, workflowEndedAt: null }, data: { workflowEndedAt: new Date() } });
                deps.log(`subscription ${s.subscriptionId}: workflow already finished; marked ended`);
              }
            }),
          );
          Context.current().heartbeat(notified);
        }
        if (page.length < NOTIFY_PAGE) break;
        afterId = page[page.length - 1]!.subscriptionId;
      }
      return { status: 'advancing', frozenTime: time, notified };
    },

    /** Marks the clock ready when every subscription has caught up; reports how many are behind. */
    async completeClockAdvance(input: TestClockWorkflowInput): Promise<ClockProgressResult> {
      return completeAdvanceIfCaughtUp(db, { testClockId: input.testClockId, merchantId: input.merchantId });
    },
  };
}

export type SubscriptionActivities = ReturnType<typeof createSubscriptionActivities>;
