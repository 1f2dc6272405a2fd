import { route, area } from '../route';
import { recentWorkflowRecoveries } from '../../src/domain/subscriptions/revive-subscription-workflows';
import { probeDatabase } from '../../src/db/client';
import { saturation } from '../../src/observability/readiness';

/**
 * GET /healthz: no auth; 200 when PostgreSQL and Temporal both answer, 503 otherwise. PostgreSQL is
 * asked on a connection of its own, so the answer comes within its budget under any load; the
 * pool's use, the requests in flight and `saturated` (what is exhausted) are reported beside it.
 */
export const healthRoutes = area('health', [
  route({
    method: 'get',
    path: '/healthz',
    operationId: 'retrieveHealth',
    tag: 'Health',
    summary: 'Health of PostgreSQL and Temporal',
    auth: 'none',
    response: 'Health',
    also: [{ status: 503, description: 'A dependency is down', schema: 'Health' }],
    handler:
      ({ deps }) =>
      async (ctx) => {
        const started = Date.now();
        const [database, temporalOk] = await Promise.all([
          probeDatabase(deps.db, 2000).then(
            () => ({ ok: true, latency_ms: Date.now() - started }),
            (err: unknown) => ({ ok: false, error: (err as Error).message.split('\n')[0] }),
          ),
          deps.temporal.healthy(2000),
        ]);
        const temporal = { ok: temporalOk, address: deps.temporal.address, namespace: deps.temporal.namespace };
        const ok = database.ok && temporalOk;
        const load = saturation(deps.db, deps.inFlight);
        ctx.status = ok ? 200 : 503;
        // For monitoring: subscription workflows the reconciler found closed in the last day
        // (restarted, or halted and waiting for an operator: alert on halted > 0). It needs a pooled
        // connection: skipped while the pool is exhausted.
        const subscriptionWorkflows = database.ok && !load.saturated.includes('database_pool') ? await recentWorkflowRecoveries(deps.db).catch(() => null) : null;
        ctx.body = {
          status: ok ? (load.saturated.length ? 'saturated' : 'ok') : 'degraded',
          database,
          temporal,
          pool: load.pool,
          requests: load.requests,
          saturated: load.saturated,
          subscription_workflows: subscriptionWorkflows,
        };
      },
  }),
]);
