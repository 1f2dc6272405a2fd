// The client side of the test-clock workflow `test-clock/clock_…`: its id, policies and signals.
//  - reuse policy ALLOW_DUPLICATE: a clock's workflow ends when it has nothing to do and is
//    started again by the next advance;
//  - conflict policy USE_EXISTING for signal-with-start.
import type { Client } from '@temporalio/client';
import { workflowIds } from './workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../contracts/search-attributes';
import { connectedClient, type TemporalTarget } from './connection';
import { signalIfRunning } from './start-once';
import { CLOCK_ADVANCE_SIGNAL, CLOCK_DELETED_SIGNAL, CLOCK_SUBSCRIPTION_SYNCED_SIGNAL, TEST_CLOCK_WORKFLOW, type TestClockWorkflowInput } from '../contracts/subscriptions';

export interface TestClockWorkflowClient {
  /** After an advance committed: wake (or start) the clock's workflow. */
  signalAdvance(input: TestClockWorkflowInput): Promise<void>;
  /** After a delete committed: stop the clock's workflow if it runs. */
  signalDeleted(testClockId: string): Promise<void>;
  /** A subscription caught up: the clock's workflow recounts (a finished one is left alone). */
  signalSubscriptionSynced(testClockId: string): Promise<void>;
}

export function testClockWorkflowClient(target: TemporalTarget): TestClockWorkflowClient {
  const client = (): Promise<Client> => connectedClient(target);
  return {
    async signalAdvance(input) {
      const args: [TestClockWorkflowInput] = [input];
      const c = await client();
      await c.workflow.signalWithStart(TEST_CLOCK_WORKFLOW, {
        taskQueue: target.taskQueue,
        workflowId: workflowIds.testClock(input.testClockId),
        args,
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        workflowIdConflictPolicy: 'USE_EXISTING',
        typedSearchAttributes: [
          { key: SA_MERCHANT, value: input.merchantId },
          { key: SA_MODE, value: 'test' },
        ],
        signal: CLOCK_ADVANCE_SIGNAL,
        signalArgs: [],
      });
    },

    async signalDeleted(testClockId) {
      const c = await client();
      await signalIfRunning(() => c.workflow.getHandle(workflowIds.testClock(testClockId)).signal(CLOCK_DELETED_SIGNAL));
    },

    async signalSubscriptionSynced(testClockId) {
      const c = await client();
      await signalIfRunning(() => c.workflow.getHandle(workflowIds.testClock(testClockId)).signal(CLOCK_SUBSCRIPTION_SYNCED_SIGNAL));
    },
  };
}
