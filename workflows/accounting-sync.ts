// The accounting sync of one link: workflow id `accounting-sync/<al_id>`. A loop of push batches
// (activities/accounting.ts): go on at once while there is more; when idle, wait for a nudge or
// the poll interval; stop when the link is disconnected (the batch says so, or a stop signal).
// Provider outages and rate limits are activity retries with backoff (Retry-After honoured), so
// the workflow never fails on them. Continue-as-new keeps the history short.
import { condition, continueAsNew, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { AccountingActivities } from '../activities/accounting';
import { ACCOUNTING_SYNC_NUDGE, ACCOUNTING_SYNC_STOP, type AccountingSyncInput, type AccountingSyncResult } from '../src/contracts/accounting';

const { pushAccountingSyncBatch } = proxyActivities<AccountingActivities>({
  startToCloseTimeout: '10 minutes',
  // A push takes at most the adapter's 15 s timeout; a dead worker's batch is retried after this.
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '2 minutes' },
});

export const nudgeSignal = defineSignal(ACCOUNTING_SYNC_NUDGE);
export const stopSignal = defineSignal(ACCOUNTING_SYNC_STOP);

const ITERATIONS_PER_RUN = 200;

export async function accountingSyncWorkflow(input: AccountingSyncInput): Promise<AccountingSyncResult> {
  let nudged = false;
  let stop = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  setHandler(stopSignal, () => {
    stop = true;
  });
  for (let i = 0; i < ITERATIONS_PER_RUN; i++) {
    if (stop) return { linkId: input.linkId, stopped: true };
    nudged = false;
    const batch = await pushAccountingSyncBatch(input);
    if (batch.state === 'stopped' || stop) return { linkId: input.linkId, stopped: true };
    if (batch.state === 'more') continue;
    await condition(() => nudged || stop, `${input.pollSeconds} seconds`);
    if (workflowInfo().continueAsNewSuggested) break;
  }
  if (stop) return { linkId: input.linkId, stopped: true };
  return continueAsNew<typeof accountingSyncWorkflow>(input);
}
