// createBillingWorker(deps): the Temporal worker with every workflow and activity.
import v8 from 'node:v8';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkerInterceptors, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import { MAX_WORKER_SHARDS } from '../../src/config';

export function workflowsPath(): string {
  return require.resolve('../../workflows');
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
  /** The first of `workers` (one per shard: WORKER_SHARDS, or one per 3,000 cached workflows). */
  worker: Worker;
  workers: Worker[];
  /** How the process's cache and slots were divided (shardSettings). */
  settings: ReturnType<typeof shardSettings>;
  run(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The workflow-cache size the Temporal SDK picks when none is given (its worker-options.ts, with
 * one V8 context shared by all workflows): about 600 workflows per GiB of heap above 200 MiB.
 */
export function sdkDefaultCachedWorkflows(heapLimitMiB = v8.getHeapStatistics().heap_size_limit / 1_048_576): number {
  return Math.max(Math.floor((Math.max(heapLimitMiB - 200, 0) * 600) / 1024), 10);
}

/** Cached workflows per shard when WORKER_SHARDS is unset (docs/operations.md, docs/benchmarks.md session 12). */
export const WORKFLOWS_PER_SHARD = 3_000;

/**
 * How one worker process splits its settings over WORKER_SHARDS Temporal workers: the process's
 * workflow cache (WORKER_CACHED_WORKFLOWS, or the SDK's default for the process's heap) and its
 * activity slots are divided, so adding shards never adds memory or database connections. The
 * point of shards is the SDK core's cost per cached workflow (docs/operations.md): it walks every
 * workflow its worker caches on each input, so N workflows on one worker cost N per input, and on
 * k workers N / k. Unset, a process runs one shard per WORKFLOWS_PER_SHARD cached workflows (one
 * with the SDK's default cache and Node's default heap).
 */
export function shardSettings(input: { shards: number | undefined; cachedWorkflows: number | undefined; activitySlots: number; heapLimitMiB?: number }): {
  shards: number;
  cachedWorkflowsPerShard: number | undefined;
  activitySlotsPerShard: number;
  workflowTaskSlotsPerShard: number;
} {
  const total = input.cachedWorkflows ?? sdkDefaultCachedWorkflows(input.heapLimitMiB);
  const shards = Math.min(MAX_WORKER_SHARDS, Math.max(1, Math.floor(input.shards ?? Math.ceil(total / WORKFLOWS_PER_SHARD))));
  if (shards === 1) {
    return { shards, cachedWorkflowsPerShard: input.cachedWorkflows, activitySlotsPerShard: input.activitySlots, workflowTaskSlotsPerShard: SDK_WORKFLOW_TASK_SLOTS };
  }
  return {
    shards,
    // The SDK needs 2 or more of each per worker while it caches (0 turns caching off; not offered).
    cachedWorkflowsPerShard: Math.max(2, Math.ceil(total / shards)),
    activitySlotsPerShard: Math.max(1, Math.ceil(input.activitySlots / shards)),
    workflowTaskSlotsPerShard: Math.max(2, Math.ceil(SDK_WORKFLOW_TASK_SLOTS / shards)),
  };
}

/** The SDK's default number of workflow tasks a worker runs at once; a process keeps that total. */
const SDK_WORKFLOW_TASK_SLOTS = 40;

export async function createBillingWorker(
  deps: ActivityDeps & {
    address: string;
    namespace: string;
    taskQueue: string;
    maxConcurrentActivities?: number;
    reuseV8Context?: boolean;
    /** The SDK's interceptors (tests watch the worker's Temporal client and its activities). */
    interceptors?: WorkerInterceptors;
  },
): Promise<WorkerHandle> {
  // Renewals run as local activities (workflows/subscription.ts) on the same database pool as the
  // task-queue activities: the same number of slots for each.
  const split = shardSettings({
    shards: deps.config.workerShards,
    cachedWorkflows: deps.config.workerCachedWorkflows,
    // Bounded by the worker's pool (WORKER_MAX_CONCURRENT_ACTIVITIES, default 2 per connection):
    // more activities at once than that would only queue on the pool and time out there.
    activitySlots: deps.maxConcurrentActivities ?? deps.config.workerMaxConcurrentActivities,
  });
  const bundle = await workflowBundle();
  const activities = createActivities(deps);
  const workers: Worker[] = [];
  // Each shard has a connection of its own: the SDK allows one worker per task queue per connection.
  const connections: NativeConnection[] = [];
  try {
    for (let i = 0; i < split.shards; i++) {
      const connection = await NativeConnection.connect({ address: deps.address });
      connections.push(connection);
      workers.push(
        await Worker.create({
          connection,
          namespace: deps.namespace,
          taskQueue: deps.taskQueue,
          workflowBundle: bundle,
          activities,
          shutdownGraceTime: '30 seconds',
          maxConcurrentActivityTaskExecutions: split.activitySlotsPerShard,
          maxConcurrentLocalActivityExecutions: split.activitySlotsPerShard,
          maxConcurrentWorkflowTaskExecutions: split.workflowTaskSlotsPerShard,
          // The workflow cache (WORKER_CACHED_WORKFLOWS, divided over WORKER_SHARDS; unset: the
          // SDK's, sized from the heap limit, about 2,300 workflows with a 4 GiB heap) and how long a
          // task waits on this worker's sticky queue before any worker may take it with its whole
          // history (WORKER_STICKY_TIMEOUT_SECONDS, default the SDK's 10 s; raise it for renewal
          // bursts that last minutes): docs/operations.md. One V8 context is shared by all
          // workflows of a shard (the SDK's default).
          maxCachedWorkflows: split.cachedWorkflowsPerShard,
          stickyQueueScheduleToStartTimeout: deps.config.workerStickyTimeoutSeconds * 1000,
          reuseV8Context: deps.reuseV8Context,
          ...(deps.interceptors ? { interceptors: deps.interceptors } : {}),
        }),
      );
    }
  } catch (err) {
    // A worker releases the connection only once it has run and stopped.
    await Promise.allSettled(
      workers.map(async (w) => {
        const stopped = w.run();
        w.shutdown();
        await stopped;
      }),
    );
    await Promise.allSettled(connections.map((c) => c.close()));
    throw err;
  }
  let running: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;
  return {
    worker: workers[0],
    workers,
    settings: split,
    run() {
      // One shard stopping (a fatal error) stops the others, so the process does not go on serving
      // part of its workflows; run() settles when all have stopped, rejecting with the first error.
      running ??= (async () => {
        const results = await Promise.allSettled(
          workers.map((w) =>
            w.run().catch((err: unknown) => {
              for (const other of workers) if (other.getState() === 'RUNNING') other.shutdown();
              throw err;
            }),
          ),
        );
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      })();
      return running;
    },
    shutdown() {
      // Safe to call twice: the second call waits for the first.
      stopped ??= (async () => {
        for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
        await running?.catch(() => undefined);
        for (const c of connections) await c.close();
      })();
      return stopped;
    },
  };
}
