// Environment configuration, read once at a composition root (boot/*) and passed down.
export interface Config {
  port: number;
  databaseUrl: string | undefined;
  temporalAddress: string | undefined;
  temporalNamespace: string;
  taskQueue: string;
  /** Public base URL of this service (used in hosted checkout and portal links). */
  publicBaseUrl: string;
  bodyLimitBytes: number;
  /** Requests allowed per API key in each fixed window. */
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
  /** Failed authentications allowed per client address in each window before 429 (docs/auth.md). */
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  /**
   * Load balancers and proxies whose forwarding headers name the client (TRUSTED_PROXIES: addresses
   * and CIDR ranges, comma separated; default none). docs/operations.md "Behind a load balancer".
   */
  trustedProxies: string[];
  idempotencyRetentionHours: number;
  /** Raw usage events older than this many whole months are dropped by the maintenance schedule; 0 = off (docs/metering.md "Retention"). */
  usageRawRetentionMonths: number;
  temporalUiPort: number;
  dataDir: string;
  logRequests: boolean;
  /** When set, GET /metrics requires `Authorization: Bearer <token>` (METRICS_TOKEN). */
  metricsToken: string | null;
  /** How long a payment session stays open before it expires (seconds; docs/checkout.md). */
  paymentSessionLifetimeSeconds: number;
  /**
   * On SIGTERM an API answers GET /readyz 503 for this long while it keeps serving, so load
   * balancers take it out before it stops accepting (SHUTDOWN_DRAIN_SECONDS; docs/operations.md).
   */
  shutdownDrainSeconds: number;
  /** Then how long requests in flight may take before their connections are closed (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /**
   * Deadline of one Temporal client call (TEMPORAL_CALL_TIMEOUT_MS, default 10000): a server that
   * accepts connections but does not answer holds a request at most this long (then 503).
   */
  temporalCallTimeoutMs: number;
  /** How long a request waits for a pooled database connection before 503 (ms). */
  transactionMaxWaitMs: number;
  /**
   * Database connections of the API's pool and of the worker's (DB_POOL_SIZE_API,
   * DB_POOL_SIZE_WORKER; `npm start` opens both, each process of the production layout its own).
   * docs/operations.md "Pools and back-pressure".
   */
  apiDbPoolSize: number;
  workerDbPoolSize: number;
  /**
   * Requests one API process serves at once (API_MAX_IN_FLIGHT; default 8 per API connection);
   * beyond it a request is answered 503 service_unavailable with Retry-After at once.
   */
  apiMaxInFlight: number;
  /**
   * Activities (task-queue and local, each) one worker process runs at once
   * (WORKER_MAX_CONCURRENT_ACTIVITIES; default 2 per worker connection).
   */
  workerMaxConcurrentActivities: number;
  /** SQL texts each process runs as prepared statements (DB_PREPARED_STATEMENTS; 0: none; docs/database.md). */
  dbPreparedStatements: number;
  /**
   * How often a worker process refreshes stale planner statistics and vacuums tables full of dead
   * rows when the PostgreSQL server runs with autovacuum off (DB_STATISTICS_GUARD_SECONDS; 0: never;
   * src/db/table-statistics.ts, docs/database.md "When autovacuum is off").
   */
  dbStatisticsGuardSeconds: number;
  /** Accounting link (docs/accounting.md): 32-byte key (base64 or hex) encrypting credentials at rest. */
  accountingEncryptionKey?: string;
  /** Base URLs of the sandbox accounting providers (test mode); unset: that sandbox is unavailable. */
  accountingSandboxOAuthUrl?: string;
  accountingSandboxOAuthClientId?: string;
  accountingSandboxOAuthClientSecret?: string;
  accountingSandboxFormUrl?: string;
  /** How often an idle accounting sync looks for new ledger records (seconds). */
  accountingSyncPollSeconds: number;
  /** Merchant dashboard: absolute session lifetime and idle timeout (docs/dashboard.md). */
  dashboardSessionHours: number;
  dashboardIdleMinutes: number;
  /** Base URL of the Temporal Web UI, for links from the dashboard to a workflow. */
  temporalUiUrl: string;
  /**
   * Workflows the worker keeps in its cache (WORKER_CACHED_WORKFLOWS; unset: the Temporal SDK's
   * default, sized from the heap limit). docs/operations.md: what a cached workflow costs.
   */
  workerCachedWorkflows: number | undefined;
  /**
   * How long a workflow task may wait on this worker's sticky queue before the server hands it,
   * with its whole history, to any worker (WORKER_STICKY_TIMEOUT_SECONDS; docs/operations.md).
   */
  workerStickyTimeoutSeconds: number;
  /**
   * Temporal workers one worker process runs on the task queue, each with its own share of the
   * workflow cache and of the activity slots (WORKER_SHARDS; unset: one per 3,000 cached
   * workflows, boot/runtime/worker.ts shardSettings; docs/operations.md).
   */
  workerShards: number | undefined;
}

/** Connections of each pool unless DB_POOL_SIZE_API / DB_POOL_SIZE_WORKER say otherwise. */
export const DEFAULT_POOL_SIZE = 10;
/** Default API_MAX_IN_FLIGHT per API connection; default WORKER_MAX_CONCURRENT_ACTIVITIES per worker connection (docs/operations.md). */
export const IN_FLIGHT_PER_CONNECTION = 8;
export const ACTIVITIES_PER_CONNECTION = 2;

