// The client side of a webhook delivery's workflow `delivery/evt_…/we_…`
// (workflows/webhook-delivery.ts): its id, policies and search attributes. Injected into the
// domain (deps.workflows.delivery) by the composition roots; event dispatch builds one over the
// client it was given.
//  - start (dispatch): reuse policy REJECT_DUPLICATE, so a repeated dispatch never makes a second run;
//  - retryNow (manual retry): signal-with-start under ALLOW_DUPLICATE: a running workflow attempts
//    now, a finished one is started again for one attempt (atomically on the Temporal side, so two
//    concurrent retries never make two runs).
import type { Client } from '@temporalio/client';
import { workflowIds } from './workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../contracts/search-attributes';
import { startOnce } from './start-once';
import { connectedClient, type TemporalTarget } from './connection';
import { RETRY_DELIVERY_NOW_SIGNAL, WEBHOOK_DELIVERY_WORKFLOW, type WebhookDeliveryInput } from '../contracts/webhooks';

export interface DeliveryRef {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  merchantId: string;
  mode: string;
}

export interface DeliveryWorkflowClient {
  /** Starts `delivery/<evt>/<we>`; false when it exists already (running or finished). */
  start(d: DeliveryRef): Promise<boolean>;
  /** Manual retry (see above). Throws when Temporal is unreachable, so the caller can report it. */
  retryNow(d: DeliveryRef): Promise<void>;
}

const searchAttributes = (d: DeliveryRef) => [
  { key: SA_MERCHANT, value: d.merchantId },
  { key: SA_MODE, value: d.mode },
];

export function deliveryWorkflowClient(target: TemporalTarget): DeliveryWorkflowClient {
  const client = (): Promise<Client> => connectedClient(target);
  return {
    async start(d) {
      const c = await client();
      const args: [WebhookDeliveryInput] = [{ deliveryId: d.deliveryId }];
      return startOnce(() =>
        c.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
          taskQueue: target.taskQueue,
          workflowId: workflowIds.delivery(d.eventId, d.endpointId),
          args,
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          workflowIdConflictPolicy: 'FAIL',
          typedSearchAttributes: searchAttributes(d),
        }),
      );
    },

    async retryNow(d) {
      const c = await client();
      const args: [WebhookDeliveryInput] = [{ deliveryId: d.deliveryId, manual: true }];
      await c.workflow.signalWithStart(WEBHOOK_DELIVERY_WORKFLOW, {
        taskQueue: target.taskQueue,
        workflowId: workflowIds.delivery(d.eventId, d.endpointId),
        args,
        signal: RETRY_DELIVERY_NOW_SIGNAL,
        signalArgs: [],
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        typedSearchAttributes: searchAttributes(d),
      });
    },
  };
}
