// "Start the workflow; a repeat start that finds it there is fine": written once. Workflow ids
// are derived from resource ids, so a repeated start with the conflict policy USE_EXISTING joins
// the running workflow, and a start under REJECT_DUPLICATE finds a finished one refused.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';

/** Runs a start (or signal-with-start); false when Temporal answered that the workflow already ran. */
export async function startOnce(start: () => Promise<unknown>): Promise<boolean> {
  try {
    await start();
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** Runs a signal to a workflow that may have finished or never started; false when it was not running. */
export async function signalIfRunning(signal: () => Promise<unknown>): Promise<boolean> {
  try {
    await signal();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError || /not found|already completed/i.test((err as Error).message)) return false;
    throw err;
  }
}
