// The client side of an accounting link's sync workflow `accounting-sync/<al_id>`
// (workflows/accounting-sync.ts): its id, policies and search attributes, and the start, nudge
// and stop sent to it. Started when a link is created, nudged when there is new work (settings
// saved, a record re-synced), told to stop when the link is disconnected. All calls are safe to
// repeat. Injected into the domain (deps.workflows.accountingSync) by the composition roots.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ACCOUNTING_SYNC_WORKFLOW, ACCOUNTING_SYNC_NUDGE, ACCOUNTING_SYNC_STOP, type AccountingSyncInput } from '../contracts/accounting';
import { workflowIds } from './workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../contracts/search-attributes';
import { connectedClient, type TemporalTarget } from './connection';

export interface AccountingSyncWorkflowClient {
  /** The workflow id of a link's sync (shown to operators). */
  workflowId(linkId: string): string;
  /** Starts the link's sync, or joins the running one (conflict policy USE_EXISTING). */
  start(input: AccountingSyncInput): Promise<void>;
  /** Wakes the sync (starting it when it is not running, e.g. Temporal was down at connect time). */
  nudge(input: AccountingSyncInput): Promise<void>;
  /** Tells the sync to stop; a missing or finished workflow is fine. */
  stop(linkId: string): Promise<void>;
}

const startOptions = (taskQueue: string, input: AccountingSyncInput) => ({
  taskQueue,
  workflowId: workflowIds.accountingSync(input.linkId),
  args: [input] as [AccountingSyncInput],
  workflowIdConflictPolicy: 'USE_EXISTING' as const,
  typedSearchAttributes: [
    { key: SA_MERCHANT, value: input.merchantId },
    { key: SA_MODE, value: input.mode },
  ],
});

export function accountingSyncWorkflowClient(target: TemporalTarget): AccountingSyncWorkflowClient {
  const client = (): Promise<Client> => connectedClient(target);
  return {
    workflowId: (linkId) => workflowIds.accountingSync(linkId),

    async start(input) {
      const c = await client();
      await c.workflow.start(ACCOUNTING_SYNC_WORKFLOW, { ...startOptions(target.taskQueue, input), workflowIdReusePolicy: 'ALLOW_DUPLICATE' });
    },

    async nudge(input) {
      const c = await client();
      await c.workflow.signalWithStart(ACCOUNTING_SYNC_WORKFLOW, { ...startOptions(target.taskQueue, input), signal: ACCOUNTING_SYNC_NUDGE, signalArgs: [] });
    },

    async stop(linkId) {
      const c = await client();
      try {
        await c.workflow.getHandle(workflowIds.accountingSync(linkId)).signal(ACCOUNTING_SYNC_STOP);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}
