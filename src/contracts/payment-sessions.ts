// Inputs and outputs of the payment-session expiry workflow and its activity, shared by the
// workflow code (deterministic), the activity and the code that starts or signals the workflow.

export const PAYMENT_SESSION_WORKFLOW = 'paymentSessionWorkflow';
/** Signal to a session's workflow: the session was completed, stop waiting for expiry. */
export const PAYMENT_SESSION_COMPLETED_SIGNAL = 'paymentSessionCompleted';

export interface PaymentSessionWorkflowInput {
  sessionId: string;
  merchantId: string;
  mode: 'test' | 'live';
  /** The session's expires_at (ISO), for operators reading the history. */
  expiresAt: string;
  /**
   * How long to wait before trying to expire the session, computed by the starter from
   * expires_at (the workflow reads no clock). If the activity finds the session not yet due
   * (clock skew), it answers how much longer to wait.
   */
  waitMs: number;
}

export interface ExpirePaymentSessionInput {
  sessionId: string;
  merchantId: string;
  mode: 'test' | 'live';
}

export type ExpirePaymentSessionResult =
  /** The session is now (or already was) expired; its payment canceled if it was unpaid. */
  | { outcome: 'expired'; paymentCanceled: boolean }
  /** The session was completed first: nothing to do. */
  | { outcome: 'complete' }
  /** No such session (its transaction rolled back): nothing to do. */
  | { outcome: 'missing' }
  /** expires_at is still ahead (clock skew between Temporal and the database): wait this long. */
  | { outcome: 'not_due'; waitMs: number };

export interface PaymentSessionWorkflowResult {
  sessionId: string;
  /** `not_due`: gave up after repeated clock disagreements (never expected; the checkout still refuses after expires_at). */
  outcome: 'complete' | 'expired' | 'missing' | 'not_due';
}

export const PAYMENT_SESSION_SWEEPER_WORKFLOW = 'paymentSessionSweeperWorkflow';

/** Sessions still `open` this long after `expires_at` lost their expiry workflow: expire them. */
export interface SweepPaymentSessionsInput {
  graceSeconds: number;
  batchSize: number;
}

export interface SweepPaymentSessionsResult {
  looked: number;
  expired: number;
}
