// How a worker process divides its workflow cache and activity slots over WORKER_SHARDS Temporal
// workers (boot/runtime/worker.ts shardSettings; docs/operations.md): adding shards adds neither memory nor
// database connections.
import assert from 'node:assert/strict';
import { WORKFLOWS_PER_SHARD, sdkDefaultCachedWorkflows, shardSettings } from '../../../boot/runtime/worker';

describe('worker shards: how a process splits its settings', () => {
  it('one shard keeps the settings as they are (the SDK picks the cache when none is set)', () => {
    assert.deepEqual(shardSettings({ shards: 1, cachedWorkflows: undefined, activitySlots: 100 }), {
      shards: 1,
      cachedWorkflowsPerShard: undefined,
      activitySlotsPerShard: 100,
      workflowTaskSlotsPerShard: 40,
    });
    assert.deepEqual(shardSettings({ shards: 1, cachedWorkflows: 10_500, activitySlots: 20 }), {
      shards: 1,
      cachedWorkflowsPerShard: 10_500,
      activitySlotsPerShard: 20,
      workflowTaskSlotsPerShard: 40,
    });
  });

  it("divides the cache, the activity slots and the SDK's 40 workflow-task slots, rounding up", () => {
    assert.deepEqual(shardSettings({ shards: 4, cachedWorkflows: 10_500, activitySlots: 20 }), {
      shards: 4,
      cachedWorkflowsPerShard: 2_625,
      activitySlotsPerShard: 5,
      workflowTaskSlotsPerShard: 10,
    });
    assert.deepEqual(shardSettings({ shards: 3, cachedWorkflows: 1_000, activitySlots: 100 }), {
      shards: 3,
      cachedWorkflowsPerShard: 334,
      activitySlotsPerShard: 34,
      workflowTaskSlotsPerShard: 14,
    });
  });

  it("divides the SDK's default cache for the heap when no size is set", () => {
    // 4,096 MiB of heap: the SDK's (4,096 - 200) * 600 / 1,024 = 2,282 workflows.
    assert.equal(sdkDefaultCachedWorkflows(4_096), 2_282);
    assert.equal(shardSettings({ shards: 2, cachedWorkflows: undefined, activitySlots: 100, heapLimitMiB: 4_096 }).cachedWorkflowsPerShard, 1_141);
    // A tiny heap: the SDK's floor of 10.
    assert.equal(sdkDefaultCachedWorkflows(100), 10);
  });

  it('unset, runs one shard per 3,000 cached workflows, and one with the SDK default cache of a 4 GiB heap', () => {
    assert.equal(WORKFLOWS_PER_SHARD, 3_000);
    const auto = (cachedWorkflows: number | undefined, heapLimitMiB?: number) => shardSettings({ shards: undefined, cachedWorkflows, activitySlots: 20, heapLimitMiB });
    assert.deepEqual(auto(undefined, 4_096), { shards: 1, cachedWorkflowsPerShard: undefined, activitySlotsPerShard: 20, workflowTaskSlotsPerShard: 40 });
    assert.deepEqual(auto(3_000), { shards: 1, cachedWorkflowsPerShard: 3_000, activitySlotsPerShard: 20, workflowTaskSlotsPerShard: 40 });
    assert.deepEqual(auto(3_001), { shards: 2, cachedWorkflowsPerShard: 1_501, activitySlotsPerShard: 10, workflowTaskSlotsPerShard: 20 });
    assert.deepEqual(auto(10_500), { shards: 4, cachedWorkflowsPerShard: 2_625, activitySlotsPerShard: 5, workflowTaskSlotsPerShard: 10 });
    // An 8 GiB heap: the SDK's default cache of 4,682 → 2 shards.
    assert.equal(auto(undefined, 8_192).shards, 2);
    assert.equal(auto(undefined, 8_192).cachedWorkflowsPerShard, 2_341);
    // Never more than 64 (MAX_WORKER_SHARDS).
    assert.equal(auto(1_000_000).shards, 64);
  });

  it('never gives a shard fewer than 2 cached workflows, 1 activity slot or 2 workflow-task slots', () => {
    assert.deepEqual(shardSettings({ shards: 64, cachedWorkflows: 3, activitySlots: 2 }), {
      shards: 64,
      cachedWorkflowsPerShard: 2,
      activitySlotsPerShard: 1,
      workflowTaskSlotsPerShard: 2,
    });
  });
});
