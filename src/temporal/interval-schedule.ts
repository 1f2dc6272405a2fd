// One Temporal schedule that starts a workflow at a fixed interval, created if missing and
// otherwise updated to the current action (arguments may change with configuration).
// Overlapping runs are skipped: a slow run is never doubled by the next tick.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';

export async function ensureIntervalSchedule(
  client: Client,
  opts: { scheduleId: string; every: Duration; workflowType: string; taskQueue: string; args: unknown[] },
): Promise<void> {
  const action = {
    type: 'startWorkflow' as const,
    workflowType: opts.workflowType,
    taskQueue: opts.taskQueue,
    args: opts.args,
    workflowId: opts.scheduleId,
  };
  try {
    await client.schedule.create({
      scheduleId: opts.scheduleId,
      spec: { intervals: [{ every: opts.every }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action,
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(opts.scheduleId).update((prev) => ({ ...prev, action }));
  }
}
