// createApp(deps): the Koa application with every route. The only place routes are mounted.
import Koa from 'koa';
import Router from '@koa/router';
import type { AppDeps, AppState } from './context';
import { requestId } from './middleware/request-id';
import { errorEnvelope } from './middleware/errors';
import { createInFlightGate } from './middleware/in-flight';
import { poolUse } from '../src/db/client';
import { jsonBody } from './middleware/json-body';
import { guardPathIds, inputSafety } from './middleware/input-safety';
import { authenticator, keyLookup } from './middleware/auth';
import { clientAddress, parseTrustedProxies } from './middleware/client-address';
import { createAuthCache } from './middleware/auth-cache';
import { authFailureGate, createAuthFailureLimiter } from './middleware/auth-failures';
import { createRateLimiter } from './middleware/rate-limiter';
import { errors } from '../src/errors';
import { observeRequests } from './observe';
import { opsEndpoints } from './ops-endpoints';
import { createLogger } from '../src/observability/logger';
import { createMetrics } from '../src/observability/metrics';
import { dashboardApp } from './dashboard';
import { AREAS } from './areas';
import { registerAreas } from './route';
import { indexRoutes } from './router-index';

export interface BillingApp extends Koa<AppState> {
  /** Stops the auth cache listener and flushes rate-limit counts. */
  shutdown(): Promise<void>;
  /**
   * Begins a graceful stop: GET /readyz answers 503 `draining` and every response closes its
   * connection, while requests are still served (boot/api.ts drains, then stops accepting).
   */
  drain(): void;
  /** Resolves when the auth cache's first LISTEN attempt has settled (see auth-cache.ts). */
  ready(): Promise<void>;
  /** The application router with every route (route tables for docs and the route-wide fuzz test). */
  readonly router: Router<AppState>;
}

/**
 * What a composition root (boot/) gives createApp: the database, the Temporal provider and the
 * workflow client modules built over it, the gateways. The app builds none of them.
 */
export type AppBaseDeps = Omit<AppDeps, 'authCache'>;

export function createApp(baseDeps: AppBaseDeps): BillingApp {
  const app = new Koa<AppState>() as BillingApp;
  const trustedProxies = parseTrustedProxies(baseDeps.config.trustedProxies.join(','));
  app.proxy = trustedProxies !== null;
  const authCache = createAuthCache({ databaseUrl: baseDeps.config.databaseUrl, log: baseDeps.log });
  const limiter = createRateLimiter(baseDeps.db, {
    limit: baseDeps.config.rateLimitRequests,
    windowSeconds: baseDeps.config.rateLimitWindowSeconds,
    log: baseDeps.log,
  });
  const logger = baseDeps.logger ?? createLogger({ service: 'api', level: process.env.LOG_FILE ? undefined : 'silent' });
  const metrics = baseDeps.metrics ?? createMetrics();
  // Back-pressure: requests beyond API_MAX_IN_FLIGHT are answered 503 at once (docs/operations.md).
  const inFlightGate = createInFlightGate(baseDeps.config.apiMaxInFlight, () => metrics.requestsShed.inc());
  const inFlight = () => ({ current: inFlightGate.current(), limit: inFlightGate.limit, refused: inFlightGate.refused() });
  metrics.watchInFlight(inFlight);
  metrics.watchPool('api', () => poolUse(baseDeps.db));
  const deps: AppDeps = { ...baseDeps, authCache, inFlight };
  const authFailures = createAuthFailureLimiter({ limit: deps.config.authFailureLimit, windowSeconds: deps.config.authFailureWindowSeconds });
  const lookup = keyLookup(deps.db, authCache);
  const auth = authenticator(deps, lookup, limiter, authFailures);
  app.ready = () => authCache.ready();
  let draining = false;
  app.drain = () => void (draining = true);
  app.shutdown = async () => {
    await limiter.close();
    await authCache.close();
  };

  app.use(requestId());
  // ctx.ip is the client behind a trusted load balancer, else the peer (docs/operations.md).
  if (trustedProxies) app.use(clientAddress(trustedProxies));
  app.use(observeRequests({ logger, metrics, logRequests: deps.config.logRequests }));
  // /livez, /readyz, /metrics: outside the API router (docs/operations.md).
  app.use(opsEndpoints({ db: deps.db, temporal: deps.temporal, metrics, metricsToken: deps.config.metricsToken, inFlight, draining: () => draining }));
  app.use(errorEnvelope(deps.log));
  app.use(inFlightGate.middleware);
  // An address over its failed-authentication budget is refused before its body is read (docs/auth.md).
  app.use(authFailureGate(authFailures, lookup));
  // The merchant dashboard's pages (/dashboard/…): url-encoded forms, so before the JSON parser.
  app.use(dashboardApp(deps) as unknown as Koa.Middleware<AppState>);
  app.use(jsonBody(deps.config.bodyLimitBytes));
  // Query, body and path ids pass the input-safety layer before any route (docs/errors.md "Input limits").
  app.use(inputSafety());

  const router = new Router<AppState>();
  registerAreas(router, AREAS, deps, auth);
  guardPathIds(router);
  // Each request is matched against the routes under its first two path segments only (router-index.ts).
  indexRoutes(router);
  (app as { router: Router<AppState> }).router = router;
  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => errors.methodNotAllowed('Method not allowed on this route'),
      notImplemented: () => errors.methodNotAllowed('This HTTP method is not supported'),
    }),
  );
  return app;
}
