// One workflow per subscription, `subscription/sub_…` (docs/subscriptions.md, docs/architecture.md).
//
// The database is the system of record: the workflow holds a VIEW of the subscription (row +
// invoices that still need automatic work), read back by every activity. What to do next is a
// pure function of that view and the time (src/contracts/subscription-schedule.ts): finalize a draft
// invoice, a charge attempt, a bank-claim check, or the period end (renewal, trial end, cancel
// at period end, roll while paused/unpaid). Each step is an idempotent activity.
//
// Time: wall-time subscriptions sleep on timers until the next step is due. Subscriptions of a
// test-clock customer never look at the workflow clock: they wait on `condition` until the
// clock's time (signal `clockAdvanced`, or the database) reaches the next step; a step that is
// due happens AT its due instant (so a clock that jumps a year replays every period exactly as
// it would have happened), and once nothing is due up to the clock's time the subscription
// records that it caught up, which lets the clock become `ready`.
//
// Commands (cancel, pause, item changes, invoice pay/void, …) arrive as the validated Update
// `command`; its handler and the main loop share a mutex around every await that touches
// state, so a command never interleaves with a billing step. Handlers only change state; the
// main loop does the scheduled work. Continue-as-new after each period end (and when the SDK
// suggests it), once every handler has finished.
//
// Since the patch `subscription-steps-in-one-activity` (docs/subscriptions.md): a due step and
// the invoice steps it makes due at the same instant run in ONE activity (a renewal: period end,
// finalize, first charge), which also acknowledges the test clock; and a run continues as new
// after PERIODS_PER_RUN period ends instead of after each one. A renewal is then one activity and
// two workflow tasks. Runs that started before the patch keep the step-by-step schedule.
//
// Since the patch `subscription-steps-local-activity`: that one activity runs as a LOCAL activity,
// inside the workflow task that found the step due, so a renewal is one workflow task (about 5
// history events) and the workflow is never parked in the worker's cache waiting for an activity
// task queue (docs/subscriptions.md, docs/benchmarks.md). Runs that started before it keep the
// task-queue activity.
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  currentUpdateInfo,
  defineQuery,
  defineSignal,
  defineUpdate,
  patched,
  proxyActivities,
  proxyLocalActivities,
  type RetryPolicy,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { SubscriptionActivities } from '../activities/subscriptions';
import { refusalFailure, refusalOfFailure } from '../src/contracts/refusal';
import {
  CLOCK_ADVANCED_SIGNAL,
  NON_RETRYABLE_ACTIVITY_ERRORS,
  SA_STATUS,
  SUBSCRIPTION_COMMAND_UPDATE,
  SUBSCRIPTION_REFRESH_SIGNAL,
  SUBSCRIPTION_STATE_QUERY,
  type CommandResult,
  type SubscriptionCommand,
  type SubscriptionRef,
  type SubscriptionView,
  type SubscriptionWorkflowInput,
  type SubscriptionWorkflowResult,
  type SubscriptionWorkflowState,
} from '../src/contracts/subscriptions';
import { isDue, isFinished, nextStep, shouldAcknowledgeClock, stepRequest, waitMs, type DueStep } from '../src/contracts/subscription-schedule';
import { checkCommand } from './subscription/check-command';
import { invoiceActionVerdict, manualCollectionStep } from '../src/contracts/subscription-commands';
import { Mutex } from './subscription/mutex';
import { workflowTime } from './subscription/time';

