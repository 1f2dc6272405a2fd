import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { testEnv, type TestEnv } from '../support/env';
import { newMerchant } from '../support/api';
import { maybeRecordHistory } from '../support/histories';
import { ensureSchedules } from '../../src/temporal/schedules';
import { scheduleIds } from '../../src/temporal/workflow-ids';

describe('maintenance workflow (real Temporal dev server)', () => {
  let env: TestEnv;
  before(async () => {
    env = await testEnv();
  });

  it('purges expired idempotency records and old rate-limit windows in batches, keeping fresh ones', async () => {
    const m = await newMerchant(env);
    const retention = env.config.idempotencyRetentionHours;
    const old = new Date(Date.now() - (retention + 2) * 3_600_000);
    await env.db.idempotencyKey.createMany({
      data: Array.from({ length: 7 }, (_, i) => ({
        merchantId: m.id,
        mode: 'test' as const,
        key: `old-${i}`,
        requestMethod: 'POST',
        requestPath: '/x',
        responseStatus: 201,
        createdAt: old,
      })),
    });
    await env.db.idempotencyKey.create({ data: { merchantId: m.id, mode: 'test', key: 'fresh', requestMethod: 'POST', requestPath: '/x', responseStatus: 201 } });
    await env.db.rateLimitWindow.create({ data: { apiKeyId: 'key_old', windowStart: new Date(Date.now() - 3 * 86_400_000), count: 3 } });

    const handle = await env.client.workflow.start('purgeExpiredWorkflow', {
      taskQueue: env.config.taskQueue,
      workflowId: `maintenance/purge-expired-test-${randomUUID()}`,
      args: [{ idempotencyRetentionHours: retention, batchSize: 3 }],
    });
    const result = (await handle.result()) as { idempotencyKeys: number; rateLimitWindows: number; usagePartitions?: { created: number; dropped: number } };
    assert.ok(result.idempotencyKeys >= 7, JSON.stringify(result));
    assert.ok(result.rateLimitWindows >= 1);
    assert.equal(await env.db.idempotencyKey.count({ where: { merchantId: m.id, key: { startsWith: 'old-' } } }), 0);
    assert.equal(await env.db.idempotencyKey.count({ where: { merchantId: m.id, key: 'fresh' } }), 1);
    // issue 32: the run keeps usage_events' monthly partitions ahead (the migration made them, so
    // none is missing) and drops nothing with retention off (the default)
    assert.deepEqual(result.usagePartitions, { created: 0, moved: 0, dropped: 0, deletedRows: 0 });
    // 'purge-expired' is the history from before the usage-event-partitions patch; this one has it
    await maybeRecordHistory(handle, 'purge-expired-usage-partitions');
  });

  it('registers the hourly schedule idempotently', async () => {
    try {
      await ensureSchedules(env.client, { taskQueue: env.config.taskQueue, idempotencyRetentionHours: 24 });
      await ensureSchedules(env.client, { taskQueue: env.config.taskQueue, idempotencyRetentionHours: 48 });
      const desc = await env.client.schedule.getHandle(scheduleIds.purgeExpired).describe();
      assert.equal(desc.action.type, 'startWorkflow');
      assert.equal(desc.spec.intervals?.[0]?.every, 3_600_000);
      const args = (desc.action as { args?: unknown[] }).args as Array<{ idempotencyRetentionHours: number }>;
      assert.equal(args[0]!.idempotencyRetentionHours, 48);
    } finally {
      // ensureSchedules registers every periodic schedule: none may keep running into the
      // tests that follow (a reconciler firing mid-test would race the test's own run).
      for (const id of Object.values(scheduleIds))
        await env.client.schedule
          .getHandle(id)
          .delete()
          .catch(() => undefined);
    }
  });
});
