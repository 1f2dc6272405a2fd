// Koa state shared by middleware and routes.
import type { Context, Next, ParameterizedContext } from 'koa';
import type { RouterContext } from '@koa/router';
import type { Db } from '../src/db/client';
import type { Tenant, TenantDb } from '../src/db/tenancy';
import type { Config } from '../src/config';
import type { TemporalProvider } from '../src/temporal/client';
import type { WorkflowClients } from '../src/temporal/workflow-clients';
import { requestKey, requestScope, type RequestScope } from '../src/domain/request-scope';
import type { ModeGateways } from '../src/gateways';

export interface AuthInfo {
  apiKeyId: string;
  keyType: 'secret' | 'publishable';
  merchantId: string;
  merchantName: string;
  merchantCreatedAt: Date;
  mode: 'test' | 'live';
}

export interface AppState {
  requestId: string;
  /** Parsed JSON body (always an object; `{}` when there was none). */
  body: Record<string, unknown>;
  rawBody?: string;
  auth?: AuthInfo;
  tenant?: Tenant;
  /** Tenant-scoped database handle; inside a transaction for writes. */
  db?: TenantDb;
  /** Work to run after the request's transaction has committed. */
  afterCommit: Array<() => Promise<void>>;
  /**
   * Top-level response fields holding secrets shown once (API key values): they are stored as
   * null in the idempotency record, so a replay returns the object without the secret.
   */
  redactOnReplay?: string[];
  /**
   * Step-wise requests with an Idempotency-Key: how many workflow updates sent under this key
   * failed for good (from the claimed row), and whether this request's did (set by the domain
   * through RequestScope.updateFailed; the middleware then counts it when it releases the key).
   */
  updateAttempt?: number;
  updateFailed?: boolean;
}

export interface AppDeps {
  db: Db;
  /** Requests this process serves now against API_MAX_IN_FLIGHT (set by createApp; the health endpoints report it). */
  inFlight?: () => import('../src/observability/readiness').InFlightReading;
  /** Evicts cached authentication after a key or merchant change (set by createApp). */
  authCache?: import('./middleware/auth-cache').AuthCache;
  config: Config;
  temporal: TemporalProvider;
  /** Client modules of the workflows the domain starts, signals and updates (built by the composition root, boot/, and injected). */
  workflows: WorkflowClients;
  /** The outside systems (card acquirer, bank claims) of each mode, built by the composition root. */
  gateways: ModeGateways;
  log: (line: string) => void;
  /** The structured logger (request lines); default: silent unless LOG_FILE is set. */
  logger?: import('../src/observability/logger').Logger;
  /** The process's metrics; default: a registry of the app's own. */
  metrics?: import('../src/observability/metrics').Metrics;
  /** Test-only webhook relaxations (src/domain/webhooks/testing.ts); test-mode endpoints only, never set in production. */
  webhookTesting?: import('../src/domain/webhooks/testing').WebhookTestingOptions;
}

export type AppContext = ParameterizedContext<AppState> & RouterContext<AppState>;
export type Middleware = (ctx: AppContext, next: Next) => Promise<unknown>;
export type { Context };

export function tenantOf(ctx: AppContext): Tenant {
  if (!ctx.state.tenant) throw new Error('route used tenantOf() without auth()');
  return ctx.state.tenant;
}

export function dbOf(ctx: AppContext): TenantDb {
  if (!ctx.state.db) throw new Error('route used dbOf() without auth()');
  return ctx.state.db;
}

/**
 * How a request names itself to a workflow: by its Idempotency-Key when it has one, else by its id.
 * After an update under the key failed for good (Temporal keeps that outcome under its id), a
 * resent request names the next attempt: `idem#2:<key>`, … (docs/idempotency.md).
 */
export function requestKeyOf(ctx: AppContext): string {
  return requestKey({ prefix: 'idem', key: ctx.get('Idempotency-Key') || null, failedAttempts: ctx.state.updateAttempt, requestId: ctx.state.requestId });
}

/** The request as the domain sees it (after auth() and, for writes, transactional()). */
export function scopeOf(ctx: AppContext): RequestScope {
  return requestScope({
    tenant: tenantOf(ctx),
    db: dbOf(ctx),
    key: { prefix: 'idem', key: ctx.get('Idempotency-Key') || null, failedAttempts: ctx.state.updateAttempt, requestId: ctx.state.requestId },
    afterCommit: ctx.state.afterCommit,
    updateFailed: () => void (ctx.state.updateFailed = true),
  });
}
