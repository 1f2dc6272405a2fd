// Starting, signalling and updating subscription and test-clock workflows from the API, the
// activities and the reconciler. Ids come from src/temporal/workflow-ids.ts; every start states
// its policies:
//  - subscriptions: reuse policy REJECT_DUPLICATE (a finished subscription workflow is never
//    started again: a canceled subscription stays canceled) and conflict policy USE_EXISTING (a
//    repeated start, from the after-commit hook, the reconciler or a command, joins the running one);
//  - test clocks: ALLOW_DUPLICATE (a clock's workflow ends when it has nothing to do and is
//    started again by the next advance), USE_EXISTING for signal-with-start.
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { workflowIds } from '../../temporal/workflow-ids';
import { SA_CUSTOMER, SA_MERCHANT, SA_MODE, SA_STATUS } from '../../temporal/search-attributes';
import {
  CLOCK_ADVANCE_SIGNAL,
  CLOCK_ADVANCED_SIGNAL,
  CLOCK_DELETED_SIGNAL,
  SUBSCRIPTION_COMMAND_UPDATE,
  SUBSCRIPTION_REFRESH_SIGNAL,
  SUBSCRIPTION_WORKFLOW,
  TEST_CLOCK_WORKFLOW,
  type CommandResult,
  type SubscriptionCommand,
  type SubscriptionWorkflowInput,
  type TestClockWorkflowInput,
} from '../../contracts/subscriptions';

export interface WorkflowTarget {
  client: Client;
  taskQueue: string;
}

export interface SubscriptionStartRef {
  subscriptionId: string;
  merchantId: string;
  mode: 'test' | 'live';
  customerId: string;
  status: string;
  /** Test-clock subscriptions: the clock's frozen time now (ISO). */
  clockTime?: string | null;
}

function subscriptionStartOptions(t: WorkflowTarget, ref: SubscriptionStartRef) {
  const args: [SubscriptionWorkflowInput] = [
    { subscriptionId: ref.subscriptionId, merchantId: ref.merchantId, mode: ref.mode, clockTime: ref.clockTime ?? null },
  ];
  return {
    taskQueue: t.taskQueue,
    workflowId: workflowIds.subscription(ref.subscriptionId),
    args,
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    typedSearchAttributes: [
      { key: SA_MERCHANT, value: ref.merchantId },
      { key: SA_MODE, value: ref.mode },
      { key: SA_CUSTOMER, value: ref.customerId },
      { key: SA_STATUS, value: ref.status },
    ],
  };
}

/** Starts the subscription's workflow, or joins the running one. False when it had already finished. */
export async function ensureSubscriptionWorkflow(t: WorkflowTarget, ref: SubscriptionStartRef): Promise<boolean> {
  try {
    await t.client.workflow.start(SUBSCRIPTION_WORKFLOW, { ...subscriptionStartOptions(t, ref), workflowIdConflictPolicy: 'USE_EXISTING' });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** Tells the subscription its clock moved (starting its workflow if it never started). False when it had finished. */
export async function signalClockAdvanced(t: WorkflowTarget, ref: SubscriptionStartRef, time: string): Promise<boolean> {
  try {
    await t.client.workflow.signalWithStart(SUBSCRIPTION_WORKFLOW, {
      ...subscriptionStartOptions(t, ref),
      workflowIdConflictPolicy: 'USE_EXISTING',
      signal: CLOCK_ADVANCED_SIGNAL,
      signalArgs: [time],
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** Asks a running subscription workflow to reload (a claim was paid outside it). Ignores a finished one. */
export async function signalSubscriptionRefresh(t: WorkflowTarget, subscriptionId: string): Promise<void> {
  try {
    await t.client.workflow.getHandle(workflowIds.subscription(subscriptionId)).signal(SUBSCRIPTION_REFRESH_SIGNAL);
  } catch (err) {
    if (/not found|already completed/i.test((err as Error).message)) return;
    throw err;
  }
}

/**
 * Sends a command as an Update and waits for its result. Update-with-start: if the row's
 * workflow was never started (the after-commit start was lost), this starts it. Throws
 * WorkflowExecutionAlreadyStartedError when the workflow has finished (the caller then answers
 * from the database), and WorkflowUpdateFailedError when the workflow refused the command.
 */
export async function executeSubscriptionCommand(t: WorkflowTarget, ref: SubscriptionStartRef, command: SubscriptionCommand, updateId: string): Promise<CommandResult> {
  const startWorkflowOperation = new WithStartWorkflowOperation(SUBSCRIPTION_WORKFLOW, {
    ...subscriptionStartOptions(t, ref),
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return t.client.workflow.executeUpdateWithStart<Workflow, CommandResult, [SubscriptionCommand]>(SUBSCRIPTION_COMMAND_UPDATE, {
    args: [command],
    updateId,
    startWorkflowOperation,
  });
}

function clockStartOptions(t: WorkflowTarget, input: TestClockWorkflowInput) {
  const args: [TestClockWorkflowInput] = [input];
  return {
    taskQueue: t.taskQueue,
    workflowId: workflowIds.testClock(input.testClockId),
    args,
    workflowIdReusePolicy: 'ALLOW_DUPLICATE' as const,
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    typedSearchAttributes: [
      { key: SA_MERCHANT, value: input.merchantId },
      { key: SA_MODE, value: 'test' },
    ],
  };
}

/** After an advance committed: wake (or start) the clock's workflow. */
export async function signalClockAdvance(t: WorkflowTarget, input: TestClockWorkflowInput): Promise<void> {
  await t.client.workflow.signalWithStart(TEST_CLOCK_WORKFLOW, { ...clockStartOptions(t, input), signal: CLOCK_ADVANCE_SIGNAL, signalArgs: [] });
}

/** After a delete committed: stop the clock's workflow if it runs. */
export async function signalClockDeleted(t: WorkflowTarget, testClockId: string): Promise<void> {
  try {
    await t.client.workflow.getHandle(workflowIds.testClock(testClockId)).signal(CLOCK_DELETED_SIGNAL);
  } catch (err) {
    if (/not found|already completed/i.test((err as Error).message)) return;
    throw err;
  }
}
