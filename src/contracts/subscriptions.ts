// Inputs, outputs and message names of the subscription and test-clock workflows, shared by the
// workflow code (deterministic), the activities and the API that starts and updates them.
// Times travel as ISO strings (payloads are JSON); the pure schedule works in epoch ms.
import { NON_RETRYABLE_GATEWAY_ERROR_TYPES } from './gateway-failures';
import { COMMAND_ERROR_TYPES, type Refusal } from './refusal';

export { SA_STATUS, SA_CUSTOMER } from './search-attributes';

export const SUBSCRIPTION_WORKFLOW = 'subscriptionWorkflow';
export const TEST_CLOCK_WORKFLOW = 'testClockWorkflow';
export const SUBSCRIPTION_RECONCILER_WORKFLOW = 'subscriptionReconcilerWorkflow';

/** Signal to a subscription workflow: its test clock now reads `time` (ISO). */
export const CLOCK_ADVANCED_SIGNAL = 'clockAdvanced';
/** Signal: something outside the workflow changed what it is waiting for (a bank claim was paid): reload. */
export const SUBSCRIPTION_REFRESH_SIGNAL = 'refresh';
/** Update: a command from the API (cancel, pause, item change, …); answers once applied. */
export const SUBSCRIPTION_COMMAND_UPDATE = 'command';
/** Query: the workflow's view of the subscription and its clock. */
export const SUBSCRIPTION_STATE_QUERY = 'state';

/** Signal to a test-clock workflow: the clock was advanced (the row already says so). */
export const CLOCK_ADVANCE_SIGNAL = 'advance';
/** Signal to a test-clock workflow: a subscription caught up with the clock (recount now). */
export const CLOCK_SUBSCRIPTION_SYNCED_SIGNAL = 'subscriptionSynced';
/** Signal to a test-clock workflow: the clock was deleted; stop. */
export const CLOCK_DELETED_SIGNAL = 'deleted';

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'paused';
export type CollectionMethod = 'charge_automatically' | 'send_invoice';
export type Interval = 'day' | 'week' | 'month' | 'year';
export type ProrationBehavior = 'create_prorations' | 'always_invoice' | 'none';

/** An invoice of the subscription that still needs automatic work (draft, or open and being collected). */
export interface InvoiceView {
  id: string;
  status: 'draft' | 'open';
  collectionMethod: CollectionMethod;
  /** Charge attempts made so far. */
  attemptCount: number;
  /** When the next automatic step is due (ISO): a charge attempt or a bank-claim check; null: none. */
  nextActionAt: string | null;
}

/** What the workflow knows of its subscription: read from the database after every change. */
export interface SubscriptionView {
  id: string;
  merchantId: string;
  mode: 'test' | 'live';
  customerId: string;
  status: SubscriptionStatus;
  collectionMethod: CollectionMethod;
  interval: Interval;
  intervalCount: number;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  trialEnd: string | null;
  /**
   * The trial end `subscription.trial_will_end` was sent for. Absent in views recorded before
   * the notice existed (replayed histories); the schedule only reads it behind its patch.
   */
  trialWillEndNotifiedFor?: string | null;
  cancelAtPeriodEnd: boolean;
  pausedAt: string | null;
  testClockId: string | null;
  /** The test clock's frozen time as the database has it (null without a clock). */
  clockTime: string | null;
  /** The test clock was deleted: it will never move again. */
  clockDeleted: boolean;
  clockSyncedTo: string | null;
  /**
   * The stored `clock_wake_at` when the view was read (src/domain/subscriptions/clock-wake.ts):
   * compared in memory, so a step that leaves the next step's time alone writes nothing. Absent in
   * views recorded before it existed (replayed histories); the workflow never reads it.
   */
  clockWakeAt?: string | null;
  invoices: InvoiceView[];
}

export interface SubscriptionWorkflowInput {
  subscriptionId: string;
  merchantId: string;
  mode: 'test' | 'live';
  /** Test-clock subscriptions: the clock time known when this run started (ISO). */
  clockTime?: string | null;
  /** Carried across continue-as-new: periods billed by earlier runs (for the state query). */
  periodsBilled?: number;
  /** Carried across continue-as-new (test clocks): the instant the last step happened at (ISO). */
  lastStepAt?: string | null;
}

export interface SubscriptionWorkflowResult {
  subscriptionId: string;
  status: SubscriptionStatus;
}

export interface SubscriptionWorkflowState {
  view: SubscriptionView | null;
  clockTime: string | null;
  periodsBilled: number;
  /** The next thing the workflow will do, as the schedule sees it now. */
  next: { kind: string; reason: string; at: string } | null;
}

export interface ItemFields {
  price: string;
  quantity?: number;
  credit_rollover?: boolean;
  included_units?: number | null;
  metadata?: Record<string, string>;
}

export interface ItemChanges {
  quantity?: number;
  credit_rollover?: boolean;
  included_units?: number | null;
  /** Keys with null are removed. */
  metadata?: Record<string, string | null>;
}

export interface SubscriptionChanges {
  cancel_at_period_end?: boolean;
  /** null removes the discount. */
  discount?: { amount_off?: number | null; percent_off?: number | null; duration: 'once' | 'repeating' | 'forever'; duration_in_months?: number | null } | null;
  collection_method?: CollectionMethod;
  days_until_due?: number | null;
  metadata?: Record<string, string>;
}