// Billing steps: retried without limit on infrastructure errors (a database or acquirer outage
// delays a renewal, never drops it); 2 minutes covers a slow acquirer answer, and the steps
// heartbeat, so a worker that dies in the middle of one is replaced within 15 seconds.
const STEP_TIMEOUT = '2 minutes';
const STEP_RETRY: RetryPolicy = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: [...NON_RETRYABLE_ACTIVITY_ERRORS] };
const steps = proxyActivities<SubscriptionActivities>({ startToCloseTimeout: STEP_TIMEOUT, heartbeatTimeout: '15 seconds', retry: STEP_RETRY });
// The same steps as a local activity (patch STEPS_LOCAL_PATCH): same timeout and retries (a
// backoff beyond the SDK's local retry threshold becomes a workflow timer); no heartbeat: the
// worker keeps the workflow task alive while it runs, and a worker that dies in the middle of it
// loses the workflow task, whose retry on another worker runs the (idempotent) steps again.
const localSteps = proxyLocalActivities<SubscriptionActivities>({ startToCloseTimeout: STEP_TIMEOUT, retry: STEP_RETRY });
// Short database reads and bookkeeping (load the view, attach, record clock sync, end) run as
// local activities: no task-queue round trip each time.
const local = proxyLocalActivities<SubscriptionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
// Commands: someone waits for the answer, so a few attempts, then the update fails.
const commands = proxyActivities<SubscriptionActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 4, nonRetryableErrorTypes: [...NON_RETRYABLE_ACTIVITY_ERRORS] },
});

export const commandUpdate = defineUpdate<CommandResult, [SubscriptionCommand]>(SUBSCRIPTION_COMMAND_UPDATE);
export const clockAdvancedSignal = defineSignal<[string]>(CLOCK_ADVANCED_SIGNAL);
export const refreshSignal = defineSignal(SUBSCRIPTION_REFRESH_SIGNAL);
export const stateQuery = defineQuery<SubscriptionWorkflowState>(SUBSCRIPTION_STATE_QUERY);

const iso = (ms: number) => new Date(ms).toISOString();
const TRIAL_NOTICE_PATCH = 'subscription-trial-will-end';
const STEPS_PATCH = 'subscription-steps-in-one-activity';
const STEPS_LOCAL_PATCH = 'subscription-steps-local-activity';
/** With the steps patch: period ends per run before continue-as-new (about 12 events per period). */
const PERIODS_PER_RUN = 12;

/** A failed command becomes a failed Update (never a failed workflow task), typed with the API's error code. */
function commandFailure(err: unknown): ApplicationFailure {
  const refusal = refusalOfFailure(err);
  if (refusal) return refusalFailure(refusal);
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return ApplicationFailure.create({ type: 'service_unavailable', message: `The command could not be applied: ${(cause as Error)?.message ?? String(cause)}`, nonRetryable: true });
}

/** What a command handler needs of its workflow run. */
interface CommandRun {
  ref: SubscriptionRef;
  view: () => SubscriptionView | null;
  setView: (v: SubscriptionView | null) => void;
  /** The subscription's "now" (its clock's time on a test clock). */
  now: () => number;
}

/**
 * The view's test clock for a command's activity (null: none, the activity reads no clock time;
 * undefined without a view: the activity looks). Only an activity input: no command changes.
 */
function clockOf(run: CommandRun): string | null | undefined {
  return run.view()?.testClockId;
}

/** The Update `command`, under the mutex: re-checked against the view, then applied by one activity. */
async function applyCommand(run: CommandRun, cmd: SubscriptionCommand): Promise<CommandResult> {
  const { ref } = run;
  try {
    if (run.view() === null) run.setView(await local.loadSubscriptionView(ref));
    checkCommand(run.view(), cmd);
    const at = iso(run.now());
    if (cmd.kind === 'pay_invoice') return await payInvoiceByHand(run, cmd.invoiceId, at);
    // The request's key without its attempt (`idem#2:k` is a resend of `idem:k` after a
    // failed update): a command the failed attempt applied after all is applied once.
    const commandId = `${ref.subscriptionId}:${(currentUpdateInfo()?.id ?? 'unknown').replace(/^([a-z]+)#\d+:/, '$1:')}`;
    const r = await commands.applySubscriptionCommand({ ...ref, commandId, now: at, command: cmd, testClockId: clockOf(run) });
    run.setView(r.view);
    if (r.refusal) throw refusalFailure(r.refusal);
    return { objectId: r.objectId };
  } catch (err) {
    throw commandFailure(err);
  }
}

