// The service's Prometheus metrics (prom-client), one registry per process handed to the API and
// the activities as a dependency (never a module global): the code that decides an outcome counts
// it. Served at GET /metrics by the API (api/ops-endpoints.ts) and, for a worker process alone,
// by its metrics listener (serveWorkerMetrics, boot/runtime/observability.ts). docs/operations.md lists every series.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  idempotentReplays: Counter<'method' | 'route'>;
  rateLimited: Counter<'reason'>;
  renewals: Counter<'outcome'>;
  invoices: Counter<'outcome'>;
  charges: Counter<'outcome'>;
  bankClaims: Counter<'outcome'>;
  webhookAttempts: Counter<'outcome'>;
  webhookDeliveryLag: Histogram<never>;
  accountingSyncRecords: Counter<'outcome'>;
  /** Age of the oldest ledger record waiting to be pushed, per accounting link (the series is their maximum). */
  setAccountingSyncLag(linkId: string, seconds: number): void;
  /** Requests answered 503 at once because the process was at API_MAX_IN_FLIGHT. */
  requestsShed: Counter<never>;
  /** Reports a database pool's use as billing_db_pool_connections{pool, state} (src/db/client.ts poolUse). */
  watchPool(pool: string, use: () => { size: number; inUse: number; idle: number; waiting: number } | undefined): void;
  /** Reports the API's requests in flight and their bound as billing_http_in_flight{kind}. */
  watchInFlight(read: () => { current: number; limit: number }): void;
}

export function createMetrics(opts: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const syncLag = new Map<string, number>();
  new Gauge({
    name: 'billing_accounting_sync_lag_seconds',
    help: 'Age of the oldest ledger record not yet pushed to an accounting provider (largest over the links this process synced)',
    registers,
    collect() {
      this.set(syncLag.size ? Math.max(...syncLag.values()) : 0);
    },
  });
  const pools = new Map<string, () => { size: number; inUse: number; idle: number; waiting: number } | undefined>();
  new Gauge({
    name: 'billing_db_pool_connections',
    help: 'Database pool connections by pool (api, worker) and state (size, in_use, idle, waiting callers)',
    labelNames: ['pool', 'state'],
    registers,
    collect() {
      this.reset();
      for (const [pool, read] of pools) {
        const u = read();
        if (!u) continue;
        this.set({ pool, state: 'size' }, u.size);
        this.set({ pool, state: 'in_use' }, u.inUse);
        this.set({ pool, state: 'idle' }, u.idle);
        this.set({ pool, state: 'waiting' }, u.waiting);
      }
    },
  });
  let inFlight: (() => { current: number; limit: number }) | undefined;
  new Gauge({
    name: 'billing_http_in_flight',
    help: 'API requests being served now (kind=current) and the bound API_MAX_IN_FLIGHT (kind=limit)',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset();
      const v = inFlight?.();
      if (!v) return;
      this.set({ kind: 'current' }, v.current);
      this.set({ kind: 'limit' }, v.limit);
    },
  });
  return {
    registry,
    requestsShed: new Counter({ name: 'billing_requests_shed_total', help: 'Requests answered 503 at once: the process was at API_MAX_IN_FLIGHT', registers }),
    watchPool(pool, use) {
      pools.set(pool, use);
    },
    watchInFlight(read) {
      inFlight = read;
    },
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'API request latency by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    idempotentReplays: new Counter({
      name: 'billing_idempotent_replays_total',
      help: 'Requests answered from a stored response (same Idempotency-Key)',
      labelNames: ['method', 'route'],
      registers,
    }),
    rateLimited: new Counter({ name: 'billing_rate_limited_total', help: 'Requests refused with 429', labelNames: ['reason'], registers }),
    renewals: new Counter({
      name: 'billing_renewals_total',
      help: 'Subscription period ends by outcome (renewal, trial_end, canceled, rolled, nothing)',
      labelNames: ['outcome'],
      registers,
    }),
    invoices: new Counter({
      name: 'billing_invoices_total',
      help: 'Invoice state changes made by the billing steps (finalized, paid, payment_failed, voided)',
      labelNames: ['outcome'],
      registers,
    }),
    charges: new Counter({ name: 'billing_charges_total', help: 'Automatic card charges of invoices by outcome (succeeded, failed, none)', labelNames: ['outcome'], registers }),
    bankClaims: new Counter({ name: 'billing_bank_claims_total', help: 'Bank claim checks of invoices by outcome (paid, refused, pending)', labelNames: ['outcome'], registers }),
    webhookAttempts: new Counter({ name: 'billing_webhook_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], registers }),
    webhookDeliveryLag: new Histogram({
      name: 'billing_webhook_delivery_lag_seconds',
      help: 'Time from a webhook delivery being queued to its successful attempt',
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600],
      registers,
    }),
    accountingSyncRecords: new Counter({
      name: 'billing_accounting_sync_records_total',
      help: 'Ledger records pushed to accounting providers by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    setAccountingSyncLag(linkId, seconds) {
      if (seconds <= 0) syncLag.delete(linkId);
      else syncLag.set(linkId, seconds);
    },
  };
}
