// createBillingWorker(deps): the Temporal worker with every workflow and activity.
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';

export function workflowsPath(): string {
  return require.resolve('../workflows');
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** Bundles workflow code once per process (tests create several workers). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietLogger });
  return bundle;
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string) => console.warn(m),
  error: (m: string) => console.error(m),
};

export interface WorkerHandle {
  worker: Worker;
  connection: NativeConnection;
  run(): Promise<void>;
  shutdown(): Promise<void>;
}

export async function createBillingWorker(
  deps: ActivityDeps & {
    address: string;
    namespace: string;
    taskQueue: string;
    maxConcurrentActivities?: number;
    reuseV8Context?: boolean;
  },
): Promise<WorkerHandle> {
  const connection = await NativeConnection.connect({ address: deps.address });
  // Renewals run as local activities (workflows/subscription.ts) on the same database pool as the
  // task-queue activities: the same number of slots for each.
  const activitySlots = deps.maxConcurrentActivities ?? 100;
  const worker = await Worker.create({
    connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities(deps),
    shutdownGraceTime: '30 seconds',
    maxConcurrentActivityTaskExecutions: activitySlots,
    maxConcurrentLocalActivityExecutions: activitySlots,
    // The workflow cache (WORKER_CACHED_WORKFLOWS; unset: the SDK's, sized from the heap limit,
    // about 2,300 workflows with a 4 GiB heap) and how long a task waits on this worker's sticky
    // queue before any worker may take it with its whole history (WORKER_STICKY_TIMEOUT_SECONDS,
    // default the SDK's 10 s; raise it for renewal bursts that last minutes): docs/operations.md.
    // One V8 context is shared by all workflows (the SDK's default).
    maxCachedWorkflows: deps.config.workerCachedWorkflows,
    stickyQueueScheduleToStartTimeout: deps.config.workerStickyTimeoutSeconds * 1000,
    reuseV8Context: deps.reuseV8Context,
  });
  let running: Promise<void> | undefined;
  return {
    worker,
    connection,
    run() {
      running ??= worker.run();
      return running;
    },
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running?.catch(() => undefined);
      await connection.close();
    },
  };
}