/** "Pay now": the invoice's collection step (a bank claim check, or one more charge attempt) when its status allows it. */
async function payInvoiceByHand(run: CommandRun, invoiceId: string, at: string): Promise<CommandResult> {
  const { ref } = run;
  const inv = await commands.invoiceCollectionState({ ...ref, invoiceId });
  if (inv === null) throw refusalFailure({ code: 'resource_missing', message: `No such invoice: '${invoiceId}'`, param: 'id' });
  if (invoiceActionVerdict('pay', inv.status) === 'apply') {
    const step = manualCollectionStep(inv);
    if (step.kind === 'check_bank_claim') {
      run.setView(await steps.checkSubscriptionBankClaim({ ...ref, invoiceId, now: at, force: true, testClockId: clockOf(run) }));
    } else {
      run.setView(await steps.chargeSubscriptionInvoice({ ...ref, invoiceId, attempt: step.attempt, manual: true, now: at, testClockId: clockOf(run) }));
    }
  }
  return { objectId: invoiceId };
}

/** A due step as its own activity: the schedule of runs that started before the one-activity patch. */
function runStepByStep(ref: SubscriptionRef, step: DueStep, atIso: string): Promise<SubscriptionView | null> {
  switch (step.kind) {
    case 'finalize_invoice':
      return steps.finalizeSubscriptionInvoice({ ...ref, invoiceId: step.invoiceId, now: atIso });
    case 'charge_invoice':
      return steps.chargeSubscriptionInvoice({ ...ref, invoiceId: step.invoiceId, attempt: step.attempt, manual: false, now: atIso });
    case 'check_bank_claim':
      return steps.checkSubscriptionBankClaim({ ...ref, invoiceId: step.invoiceId, now: atIso });
    case 'trial_notice':
      return steps.sendSubscriptionTrialNotice({ ...ref, trialEnd: step.trialEnd });
    case 'period_end':
      return steps.runSubscriptionPeriodEnd({ ...ref, periodEnd: step.periodEnd, now: atIso });
  }
}

