// How a use case talks to a workflow through its client module (deps.workflows.*), written once:
//  - askWorkflow: a call the request waits for (a command, a manual retry). Temporal unreachable,
//    timing out or overloaded answers 503 service_unavailable with Retry-After (the client layer
//    probes it every half second, src/temporal/client.ts); anything else is unexpected and is
//    rethrown (a logged 500).
//  - afterCommit: a call that follows the change (start, nudge, stop a workflow). It runs after
//    the request's transaction committed, never when it rolled back; a failure is logged and left
//    to what repairs it (the next nudge, a reconciler), since the change itself is done.
import { errors } from '../errors';
import { TemporalUnavailableError } from '../temporal/connection';
import { isTemporalUnavailable } from '../temporal/unavailable';
import type { RequestScope } from './request-scope';

/** Seconds a client waits before resending a request refused because Temporal was unavailable. */
export const TEMPORAL_RETRY_AFTER = { 'Retry-After': '2' };

export interface WorkflowCallDeps {
  log: (line: string) => void;
}

/** Whether `err` says Temporal could not be reached right now (the request may be resent). */
export function temporalUnavailable(err: unknown): boolean {
  return err instanceof TemporalUnavailableError || isTemporalUnavailable(err);
}

/** The 503 a request answers when Temporal is unavailable. */
export function workflowUnavailableError(message: string) {
  return errors.serviceUnavailable(message, undefined, TEMPORAL_RETRY_AFTER);
}

/**
 * Runs a workflow call the request waits for. `what` names it in the log; `message` is the
 * 503's message.
 */
export async function askWorkflow<T>(deps: WorkflowCallDeps, what: string, message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!temporalUnavailable(err)) throw err;
    deps.log(`${what}: Temporal unavailable: ${(err as Error).message}`);
    throw workflowUnavailableError(message);
  }
}

/** Runs a workflow call after the request's transaction commits; a failure is logged. */
export function afterCommit(deps: WorkflowCallDeps, scope: Pick<RequestScope, 'afterCommit'>, what: string, call: () => Promise<unknown>): void {
  scope.afterCommit(async () => {
    try {
      await call();
    } catch (err) {
      deps.log(`${what}: ${(err as Error).message}`);
    }
  });
}
