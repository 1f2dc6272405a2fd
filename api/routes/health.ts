import Router from '@koa/router';
import type { AppDeps, AppState } from '../context';
import { recentWorkflowRecoveries } from '../../src/domain/subscriptions/revive-subscription-workflows';

/** GET /healthz: no auth; 200 when PostgreSQL and Temporal both answer, 503 otherwise. */
export function healthRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get('/healthz', async (ctx) => {
    const started = Date.now();
    const database = await deps.db.$queryRaw`SELECT 1`.then(
      () => ({ ok: true, latency_ms: Date.now() - started }),
      (err: unknown) => ({ ok: false, error: (err as Error).message.split('\n')[0] }),
    );
    const temporalOk = await deps.temporal.healthy(2000);
    const temporal = { ok: temporalOk, address: deps.temporal.address, namespace: deps.temporal.namespace };
    const ok = database.ok && temporalOk;
    ctx.status = ok ? 200 : 503;
    // For monitoring: subscription workflows the reconciler found closed in the last day
    // (restarted, or halted and waiting for an operator: alert on halted > 0).
    const subscriptionWorkflows = database.ok ? await recentWorkflowRecoveries(deps.db).catch(() => null) : null;
    ctx.body = { status: ok ? 'ok' : 'degraded', database, temporal, subscription_workflows: subscriptionWorkflows };
  });
}
