// The workflow of one test clock, `test-clock/clock_…` (docs/test-clocks.md).
// Started (or woken) by signal-with-start after an advance commits. For each advance it tells
// every subscription of the clock's customers the new time (an activity signals their
// workflows, starting any that never started), then waits until all of them have caught up
// (each subscription records its acknowledged time and nudges this workflow), and marks the
// clock `ready`. It ends when there is nothing left to do; the next advance starts it again.
import { condition, continueAsNew, defineSignal, proxyActivities, setHandler, workflowInfo, allHandlersFinished } from '@temporalio/workflow';
import type { SubscriptionActivities } from '../activities/subscriptions';
import {
  CLOCK_ADVANCE_SIGNAL,
  CLOCK_DELETED_SIGNAL,
  CLOCK_SUBSCRIPTION_SYNCED_SIGNAL,
  type TestClockWorkflowInput,
  type TestClockWorkflowResult,
} from '../src/contracts/subscriptions';

const { notifyClockSubscriptions, completeClockAdvance } = proxyActivities<SubscriptionActivities>({
  startToCloseTimeout: '10 minutes',
  // Short, so that after a Temporal outage (heartbeats cannot arrive) the attempt is retried as
  // soon as the server is back rather than a minute after the outage began. The activity
  // heartbeats after every batch of signals; only the options change, so histories replay.
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export const clockAdvanceSignal = defineSignal(CLOCK_ADVANCE_SIGNAL);
export const clockSubscriptionSyncedSignal = defineSignal(CLOCK_SUBSCRIPTION_SYNCED_SIGNAL);
export const clockDeletedSignal = defineSignal(CLOCK_DELETED_SIGNAL);

/** Fallback re-check while waiting; subscriptions nudge as soon as they catch up. */
const RECHECK_INTERVAL = '5 seconds';
const NUDGE_GATHER = '200 milliseconds';

export async function testClockWorkflow(input: TestClockWorkflowInput): Promise<TestClockWorkflowResult> {
  let advanceRequested = false;
  let nudged = false;
  let deleted = false;
  setHandler(clockAdvanceSignal, () => {
    advanceRequested = true;
  });
  setHandler(clockSubscriptionSyncedSignal, () => {
    nudged = true;
  });
  setHandler(clockDeletedSignal, () => {
    deleted = true;
  });

  const ref = { testClockId: input.testClockId, merchantId: input.merchantId };
  let advances = 0;
  let waiting = input.resumeAdvance === true;
  // The signal that started this run has been delivered before the first await.
  while ((advanceRequested || waiting) && !deleted) {
    if (advanceRequested) {
      advanceRequested = false;
      const notified = await notifyClockSubscriptions(ref);
      if (notified.status === 'deleted') break;
    }
    waiting = false;
    for (;;) {
      nudged = false;
      const progress = await completeClockAdvance(ref);
      if (progress.status !== 'advancing') break;
      if (await condition(() => nudged || deleted || advanceRequested, RECHECK_INTERVAL)) {
        // Many subscriptions catch up at once: let their nudges gather before counting again.
        if (!deleted && !advanceRequested) await condition(() => deleted || advanceRequested, NUDGE_GATHER);
      }
      if (deleted || advanceRequested) break;
      if (workflowInfo().continueAsNewSuggested) {
        await condition(allHandlersFinished);
        await continueAsNew<typeof testClockWorkflow>({ ...input, resumeAdvance: true });
      }
    }
    advances += 1;
  }
  return { advances };
}
