// What a subscription workflow does next, as a pure function of its view and the time.
// No I/O and no clock: `now` is a parameter (workflow time, or the test clock's frozen time).
//
// Candidates, each with the instant it is due:
//   - a draft invoice             → finalize it (due at once);
//   - an open charge_automatically invoice with nextActionAt → charge attempt attemptCount + 1
//     ("first_attempt" or "dunning_retry");
//   - an open send_invoice invoice with nextActionAt → check its bank claim (due date, then the
//     documented re-checks until it is paid or expires);
//   - while trialing (schedules with trial notices on): the `subscription.trial_will_end` notice,
//     three days before trial end (at once for shorter trials), unless already sent for it;
//   - the current period's end (not once canceled): "trial_end" while trialing, "cancel_at_period_end"
//     when a cancellation is pending, "roll_without_invoice" while paused or unpaid, else "renewal".
// The earliest wins; on a tie invoice work goes first (finalize, charge, claim check), so the
// money of a period is settled in the order it was billed before the next period starts; the
// trial notice goes before the trial's end.
//
// Trial notices came after the first recorded histories: workflows decide with `patched()` and
// pass `{ trialNotices }`, so a replayed history from before keeps its original schedule.
import type { InvoiceView, StepRequest, SubscriptionView } from './subscriptions';

export type DueStep =
  | { kind: 'finalize_invoice'; reason: 'draft_invoice'; invoiceId: string; at: number }
  | { kind: 'charge_invoice'; reason: 'first_attempt' | 'dunning_retry'; invoiceId: string; attempt: number; at: number }
  | { kind: 'check_bank_claim'; reason: 'claim_check'; invoiceId: string; at: number }
  | { kind: 'trial_notice'; reason: 'trial_will_end'; trialEnd: string; at: number }
  | {
      kind: 'period_end';
      reason: 'trial_end' | 'renewal' | 'cancel_at_period_end' | 'roll_without_invoice';
      /** ISO of the period end this step closes (the activity ignores a stale one). */
      periodEnd: string;
      at: number;
    };

const KIND_ORDER: Record<DueStep['kind'], number> = { finalize_invoice: 0, charge_invoice: 1, check_bank_claim: 2, trial_notice: 3, period_end: 4 };

/** How long before trial_end the notice is due (src/domain/subscriptions/trial-notice.ts). */
export const TRIAL_NOTICE_LEAD_MS = 3 * 24 * 60 * 60 * 1000;

export interface ScheduleOptions {
  /** Include the trial_will_end notice (workflows created after the notice existed). */
  trialNotices?: boolean;
}

function ms(iso: string): number {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) throw new RangeError(`not an ISO instant: ${iso}`);
  return t;
}

function invoiceStep(inv: InvoiceView): DueStep | null {
  if (inv.status === 'draft') return { kind: 'finalize_invoice', reason: 'draft_invoice', invoiceId: inv.id, at: Number.NEGATIVE_INFINITY };
  if (inv.nextActionAt === null) return null;
  const at = ms(inv.nextActionAt);
  if (inv.collectionMethod === 'charge_automatically') {
    return { kind: 'charge_invoice', reason: inv.attemptCount === 0 ? 'first_attempt' : 'dunning_retry', invoiceId: inv.id, attempt: inv.attemptCount + 1, at };
  }
  return { kind: 'check_bank_claim', reason: 'claim_check', invoiceId: inv.id, at };
}

function periodStep(view: SubscriptionView): DueStep | null {
  if (view.status === 'canceled') return null;
  const at = ms(view.currentPeriodEnd);
  let reason: Extract<DueStep, { kind: 'period_end' }>['reason'];
  if (view.cancelAtPeriodEnd) reason = 'cancel_at_period_end';
  else if (view.status === 'trialing') reason = 'trial_end';
  else if (view.status === 'paused' || view.status === 'unpaid') reason = 'roll_without_invoice';
  else reason = 'renewal';
  return { kind: 'period_end', reason, periodEnd: view.currentPeriodEnd, at };
}

function trialNoticeStep(view: SubscriptionView): DueStep | null {
  if (view.status !== 'trialing' || view.trialEnd === null) return null;
  if ((view.trialWillEndNotifiedFor ?? null) === view.trialEnd) return null;
  return { kind: 'trial_notice', reason: 'trial_will_end', trialEnd: view.trialEnd, at: ms(view.trialEnd) - TRIAL_NOTICE_LEAD_MS };
}

/** Every pending step, earliest first (ties: invoice work before the period end, then invoice order). */
export function pendingSteps(view: SubscriptionView, opts: ScheduleOptions = {}): DueStep[] {
  const steps: DueStep[] = [];
  for (const inv of view.invoices) {
    const s = invoiceStep(inv);
    if (s) steps.push(s);
  }
  if (opts.trialNotices) {
    const n = trialNoticeStep(view);
    if (n) steps.push(n);
  }
  const p = periodStep(view);
  if (p) steps.push(p);
  // Array.prototype.sort is stable: equal keys keep the invoices' order (oldest first).
  return steps.sort((a, b) => (a.at === b.at ? KIND_ORDER[a.kind] - KIND_ORDER[b.kind] : a.at - b.at));
}

/** The next step, or null when nothing will ever be due again (canceled and nothing to collect). */
export function nextStep(view: SubscriptionView, opts: ScheduleOptions = {}): DueStep | null {
  return pendingSteps(view, opts)[0] ?? null;
}

/** True when the step's time has come. */
export function isDue(step: DueStep, now: number): boolean {
  return step.at <= now;
}

/** Milliseconds to wait for the step (0 when due); at least 1 ms otherwise. */
export function waitMs(step: DueStep, now: number): number {
  return step.at <= now ? 0 : Math.max(1, step.at - now);
}

/**
 * The workflow has nothing left to do: canceled, and every invoice settled (or left
 * uncollectible), or canceled on a deleted test clock (its time will never come).
 */
export function isFinished(view: SubscriptionView, opts: ScheduleOptions = {}): boolean {
  if (view.status !== 'canceled') return false;
  return nextStep(view, opts) === null || (view.testClockId !== null && view.clockDeleted);
}

/**
 * Test clocks: the subscription has caught up with clockTime (and should say so) when nothing is
 * due at or before it and it has not acknowledged that time yet.
 */
export function shouldAcknowledgeClock(view: SubscriptionView, clockTime: number, opts: ScheduleOptions = {}): boolean {
  const step = nextStep(view, opts);
  if (step !== null && isDue(step, clockTime)) return false;
  const synced = view.clockSyncedTo === null ? Number.NEGATIVE_INFINITY : ms(view.clockSyncedTo);
  return synced < clockTime;
}

/** The step as an activity input (its timing stays with the workflow). */
export function stepRequest(step: DueStep): StepRequest {
  switch (step.kind) {
    case 'period_end':
      return { kind: 'period_end', periodEnd: step.periodEnd };
    case 'finalize_invoice':
      return { kind: 'finalize_invoice', invoiceId: step.invoiceId };
    case 'charge_invoice':
      return { kind: 'charge_invoice', invoiceId: step.invoiceId, attempt: step.attempt };
    case 'check_bank_claim':
      return { kind: 'check_bank_claim', invoiceId: step.invoiceId };
    case 'trial_notice':
      return { kind: 'trial_notice', trialEnd: step.trialEnd };
  }
}

/** Invoice work (finalize, charge attempt, claim check): what may follow a step in the same activity. */
export function isInvoiceStep(step: DueStep): boolean {
  return step.kind === 'finalize_invoice' || step.kind === 'charge_invoice' || step.kind === 'check_bank_claim';
}