export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<SubscriptionWorkflowResult> {
  const ref = { subscriptionId: input.subscriptionId, merchantId: input.merchantId, mode: input.mode };
  // subscription.trial_will_end came after the first histories were recorded: decided once per
  // run, before any command, so a replayed older history keeps its schedule (docs/subscriptions.md).
  const sched = { trialNotices: patched(TRIAL_NOTICE_PATCH) };
  // Decided once per run like the trial notices: one activity per due step and its follow-ups.
  const oneActivity = patched(STEPS_PATCH);
  const periodsPerRun = oneActivity ? PERIODS_PER_RUN : 1;
  // Decided once per run too (only on the one-activity path): that activity runs locally.
  const renewalSteps = oneActivity && patched(STEPS_LOCAL_PATCH) ? localSteps : steps;
  const mutex = new Mutex();
  let view: SubscriptionView | null = null;
  let clockTime: number | null = input.clockTime ? Date.parse(input.clockTime) : null;
  let lastStepAt: number | null = input.lastStepAt ? Date.parse(input.lastStepAt) : null;
  let version = 0;
  let periodsBilled = input.periodsBilled ?? 0;
  let periodsThisRun = 0;
  let refreshRequested = false;
  let publishedStatus: string | null = null;

  const onClock = () => view !== null && view.testClockId !== null;
  const setView = (v: SubscriptionView | null) => {
    view = v;
    version += 1;
    if (v?.clockTime) {
      const t = Date.parse(v.clockTime);
      if (clockTime === null || t > clockTime) clockTime = t;
    }
    if (v && lastStepAt === null && v.clockSyncedTo) lastStepAt = Date.parse(v.clockSyncedTo);
    if (v && v.status !== publishedStatus) {
      upsertSearchAttributes([{ key: SA_STATUS, value: v.status }]);
      publishedStatus = v.status;
    }
  };
  /** The subscription's "now": its clock's time, or the workflow's deterministic time. */
  const now = (): number => (onClock() ? (clockTime ?? workflowTime()) : workflowTime());
  /** When a due step happens: on a clock, at its due instant (never before the previous step). */
  const stepTime = (step: DueStep): number => {
    if (!onClock()) return workflowTime();
    const floor = lastStepAt ?? now();
    return Number.isFinite(step.at) ? Math.max(step.at, floor) : floor;
  };

  setHandler(stateQuery, () => {
    const step = view ? nextStep(view, sched) : null;
    return {
      view,
      clockTime: clockTime === null ? null : iso(clockTime),
      periodsBilled,
      next: step ? { kind: step.kind, reason: step.reason, at: iso(Number.isFinite(step.at) ? step.at : now()) } : null,
    };
  });
  setHandler(clockAdvancedSignal, (time: string) => {
    const t = Date.parse(time);
    if (Number.isFinite(t) && (clockTime === null || t > clockTime)) {
      clockTime = t;
      version += 1;
    }
  });
  setHandler(refreshSignal, () => {
    refreshRequested = true;
    version += 1;
  });
  const run: CommandRun = { ref, view: () => view, setView, now };
  setHandler(commandUpdate, (cmd: SubscriptionCommand) => mutex.run(() => applyCommand(run, cmd)), { validator: (cmd: SubscriptionCommand) => checkCommand(view, cmd) });

  await mutex.run(async () => setView(await local.attachSubscriptionWorkflow(ref)));
  // A workflow never bills a subscription that is not in the database.
  if (view === null) return { subscriptionId: ref.subscriptionId, status: 'canceled' };

  /** Runs the step that is due now (re-evaluated under the lock: a command may have changed things). */
  const runDueStep = async (): Promise<void> => {
    if (view === null) return;
    const step = nextStep(view, sched);
    if (step === null || !isDue(step, now())) return;
    const at = stepTime(step);
    const atIso = iso(at);
    const clock = onClock() && clockTime !== null ? iso(clockTime) : null;
    setView(
      oneActivity
        ? await renewalSteps.runSubscriptionSteps({ ...ref, step: stepRequest(step), now: atIso, trialNotices: sched.trialNotices, clockTime: clock })
        : await runStepByStep(ref, step, atIso),
    );
    if (step.kind === 'period_end') {
      periodsThisRun += 1;
      periodsBilled += 1;
    }
    if (lastStepAt === null || at > lastStepAt) lastStepAt = at;
  };

  for (;;) {
    if (refreshRequested) {
      refreshRequested = false;
      await mutex.run(async () => setView(await local.loadSubscriptionView(ref)));
      continue;
    }
    const current = view as SubscriptionView | null;
    if (current === null || isFinished(current, sched)) break;
    const step = nextStep(current, sched);
    const t = now();
    // One period per run (PERIODS_PER_RUN with the steps patch): start afresh before the next one.
    if ((periodsThisRun >= periodsPerRun && (step === null || step.kind === 'period_end')) || workflowInfo().continueAsNewSuggested) {
      await condition(() => mutex.idle && allHandlersFinished());
      await continueAsNew<typeof subscriptionWorkflow>({
        ...input,
        clockTime: clockTime === null ? null : iso(clockTime),
        periodsBilled,
        lastStepAt: lastStepAt === null ? null : iso(lastStepAt),
      });
    }
    if (step !== null && isDue(step, t)) {
      await mutex.run(runDueStep);
      continue;
    }
    if (onClock() && clockTime !== null && shouldAcknowledgeClock(current, clockTime, sched)) {
      const time = clockTime;
      await mutex.run(async () => setView(await local.syncSubscriptionClock({ ...ref, testClockId: current.testClockId!, clockTime: iso(time) })));
      continue;
    }
    const seen = version;
    if (!onClock() && step !== null) await condition(() => version !== seen, waitMs(step, t));
    else await condition(() => version !== seen);
  }

  await mutex.run(() => local.markSubscriptionWorkflowEnded(ref));
  await condition(() => mutex.idle && allHandlersFinished());
  const final = view as SubscriptionView | null;
  return { subscriptionId: ref.subscriptionId, status: final?.status ?? 'canceled' };
}
