// The client side of the subscription workflow `subscription/sub_…`: its id, start policies,
// search attributes, and every start, signal and update sent to it. Injected into the domain
// (which never imports the Temporal client) by the composition roots.
//  - reuse policy REJECT_DUPLICATE: a finished subscription workflow is never started again (a
//    canceled subscription stays canceled);
//  - conflict policy USE_EXISTING: a repeated start (the after-commit hook, the reconciler, a
//    command's update-with-start) joins the running workflow.
import type { Workflow } from '@temporalio/common';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { workflowIds } from './workflow-ids';
import { SA_CUSTOMER, SA_MERCHANT, SA_MODE, SA_STATUS } from '../contracts/search-attributes';
import { connectedClient, type TemporalTarget } from './connection';
import { signalIfRunning, startOnce } from './start-once';
import {
  CLOCK_ADVANCED_SIGNAL,
  SUBSCRIPTION_COMMAND_UPDATE,
  SUBSCRIPTION_REFRESH_SIGNAL,
  SUBSCRIPTION_WORKFLOW,
  type CommandResult,
  type SubscriptionCommand,
  type SubscriptionWorkflowInput,
} from '../contracts/subscriptions';
import { refusalOfFailure, type Refusal } from '../contracts/refusal';

export interface SubscriptionStartRef {
  subscriptionId: string;
  merchantId: string;
  mode: 'test' | 'live';
  customerId: string;
  status: string;
  /** Test-clock subscriptions: the clock's frozen time now (ISO). */
  clockTime?: string | null;
}

/** How the workflow answered a command. */
export type CommandUpdateOutcome =
  | { kind: 'applied'; result: CommandResult }
  /** The workflow refused it (nothing changed): the API error of the same code. */
  | { kind: 'refused'; refusal: Refusal }
  /** The update failed for another reason (the activity kept failing): retry later. */
  | { kind: 'failed'; message: string }
  /** The workflow has finished: the caller answers from the database. */
  | { kind: 'ended' };

/** A subscription workflow run that closed without finishing its work (failed, terminated, …). */
export interface ClosedSubscriptionRun {
  subscriptionId: string;
  runId: string;
  /** Temporal's execution status name: FAILED, TERMINATED, TIMED_OUT or CANCELLED. */
  status: string;
  closedAt: Date | null;
}

export interface SubscriptionWorkflowClient {
  /** The workflow id of a subscription (shown to operators). */
  workflowId(subscriptionId: string): string;
  /**
   * Runs of this task queue's subscription workflows that closed abnormally since `since`
   * (visibility query), newest first, at most `limit`.
   */
  closedAbnormally(since: Date, limit: number): Promise<ClosedSubscriptionRun[]>;
  /** True when the subscription's workflow (its latest run) is running. */
  isRunning(subscriptionId: string): Promise<boolean>;
  /**
   * Starts the workflow again after its last run closed abnormally (reuse policy
   * ALLOW_DUPLICATE_FAILED_ONLY: a workflow that completed normally is never restarted); joins
   * a running one. The new run reads everything from the row. False when refused.
   */
  restart(ref: SubscriptionStartRef): Promise<boolean>;
  /** Starts the subscription's workflow, or joins the running one. False when it had already finished. */
  start(ref: SubscriptionStartRef): Promise<boolean>;
  /** Tells the subscription its clock moved (starting its workflow if it never started). False when it had finished. */
  signalClockAdvanced(ref: SubscriptionStartRef, time: string): Promise<boolean>;
  /** Asks a running workflow to reload (something it waits for changed outside it). Ignores a finished one. */
  refresh(subscriptionId: string): Promise<void>;
  /**
   * Sends a command as the Update `command` and waits until it is applied. Update-with-start:
   * a row whose workflow never started (its after-commit start was lost) gets it now. The
   * update id makes a repeated command apply once. Throws TemporalUnavailableError without a
   * connection.
   */
  command(ref: SubscriptionStartRef, command: SubscriptionCommand, updateId: string): Promise<CommandUpdateOutcome>;
}

