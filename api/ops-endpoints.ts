// Endpoints for orchestrators and monitoring, outside the API's router (they are not part of the
// merchant API): GET /livez (the process serves HTTP), GET /readyz (PostgreSQL and Temporal both
// answer; 503 with the failing check otherwise, and 503 `draining` while the process stops, see
// boot/api.ts), GET /metrics (Prometheus text; a bearer token when
// METRICS_TOKEN is set). GET /healthz stays as it was (api/routes/health.ts). docs/operations.md.
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../src/db/client';
import { readiness, type InFlightReading } from '../src/observability/readiness';
import type { Metrics } from '../src/observability/metrics';
import type { TemporalProvider } from '../src/temporal/client';
import { errorBody, errors } from '../src/errors';
import type { AppContext, Middleware } from './context';
import { area, route } from './route';

/** The contracts of the endpoints this middleware serves in front of the router. */
export const opsRoutes = area('ops', [
  route({
    method: 'get',
    path: '/livez',
    operationId: 'retrieveLiveness',
    tag: 'Health',
    summary: 'Liveness: the process serves HTTP (docs/operations.md)',
    auth: 'none',
    response: 'Liveness',
    outsideRouter: true,
  }),
  route({
    method: 'get',
    path: '/readyz',
    operationId: 'retrieveReadiness',
    tag: 'Health',
    summary: 'Readiness: PostgreSQL and Temporal both answer (docs/operations.md)',
    auth: 'none',
    response: 'Readiness',
    also: [{ status: 503, description: 'Not ready: a check failed', schema: 'Readiness' }],
    outsideRouter: true,
  }),
  route({
    method: 'get',
    path: '/metrics',
    operationId: 'retrieveMetrics',
    tag: 'Health',
    summary: 'Prometheus metrics (a bearer METRICS_TOKEN when one is set; docs/operations.md)',
    auth: 'none',
    kind: 'text',
    errors: ['unauthorized'],
    outsideRouter: true,
  }),
]);

function bearerMatches(header: string, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m) return false;
  const given = Buffer.from(m[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function opsEndpoints(deps: {
  db: Db;
  temporal: TemporalProvider;
  metrics: Metrics;
  metricsToken: string | null;
  inFlight?: () => InFlightReading;
  draining?: () => boolean;
}): Middleware {
  const ready = async (ctx: AppContext) => {
    const r = await readiness(deps);
    ctx.status = r.ready ? 200 : 503;
    ctx.body = { status: r.ready ? 'ready' : 'not_ready', checks: r.checks, saturated: r.saturated };
  };
  const metrics = async (ctx: AppContext) => {
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  };
  // A plain function, not an `async` one: every other request passes through without a promise of its own.
  return (ctx, next) => {
    // A stopping process tells keep-alive clients to reconnect elsewhere.
    const draining = deps.draining?.() ?? false;
    if (draining) ctx.set('Connection', 'close');
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    switch (ctx.path) {
      case '/livez':
        ctx.body = { status: 'ok', uptime_seconds: Math.round(process.uptime()) };
        return Promise.resolve();
      case '/readyz': {
        if (draining) {
          ctx.status = 503;
          ctx.body = { status: 'draining', checks: {} };
          return Promise.resolve();
        }
        return ready(ctx);
      }
      case '/metrics': {
        if (deps.metricsToken && !bearerMatches(ctx.get('Authorization'), deps.metricsToken)) {
          const err = errors.unauthorized('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
          ctx.status = err.status;
          ctx.body = errorBody(err, ctx.state.requestId);
          return Promise.resolve();
        }
        return metrics(ctx);
      }
      default:
        return next();
    }
  };
}
