// "The impossible still gets caught": a subscription workflow never fails on business data
// (refusals are outcomes, docs/subscriptions.md "Refusals"), but a bug, a non-determinism error
// or an operator's terminate can still close one while its row needs it. The reconciler (every
// minute) lists subscription runs that closed abnormally in the last day (Temporal visibility),
// and for each whose row has not recorded a normal end and whose workflow is not running again:
//  - restarts the workflow from the row (every step is exactly once: invoices are keyed by
//    period, charges and claims by invoice and attempt, so the new run redoes nothing);
//  - after MAX_RESTARTS_PER_DAY restarts in a day (a crash loop: restarting again would only
//    fail again), halts: no restart, left to an operator.
// Either way it writes a `subscription_workflow_recoveries` row (one per closed run) and logs an
// ALERT line; GET /healthz reports the last day's counts for monitoring.
import type { Db } from '../../db/client';
import { newId } from '../../ids';
import type { WorkflowClients } from '../../temporal/workflow-clients';

export const RECOVERY_LOOKBACK_HOURS = 24;
export const MAX_RESTARTS_PER_DAY = 3;
const HOUR_MS = 3_600_000;

export interface ReviveResult {
  restarted: number;
  halted: number;
}

export async function reviveSubscriptionWorkflows(
  db: Db,
  workflows: WorkflowClients,
  opts: { batchSize: number; log: (line: string) => void; now?: Date },
  heartbeat: () => void = () => undefined,
): Promise<ReviveResult> {
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - RECOVERY_LOOKBACK_HOURS * HOUR_MS);
  const runs = await workflows.subscription.closedAbnormally(since, opts.batchSize);
  const result: ReviveResult = { restarted: 0, halted: 0 };
  const seen = new Set<string>();
  for (const run of runs) {
    // Newest first: only a subscription's latest closed run matters.
    if (seen.has(run.subscriptionId)) continue;
    seen.add(run.subscriptionId);
    heartbeat();
    const row = await db.subscription.findUnique({ where: { id: run.subscriptionId }, include: { testClock: { select: { frozenTime: true } } } });
    if (!row || row.workflowEndedAt !== null) continue; // gone, or its workflow finished its work
    if (await workflows.subscription.isRunning(row.id)) continue; // already running again
    const handled = await db.subscriptionWorkflowRecovery.findUnique({ where: { subscriptionId_closedRunId: { subscriptionId: row.id, closedRunId: run.runId } } });
    if (handled) continue; // halted earlier: stays with the operator
    const recent = await db.subscriptionWorkflowRecovery.count({ where: { subscriptionId: row.id, action: 'restarted', createdAt: { gte: since } } });
    const action = recent >= MAX_RESTARTS_PER_DAY ? 'halted' : 'restarted';
    if (action === 'restarted') {
      await workflows.subscription.restart({
        subscriptionId: row.id,
        merchantId: row.merchantId,
        mode: row.mode,
        customerId: row.customerId,
        status: row.status,
        clockTime: row.testClock?.frozenTime.toISOString() ?? null,
      });
    }
    await db.subscriptionWorkflowRecovery.createMany({
      data: [
        {
          id: newId('workflowRecovery'),
          merchantId: row.merchantId,
          mode: row.mode,
          subscriptionId: row.id,
          closedRunId: run.runId,
          closedStatus: run.status,
          closedAt: run.closedAt,
          action,
        },
      ],
      skipDuplicates: true,
    });
    result[action] += 1;
    opts.log(
      action === 'restarted'
        ? `ALERT subscription workflow ${run.status}: subscription/${row.id} (run ${run.runId}, merchant ${row.merchantId}, ${row.mode}) restarted from its row`
        : `ALERT subscription workflow ${run.status}: subscription/${row.id} (run ${run.runId}, merchant ${row.merchantId}, ${row.mode}) NOT restarted: ${recent} restarts in ${RECOVERY_LOOKBACK_HOURS} h; needs an operator`,
    );
  }
  return result;
}

/** For monitoring (GET /healthz): recoveries of the last day. Any `halted` needs an operator. */
export async function recentWorkflowRecoveries(db: Db, now: Date = new Date()): Promise<{ restarted: number; halted: number }> {
  const since = new Date(now.getTime() - RECOVERY_LOOKBACK_HOURS * HOUR_MS);
  const rows = await db.subscriptionWorkflowRecovery.groupBy({ by: ['action'], where: { createdAt: { gte: since } }, _count: { _all: true } });
  const count = (a: string) => rows.find((r) => r.action === a)?._count._all ?? 0;
  return { restarted: count('restarted'), halted: count('halted') };
}
