// The client side of a webhook delivery's workflow `delivery/evt_…/we_…`
// (workflows/webhook-delivery.ts): its id, policies and search attributes.
//  - dispatch: reuse policy REJECT_DUPLICATE, so a repeated dispatch never makes a second run;
//  - manual retry: signal-with-start under ALLOW_DUPLICATE: a running workflow attempts now, a
//    finished one is started again for one attempt (atomically on the Temporal side, so two
//    concurrent retries never make two runs).
import type { Client } from '@temporalio/client';
import { workflowIds } from './workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../contracts/search-attributes';
import { startOnce } from './start-once';
import { RETRY_DELIVERY_NOW_SIGNAL, WEBHOOK_DELIVERY_WORKFLOW, type WebhookDeliveryInput } from '../contracts/webhooks';

export interface DeliveryRef {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  merchantId: string;
  mode: string;
}

const searchAttributes = (d: DeliveryRef) => [
  { key: SA_MERCHANT, value: d.merchantId },
  { key: SA_MODE, value: d.mode },
];

/** Starts `delivery/<evt>/<we>`; false when it exists already (running or finished). */
export async function startDeliveryWorkflow(target: { client: Client; taskQueue: string }, d: DeliveryRef): Promise<boolean> {
  const args: [WebhookDeliveryInput] = [{ deliveryId: d.deliveryId }];
  return startOnce(() =>
    target.client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
      taskQueue: target.taskQueue,
      workflowId: workflowIds.delivery(d.eventId, d.endpointId),
      args,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      typedSearchAttributes: searchAttributes(d),
    }),
  );
}

/** Manual retry (see above). Throws when Temporal is unreachable, so the caller can report it. */
export async function signalDeliveryRetry(target: { client: Client; taskQueue: string }, d: DeliveryRef): Promise<void> {
  const args: [WebhookDeliveryInput] = [{ deliveryId: d.deliveryId, manual: true }];
  await target.client.workflow.signalWithStart(WEBHOOK_DELIVERY_WORKFLOW, {
    taskQueue: target.taskQueue,
    workflowId: workflowIds.delivery(d.eventId, d.endpointId),
    args,
    signal: RETRY_DELIVERY_NOW_SIGNAL,
    signalArgs: [],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: searchAttributes(d),
  });
}
