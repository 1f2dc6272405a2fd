// The client modules of the workflows that the domain starts, signals or updates, built once
// per process by a composition root (the API's createApp, the worker's activities) and passed
// to the domain as a dependency.
import type { TemporalTarget } from './connection';
import { subscriptionWorkflowClient, type SubscriptionWorkflowClient } from './subscription-workflow';
import { testClockWorkflowClient, type TestClockWorkflowClient } from './test-clock-workflow';
import { paymentSessionWorkflowClient, type PaymentSessionWorkflowClient } from './payment-session-workflow';
import { refundWorkflowClient, type RefundWorkflowClient } from './refund-workflow';
import { accountingSyncWorkflowClient, type AccountingSyncWorkflowClient } from './accounting-sync-workflow';
import { deliveryWorkflowClient, type DeliveryWorkflowClient } from './delivery-workflow';

export interface WorkflowClients {
  subscription: SubscriptionWorkflowClient;
  testClock: TestClockWorkflowClient;
  paymentSession: PaymentSessionWorkflowClient;
  refund: RefundWorkflowClient;
  accountingSync: AccountingSyncWorkflowClient;
  delivery: DeliveryWorkflowClient;
}

export function createWorkflowClients(target: TemporalTarget): WorkflowClients {
  return {
    subscription: subscriptionWorkflowClient(target),
    testClock: testClockWorkflowClient(target),
    paymentSession: paymentSessionWorkflowClient(target),
    refund: refundWorkflowClient(target),
    accountingSync: accountingSyncWorkflowClient(target),
    delivery: deliveryWorkflowClient(target),
  };
}
