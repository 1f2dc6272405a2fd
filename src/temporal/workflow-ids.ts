// Deterministic workflow ids, derived from resource ids, so a repeated start collapses into the
// running workflow and an operator with a resource id finds its workflow in the UI at once.
export const workflowIds = {
  maintenance: (task: string) => `maintenance/${task}`,
  subscription: (subscriptionId: string) => `subscription/${subscriptionId}`,
  paymentSession: (sessionId: string) => `payment-session/${sessionId}`,
  refund: (refundId: string) => `refund/${refundId}`,
  delivery: (eventId: string, endpointId: string) => `delivery/${eventId}/${endpointId}`,
  testClock: (clockId: string) => `test-clock/${clockId}`,
  /** One sync per accounting link (docs/accounting.md). */
  accountingSync: (linkId: string) => `accounting-sync/${linkId}`,
} as const;

export const scheduleIds = {
  purgeExpired: 'maintenance/purge-expired',
  /** Every minute: dispatches events that were committed but never dispatched (webhooks). */
  webhookDispatchReconciler: 'webhooks/dispatch-reconciler',
  /** Every minute: starts workflows of subscriptions whose row has none, wakes stuck test clocks. */
  subscriptionReconciler: 'subscriptions/reconciler',
  /** Every minute: starts the workflow of refunds left pending without one (payments). */
  refundReconciler: 'payments/refund-reconciler',
  /** Every minute: expires payment sessions whose expiry workflow never started. */
  paymentSessionSweeper: 'payments/payment-session-sweeper',
} as const;