function startOptions(taskQueue: string, ref: SubscriptionStartRef) {
  const args: [SubscriptionWorkflowInput] = [{ subscriptionId: ref.subscriptionId, merchantId: ref.merchantId, mode: ref.mode, clockTime: ref.clockTime ?? null }];
  return {
    taskQueue,
    workflowId: workflowIds.subscription(ref.subscriptionId),
    args,
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    typedSearchAttributes: [
      { key: SA_MERCHANT, value: ref.merchantId },
      { key: SA_MODE, value: ref.mode },
      { key: SA_CUSTOMER, value: ref.customerId },
      { key: SA_STATUS, value: ref.status },
    ],
  };
}

function outcomeOfFailure(err: WorkflowUpdateFailedError): CommandUpdateOutcome {
  const refusal = refusalOfFailure(err.cause);
  if (refusal) return { kind: 'refused', refusal };
  return { kind: 'failed', message: err.cause?.message ?? err.message };
}

export function subscriptionWorkflowClient(target: TemporalTarget): SubscriptionWorkflowClient {
  const client = (): Promise<Client> => connectedClient(target);
  return {
    workflowId: (subscriptionId) => workflowIds.subscription(subscriptionId),

    async closedAbnormally(since, limit) {
      const c = await client();
      const query =
        `WorkflowType = '${SUBSCRIPTION_WORKFLOW}' AND TaskQueue = '${target.taskQueue}' ` +
        `AND ExecutionStatus IN ('Failed', 'Terminated', 'TimedOut', 'Canceled') AND CloseTime > '${since.toISOString()}'`;
      const out: ClosedSubscriptionRun[] = [];
      for await (const wf of c.workflow.list({ query, pageSize: Math.min(limit, 1000) })) {
        const prefix = workflowIds.subscription('');
        const subscriptionId = wf.workflowId.startsWith(prefix) ? wf.workflowId.slice(prefix.length) : null;
        if (subscriptionId) out.push({ subscriptionId, runId: wf.runId, status: wf.status.name, closedAt: wf.closeTime ?? null });
        if (out.length >= limit) break;
      }
      return out;
    },

    async isRunning(subscriptionId) {
      const c = await client();
      try {
        return (await c.workflow.getHandle(workflowIds.subscription(subscriptionId)).describe()).status.name === 'RUNNING';
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return false;
        throw err;
      }
    },

    async restart(ref) {
      const c = await client();
      return startOnce(() => c.workflow.start(SUBSCRIPTION_WORKFLOW, { ...startOptions(target.taskQueue, ref), workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' }));
    },

    async start(ref) {
      const c = await client();
      return startOnce(() => c.workflow.start(SUBSCRIPTION_WORKFLOW, startOptions(target.taskQueue, ref)));
    },

    async signalClockAdvanced(ref, time) {
      const c = await client();
      return startOnce(() => c.workflow.signalWithStart(SUBSCRIPTION_WORKFLOW, { ...startOptions(target.taskQueue, ref), signal: CLOCK_ADVANCED_SIGNAL, signalArgs: [time] }));
    },

    async refresh(subscriptionId) {
      const c = await client();
      await signalIfRunning(() => c.workflow.getHandle(workflowIds.subscription(subscriptionId)).signal(SUBSCRIPTION_REFRESH_SIGNAL));
    },

    async command(ref, command, updateId) {
      const c = await client();
      try {
        const result = await c.workflow.executeUpdateWithStart<Workflow, CommandResult, [SubscriptionCommand]>(SUBSCRIPTION_COMMAND_UPDATE, {
          args: [command],
          updateId,
          startWorkflowOperation: new WithStartWorkflowOperation(SUBSCRIPTION_WORKFLOW, startOptions(target.taskQueue, ref)),
        });
        return { kind: 'applied', result };
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError) return outcomeOfFailure(err);
        // REJECT_DUPLICATE refused the start: the workflow ran and finished.
        if (err instanceof WorkflowExecutionAlreadyStartedError) return { kind: 'ended' };
        throw err;
      }
    },
  };
}