/** See docs/operations.md ("The worker's workflow cache and sticky queue"). */
export const DEFAULT_STICKY_TIMEOUT_SECONDS = 10;
/** The most Temporal workers one process runs (WORKER_SHARDS). */
export const MAX_WORKER_SHARDS = 64;
/** Distinct SQL texts named (prepared) per pool by default (src/db/statement-names.ts). */
export const DEFAULT_PREPARED_STATEMENTS = 200;

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`environment variable ${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function trustedProxies(env: NodeJS.ProcessEnv): string[] {
  if (env.TRUST_PROXY) {
    // The earlier setting trusted forwarding headers from any peer, so any client could pick its address.
    throw new Error('TRUST_PROXY is no longer read: list your load balancers in TRUSTED_PROXIES (addresses or CIDR ranges, comma separated)');
  }
  return (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const int = (name: string, fallback: number, min: number, max: number) => readInt(env, name, fallback, min, max);
  const port = int('PORT', 3000, 0, 65535);
  return {
    port,
    databaseUrl: env.DATABASE_URL || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE || 'billing',
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1_048_576, 1024, 50 * 1_048_576),
    rateLimitRequests: int('RATE_LIMIT_REQUESTS', 100, 1, 100_000_000),
    rateLimitWindowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 1, 1, 3600),
    authFailureLimit: int('AUTH_FAILURE_LIMIT', 20, 1, 100_000_000),
    authFailureWindowSeconds: int('AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 3600),
    trustedProxies: trustedProxies(env),
    idempotencyRetentionHours: int('IDEMPOTENCY_RETENTION_HOURS', 24, 1, 24 * 90),
    usageRawRetentionMonths: int('USAGE_RAW_RETENTION_MONTHS', 0, 0, 1200),
    temporalUiPort: int('TEMPORAL_UI_PORT', 8233, 1, 65535),
    dataDir: env.BILLING_DATA_DIR || '.data',
    logRequests: env.LOG_REQUESTS !== '0',
    metricsToken: env.METRICS_TOKEN || null,
    paymentSessionLifetimeSeconds: int('PAYMENT_SESSION_LIFETIME_SECONDS', 86_400, 60, 30 * 86_400),
    shutdownDrainSeconds: int('SHUTDOWN_DRAIN_SECONDS', 5, 0, 600),
    shutdownGraceSeconds: int('SHUTDOWN_GRACE_SECONDS', 15, 1, 600),
    transactionMaxWaitMs: int('DB_TX_MAX_WAIT_MS', 5_000, 100, 120_000),
    temporalCallTimeoutMs: int('TEMPORAL_CALL_TIMEOUT_MS', 10_000, 500, 120_000),
    apiDbPoolSize: int('DB_POOL_SIZE_API', DEFAULT_POOL_SIZE, 1, 1000),
    workerDbPoolSize: int('DB_POOL_SIZE_WORKER', DEFAULT_POOL_SIZE, 1, 1000),
    apiMaxInFlight: int('API_MAX_IN_FLIGHT', IN_FLIGHT_PER_CONNECTION * int('DB_POOL_SIZE_API', DEFAULT_POOL_SIZE, 1, 1000), 1, 100_000),
    workerMaxConcurrentActivities: int('WORKER_MAX_CONCURRENT_ACTIVITIES', ACTIVITIES_PER_CONNECTION * int('DB_POOL_SIZE_WORKER', DEFAULT_POOL_SIZE, 1, 1000), 1, 10_000),
    dbPreparedStatements: int('DB_PREPARED_STATEMENTS', DEFAULT_PREPARED_STATEMENTS, 0, 10_000),
    dbStatisticsGuardSeconds: int('DB_STATISTICS_GUARD_SECONDS', 30, 0, 86_400),
    accountingEncryptionKey: env.ACCOUNTING_ENCRYPTION_KEY || undefined,
    accountingSandboxOAuthUrl: env.ACCOUNTING_SANDBOX_OAUTH_URL || undefined,
    accountingSandboxOAuthClientId: env.ACCOUNTING_SANDBOX_OAUTH_CLIENT_ID || undefined,
    accountingSandboxOAuthClientSecret: env.ACCOUNTING_SANDBOX_OAUTH_CLIENT_SECRET || undefined,
    accountingSandboxFormUrl: env.ACCOUNTING_SANDBOX_FORM_URL || undefined,
    accountingSyncPollSeconds: int('ACCOUNTING_SYNC_POLL_SECONDS', 30, 1, 3600),
    dashboardSessionHours: int('DASHBOARD_SESSION_HOURS', 12, 1, 24 * 30),
    dashboardIdleMinutes: int('DASHBOARD_IDLE_MINUTES', 60, 1, 24 * 60),
    workerCachedWorkflows: env.WORKER_CACHED_WORKFLOWS ? int('WORKER_CACHED_WORKFLOWS', 0, 2, 1_000_000) : undefined,
    workerStickyTimeoutSeconds: int('WORKER_STICKY_TIMEOUT_SECONDS', DEFAULT_STICKY_TIMEOUT_SECONDS, 1, 3600),
    workerShards: env.WORKER_SHARDS ? int('WORKER_SHARDS', 1, 1, MAX_WORKER_SHARDS) : undefined,
    temporalUiUrl: (env.TEMPORAL_UI_URL || `http://localhost:${int('TEMPORAL_UI_PORT', 8233, 1, 65535)}`).replace(/\/+$/, ''),
  };
}

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/billing';
