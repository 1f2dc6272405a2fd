// Subscription and test-clock activities: thin wrappers over src/domain/subscriptions and
// src/domain/test-clocks. Every activity is idempotent (docs/subscriptions.md "Exactly once"):
// period steps are keyed by the period end, invoices by their period key, charges by
// `${invoiceId}:attempt:${n}`, bank claims by `${invoiceId}:claim`, commands by their update id.
// Each returns the subscription's view after the step, so the workflow needs no second read.
// runSubscriptionSteps runs a due step and then the invoice steps due at the same instant (a
// renewal) in one activity, and acknowledges the test clock when nothing more is due by its time:
// one local activity in one workflow task per renewal. The billing steps, and that runner, are
// src/domain/subscriptions/steps/ (one file per step).
// Test clocks (issue 28): every activity that hands the workflow a view of a clock subscription
// also records from which clock time it has something due (src/domain/subscriptions/clock-wake.ts),
// so an advance wakes only the subscriptions due by the new time (notifyClockSubscriptions); a
// command (and a manual pay) runs at the clock's time, which a subscription not woken by the last
// advances has not been told (read only when the workflow's view says the subscription is on a
// clock). The view carries the stored wake time, so recording it writes only when it changed.
import { Context } from '@temporalio/activity';
import type { Db } from '../src/db/client';
import type { ModeGateways } from '../src/gateways';
import type { Config } from '../src/config';
import { datingEventsAt, dispatchEventsFromActivity, type RecordedEvent } from '../src/events';
import { clockSubscriptionsPage, completeAdvanceIfCaughtUp, clockFrozenTime } from '../src/domain/test-clocks/clock-progress';
import { loadSubscriptionView } from '../src/domain/subscriptions/subscription-view';
import { commandTimeOnClock, recordClockWake } from '../src/domain/subscriptions/clock-wake';
import { attachWorkflow, recordClockSync, recordWorkflowEnded } from '../src/domain/subscriptions/workflow-lifecycle';
import { applySubscriptionCommand } from '../src/domain/subscriptions/apply-command';
import { refusalOf } from '../src/domain/refusals';
import type { Refusal } from '../src/contracts/refusal';
import { runPeriodEnd } from '../src/domain/subscriptions/steps/period-end';
import { sendTrialWillEnd } from '../src/domain/subscriptions/steps/trial-notice';
import { finalizeSubscriptionInvoice } from '../src/domain/subscriptions/steps/finalize-invoice';
import { chargeSubscriptionInvoice } from '../src/domain/subscriptions/steps/charge-invoice';
import { checkInvoiceBankClaim } from '../src/domain/subscriptions/steps/check-bank-claim';
import { runSubscriptionSteps } from '../src/domain/subscriptions/steps/run-steps';
import { reconcileSubscriptions } from '../src/domain/subscriptions/reconcile-subscriptions';
import { testClockWorkflowClient } from '../src/temporal/test-clock-workflow';
import { workflowClientsOfActivity } from './workflow-clients';
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
/** Nudges of one clock from this process are sent at most this often (the last one always goes). */
const NUDGE_COALESCE_MS = 100;

/** A refused command (ApiError: cannot_pause, invalid_subscription, …) is a result, not a failure: nothing to retry. */
function refusalOrThrow(err: unknown): Refusal {
  const refusal = refusalOf(err);
  if (!refusal) throw err;
  return refusal;
}

/**
 * Wakes the clock's workflow so it recounts (a finished run ignores it: the next advance
 * recounts anyway). Many subscriptions of one clock catch up together: their nudges from this
 * process are coalesced into one per NUDGE_COALESCE_MS, sent after the activity returns (a
 * nudge lost with a dying process is covered by the clock workflow's periodic recount).
 */
function clockNudger(): (testClockId: string) => Promise<void> {
  const nudging = new Set<string>();
  return async (testClockId: string) => {
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
}

export function createSubscriptionActivities(deps: SubscriptionActivityDeps) {
  const { db } = deps;
  /** The steps that call the acquirer or the bank get the gateways too. */
  const steps = { db, gateways: deps.gateways };
  const workflows = workflowClientsOfActivity();
  const dispatch = async (events: RecordedEvent[]) => {
    if (events.length > 0) await dispatchEventsFromActivity(db, events, deps.log);
  };
  const nudgeClock = clockNudger();
  const view = async (ref: SubscriptionRef) => recordClockWake(db, ref, await loadSubscriptionView(db, ref));
  /** A step of the step-by-step schedule (runs from before the one-activity patch): the step, its events, the view after it. */
  const stepThenView = (ref: SubscriptionRef, run: () => Promise<{ events: RecordedEvent[] }>) =>
    heartbeating(async () => {
      await dispatch((await run()).events);
      return view(ref);
    });
  return {
    // ---- subscription workflow ----

    async attachSubscriptionWorkflow(ref: SubscriptionRef): Promise<SubscriptionView | null> {
      return recordClockWake(db, ref, await attachWorkflow(db, ref, new Date()));
    },

    async loadSubscriptionView(ref: SubscriptionRef): Promise<SubscriptionView | null> {
      return view(ref);
    },

    async applySubscriptionCommand(given: ApplyCommandInput): Promise<CommandActivityResult> {
      const input = { ...given, now: await commandTimeOnClock(db, given, given.now) };
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
        const out = await runSubscriptionSteps({ ...steps, metrics: deps.metrics, dispatch }, input);
        if (out.clockSynced !== null) await nudgeClock(out.clockSynced);
        return recordClockWake(db, input, out.view);
      });
    },

    async runSubscriptionPeriodEnd(input: PeriodEndInput): Promise<SubscriptionView | null> {
      return stepThenView(input, () => datingEventsAt(new Date(input.now), () => runPeriodEnd(db, input)));
    },

    async sendSubscriptionTrialNotice(input: TrialNoticeInput): Promise<SubscriptionView | null> {
      return stepThenView(input, () => sendTrialWillEnd(db, input));
    },

    async finalizeSubscriptionInvoice(input: InvoiceStepInput): Promise<SubscriptionView | null> {
      return stepThenView(input, () => datingEventsAt(new Date(input.now), () => finalizeSubscriptionInvoice(db, input)));
    },

    async chargeSubscriptionInvoice(given: ChargeStepInput): Promise<SubscriptionView | null> {
      const input = given.manual ? { ...given, now: await commandTimeOnClock(db, given, given.now) } : given;
      return stepThenView(input, () => datingEventsAt(new Date(input.now), () => chargeSubscriptionInvoice(steps, input)));
    },

    async checkSubscriptionBankClaim(given: InvoiceStepInput): Promise<SubscriptionView | null> {
      const input = given.force ? { ...given, now: await commandTimeOnClock(db, given, given.now) } : given;
      return stepThenView(input, () => datingEventsAt(new Date(input.now), () => checkInvoiceBankClaim(steps, input)));
    },

    async syncSubscriptionClock(input: ClockSyncInput): Promise<SubscriptionView | null> {
      const v = await recordClockSync(db, input);
      await nudgeClock(input.testClockId);
      return recordClockWake(db, input, v);
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
