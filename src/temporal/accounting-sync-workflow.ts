// The sync workflow of a link: `accounting-sync/<al_id>` (src/temporal/workflow-ids.ts), started
// when a link is created, nudged when there is new work (settings saved, a record re-synced),
// told to stop when the link is disconnected. All calls are safe to repeat.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ACCOUNTING_SYNC_WORKFLOW, ACCOUNTING_SYNC_NUDGE, ACCOUNTING_SYNC_STOP, type AccountingSyncInput } from '../contracts/accounting';
import { workflowIds } from './workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../contracts/search-attributes';

export interface SyncTarget {
  client: Client;
  taskQueue: string;
}

export async function startSyncWorkflow(target: SyncTarget, input: AccountingSyncInput): Promise<void> {
  await target.client.workflow.start(ACCOUNTING_SYNC_WORKFLOW, {
    taskQueue: target.taskQueue,
    workflowId: workflowIds.accountingSync(input.linkId),
    args: [input] as [AccountingSyncInput],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [
      { key: SA_MERCHANT, value: input.merchantId },
      { key: SA_MODE, value: input.mode },
    ],
  });
}

/** Wakes the sync (starting it when it is not running, e.g. Temporal was down at connect time). */
export async function nudgeSyncWorkflow(target: SyncTarget, input: AccountingSyncInput): Promise<void> {
  await target.client.workflow.signalWithStart(ACCOUNTING_SYNC_WORKFLOW, {
    taskQueue: target.taskQueue,
    workflowId: workflowIds.accountingSync(input.linkId),
    args: [input] as [AccountingSyncInput],
    signal: ACCOUNTING_SYNC_NUDGE,
    signalArgs: [],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [
      { key: SA_MERCHANT, value: input.merchantId },
      { key: SA_MODE, value: input.mode },
    ],
  });
}

export async function stopSyncWorkflow(target: SyncTarget, linkId: string): Promise<void> {
  try {
    await target.client.workflow.getHandle(workflowIds.accountingSync(linkId)).signal(ACCOUNTING_SYNC_STOP);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}
