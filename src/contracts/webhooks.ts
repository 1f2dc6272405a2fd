// Inputs and outputs of the webhook workflows and their activities, shared by the workflow code
// (deterministic), the activities and the code that starts or signals the workflows.

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';
export const WEBHOOK_DISPATCH_RECONCILER_WORKFLOW = 'webhookDispatchReconcilerWorkflow';
/** Signal to a running delivery workflow: make an attempt now, whatever the schedule. */
export const RETRY_DELIVERY_NOW_SIGNAL = 'retryDeliveryNow';

export interface WebhookDeliveryInput {
  deliveryId: string;
  /**
   * A run started by a manual retry after the automatic run finished: one attempt now (plus one
   * more per retry requested while it runs), no automatic retries after it.
   */
  manual?: boolean;
}

export type AttemptOutcome = 'delivered' | 'failed' | 'stopped';

export interface WebhookDeliveryResult {
  deliveryId: string;
  /** `stopped`: the endpoint was disabled or deleted, or the delivery was canceled. */
  outcome: AttemptOutcome;
  /** Attempts made by this run. */
  attempts: number;
}

export interface AttemptDeliveryInput {
  deliveryId: string;
  /** Attempt number of the delivery (1-based, across runs); the idempotency key of the attempt. */
  attemptNumber: number;
  /** Position in the automatic retry schedule: the delay after a failure is the one after this step. */
  scheduleStep: number;
  trigger: 'automatic' | 'manual';
  /** False in a manual-retry run: a failure is final. */
  automaticRetries: boolean;
}

export interface AttemptDeliveryResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** Wait before the next automatic attempt; null when none follows. */
  retryDelayMs: number | null;
}

export interface DispatchReconcileInput {
  /** Events younger than this are left to the after-commit dispatch of their creator. */
  minAgeSeconds: number;
  batchSize: number;
}

export interface DispatchReconcileResult {
  dispatched: number;
}
