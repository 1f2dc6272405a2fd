// The request middleware of logs and metrics: every request's lines carry its request id, merchant
// and mode (src/observability/logger.ts), and when it ends one line and one latency observation
// record its route pattern (the router's, never the raw path), status and latency. Idempotent
// replays and 429s are counted here from the response (its Idempotent-Replayed header, its error code).
import type { Logger, RequestLogContext } from '../src/observability/logger';
import { withRequestLogContext } from '../src/observability/logger';
import type { Metrics } from '../src/observability/metrics';
import type { AppContext, Middleware } from './context';

const OPS_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/** The matched route's pattern (`/v1/customers/:id`), or `unmatched` (bounded label values). */
export function routePattern(ctx: AppContext): string {
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (matched) return String(matched);
  return OPS_PATHS.has(ctx.path) ? ctx.path : 'unmatched';
}

/** A request's log context: the merchant and mode are read when a line is written (known after authentication). */
class RequestLogFields implements RequestLogContext {
  readonly request_id: string;
  constructor(private readonly ctx: AppContext) {
    this.request_id = ctx.state.requestId;
  }
  get merchant() {
    return this.ctx.state.auth?.merchantId;
  }
  get mode() {
    return this.ctx.state.auth?.mode;
  }
}

export function observeRequests(opts: { logger: Logger; metrics: Metrics; logRequests: boolean }): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await withRequestLogContext(new RequestLogFields(ctx), next);
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routePattern(ctx);
      const status = ctx.status;
      opts.metrics.httpRequestDuration.observe({ method: ctx.method, route, status: String(status) }, seconds);
      if (ctx.response.get('Idempotent-Replayed') === 'true') opts.metrics.idempotentReplays.inc({ method: ctx.method, route });
      if (status === 429) opts.metrics.rateLimited.inc({ reason: errorCode(ctx.body) ?? 'rate_limited' });
      if (opts.logRequests) {
        opts.logger.info(
          {
            request_id: ctx.state.requestId,
            merchant: ctx.state.auth?.merchantId,
            mode: ctx.state.auth?.mode,
            method: ctx.method,
            route,
            status,
            latency_ms: Math.round(seconds * 10_000) / 10,
          },
          'request',
        );
      }
    }
  };
}

function errorCode(body: unknown): string | undefined {
  if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
    const code = (body as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    const m = /"code"\s*:\s*"([a-z_]{1,64})"/.exec(body.toString());
    return m?.[1];
  }
  return undefined;
}
