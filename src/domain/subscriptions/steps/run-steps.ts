// The subscription workflow's renewal activity, `runSubscriptionSteps` (activities/subscriptions.ts
// wraps it): the step that is due, then every invoice step the schedule makes due by the same
// instant (a renewal: the period end with its invoice's finalization in one transaction, then the
// first charge), reading the schedule exactly as the workflow does (the pure
// src/contracts/subscription-schedule.ts), then the test clock's acknowledgement when nothing more
// is due by the clock's time. Each step is idempotent, so a retried activity resumes where the
// last attempt stopped. One step per file beside this one.
import type { Db } from '../../../db/client';
import { datingEventsAt, type RecordedEvent } from '../../../events';
import type { ModeGateways } from '../../../gateways';
import type { Metrics } from '../../../observability/metrics';
import { countBillingStep } from '../../../observability/step-outcomes';
import type { RunStepsInput, StepRequest, SubscriptionRef, SubscriptionView } from '../../../contracts/subscriptions';
import { isDue, isInvoiceStep, nextStep, shouldAcknowledgeClock, stepRequest } from '../../../contracts/subscription-schedule';
import { loadSubscriptionView } from '../subscription-view';
import { markClockSynced } from '../workflow-lifecycle';
import { clockWakeOf } from '../clock-wake';
import { runPeriodEnd } from './period-end';
import { finalizeSubscriptionInvoice } from './finalize-invoice';
import { chargeSubscriptionInvoice } from './charge-invoice';
import { checkInvoiceBankClaim } from './check-bank-claim';
import { sendTrialWillEnd } from './trial-notice';

/** At most this many steps in one runSubscriptionSteps (a renewal takes three). */
const MAX_STEPS_PER_ACTIVITY = 6;

export interface StepRunnerDeps {
  db: Db;
  /** The steps that call the acquirer or the bank use them. */
  gateways: ModeGateways;
  metrics: Metrics;
  /** Dispatches a step's events after its transaction committed. */
  dispatch: (events: RecordedEvent[]) => Promise<void>;
}

export interface StepsOutcome {
  view: SubscriptionView | null;
  /** The test clock the subscription acknowledged (its workflow is to be nudged), else null. */
  clockSynced: string | null;
}

/** The due step and its follow-ups, then the clock's acknowledgement (see the top of the file). */
export async function runSubscriptionSteps(deps: StepRunnerDeps, input: RunStepsInput): Promise<StepsOutcome> {
  const ref = { subscriptionId: input.subscriptionId, merchantId: input.merchantId, mode: input.mode };
  const at = Date.parse(input.now);
  const opts = { trialNotices: input.trialNotices };
  let step: StepRequest | null = input.step;
  let current: SubscriptionView | null = null;
  for (let n = 1; step !== null; n++) {
    const after = await runBillingStep(deps, ref, input.now, step);
    current = after !== undefined ? after : await loadSubscriptionView(deps.db, ref);
    const next = current !== null && n < MAX_STEPS_PER_ACTIVITY ? nextStep(current, opts) : null;
    step = next !== null && isInvoiceStep(next) && isDue(next, at) ? stepRequest(next) : null;
  }
  if (current !== null && current.testClockId !== null && input.clockTime !== null && shouldAcknowledgeClock(current, Date.parse(input.clockTime), opts)) {
    // The acknowledgement's UPDATE records the next step's clock time too (clock-wake.ts): the
    // view it returns carries it, so the activity's recordClockWake writes nothing more.
    const wake = clockWakeOf(current);
    await markClockSynced(deps.db, { ...ref, testClockId: current.testClockId, clockTime: input.clockTime }, { at: wake });
    return { view: { ...current, clockSyncedTo: input.clockTime, clockWakeAt: wake === null ? null : wake.toISOString() }, clockSynced: current.testClockId };
  }
  return { view: current, clockSynced: null };
}

/**
 * One billing step, its metrics (src/observability/step-outcomes.ts) and the dispatch of its
 * events; the view after it when the step read it (a renewal, most charge attempts), else
 * undefined. Its events are dated at the step's time (the clock's time on a test clock).
 */
export function runBillingStep(deps: StepRunnerDeps, ref: SubscriptionRef, now: string, step: StepRequest): Promise<SubscriptionView | null | undefined> {
  return datingEventsAt(new Date(now), () => runBillingStepNow(deps, ref, now, step));
}

async function runBillingStepNow(deps: StepRunnerDeps, ref: SubscriptionRef, now: string, step: StepRequest): Promise<SubscriptionView | null | undefined> {
  const { db, dispatch } = deps;
  /** Metrics: the step's outcome; returns its events. */
  const counted = (kind: StepRequest['kind'], outcome: { events: RecordedEvent[]; done?: string }) => {
    countBillingStep(deps.metrics, kind, outcome.events, outcome.done);
    return outcome.events;
  };
  switch (step.kind) {
    case 'period_end': {
      // A renewal's invoice is finalized in the period end's transaction: the finalize step
      // the schedule would run next (./period-end.ts).
      const out = await runPeriodEnd(db, { ...ref, periodEnd: step.periodEnd, now }, { finalizeRenewal: true });
      const finalized = out.finalized ? counted('finalize_invoice', { events: out.finalized }) : [];
      await dispatch([...counted(step.kind, out), ...finalized]);
      return out.view;
    }
    case 'finalize_invoice':
      await dispatch(counted(step.kind, await finalizeSubscriptionInvoice(db, { ...ref, invoiceId: step.invoiceId, now })));
      return undefined;
    case 'charge_invoice': {
      const out = await chargeSubscriptionInvoice(deps, { ...ref, invoiceId: step.invoiceId, attempt: step.attempt, manual: false, now });
      await dispatch(counted(step.kind, out));
      return out.view;
    }
    case 'check_bank_claim':
      await dispatch(counted(step.kind, await checkInvoiceBankClaim(deps, { ...ref, invoiceId: step.invoiceId, now })));
      return undefined;
    case 'trial_notice':
      await dispatch(counted(step.kind, await sendTrialWillEnd(db, { ...ref, trialEnd: step.trialEnd })));
      return undefined;
  }
}