export type SubscriptionCommand =
  | { kind: 'cancel'; atPeriodEnd: boolean }
  | { kind: 'uncancel' }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'update'; changes: SubscriptionChanges }
  | { kind: 'add_item'; itemId: string; item: ItemFields; prorationBehavior: ProrationBehavior }
  | { kind: 'update_item'; itemId: string; changes: ItemChanges; prorationBehavior: ProrationBehavior }
  | { kind: 'delete_item'; itemId: string; prorationBehavior: ProrationBehavior }
  | { kind: 'pay_invoice'; invoiceId: string }
  | { kind: 'void_invoice'; invoiceId: string };

export interface CommandResult {
  /** The item an item command created or changed, or the invoice of an invoice command. */
  objectId: string | null;
}

/** Input of the activity that applies a DB-only command. `now` is the subscription's time (clock or workflow). */
export interface ApplyCommandInput {
  subscriptionId: string;
  merchantId: string;
  mode: 'test' | 'live';
  /** Unique per command (the update id): applying the same id twice is a no-op. */
  commandId: string;
  now: string;
  command: Exclude<SubscriptionCommand, { kind: 'pay_invoice' }>;
  /**
   * The workflow's view's test clock: null applies the command at `now` with no query; a clock
   * id, at the clock's time when later (src/domain/subscriptions/clock-wake.ts). Absent from
   * inputs of runs before it was passed: read as on a clock.
   */
  testClockId?: string | null;
}

export interface SubscriptionRef {
  subscriptionId: string;
  merchantId: string;
  mode: 'test' | 'live';
}

export interface PeriodEndInput extends SubscriptionRef {
  /** The period end this step is for: a retried or repeated step for a past period does nothing. */
  periodEnd: string;
  now: string;
}

export interface TrialNoticeInput extends SubscriptionRef {
  /** The trial end the notice is for: a stale step (trial end moved) does nothing. */
  trialEnd: string;
}

export interface InvoiceStepInput extends SubscriptionRef {
  invoiceId: string;
  now: string;
  /** A manual retry: check the bank claim now even when no automatic check is scheduled. */
  force?: boolean;
  /** A manual retry or pay: the workflow's view's test clock, as in ApplyCommandInput. */
  testClockId?: string | null;
}

export interface ChargeStepInput extends InvoiceStepInput {
  /** 1-based; the acquirer idempotency key is `${invoiceId}:attempt:${attempt}`. */
  attempt: number;
  /** A manual retry (POST /v1/invoices/{id}/pay): does not move the dunning schedule. */
  manual: boolean;
}

/** One billing step of the schedule (src/contracts/subscription-schedule.ts DueStep without its timing). */
export type StepRequest =
  | { kind: 'period_end'; periodEnd: string }
  | { kind: 'finalize_invoice'; invoiceId: string }
  | { kind: 'charge_invoice'; invoiceId: string; attempt: number }
  | { kind: 'check_bank_claim'; invoiceId: string }
  | { kind: 'trial_notice'; trialEnd: string };

/**
 * Input of the activity that runs a due step and then, in the same activity, the invoice steps
 * that became due at the same instant (a renewal's invoice: finalize, then its first charge).
 */
export interface RunStepsInput extends SubscriptionRef {
  step: StepRequest;
  /** The instant the step happens at (the subscription's time); follow-up steps due by then happen at it too. */
  now: string;
  /** The workflow's schedule options (trial notices on or off), so the activity reads the schedule as the workflow does. */
  trialNotices: boolean;
  /** Test clocks: the clock time the workflow knows; the activity acknowledges it when nothing is due by then. */
  clockTime: string | null;
}

export interface PayInvoiceInput extends SubscriptionRef {
  invoiceId: string;
}

export interface CommandActivityResult {
  view: SubscriptionView | null;
  objectId: string | null;
  /** The command was refused (nothing changed): the Update fails with this code. */
  refusal: Refusal | null;
}

export interface ClockSyncInput extends SubscriptionRef {
  testClockId: string;
  clockTime: string;
}

export interface TestClockWorkflowInput {
  testClockId: string;
  merchantId: string;
  /** Set by continue-as-new in the middle of an advance: keep waiting for the subscriptions. */
  resumeAdvance?: boolean;
}

export interface TestClockWorkflowResult {
  advances: number;
}

export interface ClockNotifyResult {
  status: 'advancing' | 'ready' | 'deleted';
  frozenTime: string;
  notified: number;
}

export interface ClockProgressResult {
  status: 'ready' | 'advancing' | 'deleted';
  frozenTime: string;
  pending: number;
}

export interface ReconcileSubscriptionsInput {
  /** Rows younger than this are still being started by the request that created them. */
  minAgeSeconds: number;
  batchSize: number;
}

export interface ReconcileSubscriptionsResult {
  started: number;
  clocksNudged: number;
  /** Workflows found closed (failed, terminated, …) and restarted from their row. */
  restarted?: number;
  /** Workflows found closed after too many restarts: left to an operator (alert). */
  halted?: number;
}

export { COMMAND_ERROR_TYPES, type CommandErrorType } from './refusal';

/** Command refusals and gateway errors that must not be retried (src/contracts/gateway-failures.ts). */
export const NON_RETRYABLE_ACTIVITY_ERRORS = [...COMMAND_ERROR_TYPES, ...NON_RETRYABLE_GATEWAY_ERROR_TYPES] as const;
