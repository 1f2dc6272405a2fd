// Every workflow the worker registers. Workflow code is deterministic: it imports only
// @temporalio/workflow, src/billing, src/contracts and activity types.
export { purgeExpiredWorkflow } from './maintenance';
export { webhookDeliveryWorkflow } from './webhook-delivery';
export { webhookDispatchReconcilerWorkflow } from './event-dispatch-reconciler';
export { refundWorkflow, refundReconcilerWorkflow } from './refund';
export { paymentSessionWorkflow } from './payment-session';
export { paymentSessionSweeperWorkflow } from './payment-session-sweeper';
export { testClockWorkflow } from './test-clock';
export { subscriptionWorkflow } from './subscription';
export { subscriptionReconcilerWorkflow } from './subscription/reconciler';
export { accountingSyncWorkflow } from './accounting-sync';
