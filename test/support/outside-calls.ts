// Which test watches each route and activity for a database transaction held across a call to
// Temporal or an outside system (docs/architecture.md "Who waits on something outside, and the
// test that watches it"; issue 28). One row for every route declared in api/areas.ts and every
// activity the worker registers (activities/index.ts): test/unit/outside-calls-coverage.test.ts
// fails when one is missing or a row names something that no longer exists, and the watching
// tests fail when a route their rows name was not requested while they watched:
//  - `watch`: driven by test/api/load/no-transaction-across-calls.test.ts (routes: requested on
//    its API instance; activities: ran on its watched worker);
//  - `accounting`: driven by test/api/accounting/push-outside-transactions.test.ts (provider calls
//    counted on its API instance's pool and the sync's pool);
//  - `none`: awaits nothing outside the database; the reason says why. A route or activity that
//    awaits Temporal or a gateway (also after its commit) is never `none`.

export type Coverage = { watch: string } | { accounting: string } | { none: string };

const READ = { none: 'reads the database only' };
const ASSET = { none: 'serves a constant asset or page' };
const NO_EVENT = (what: string) => ({ none: `database only: ${what}; records no event, so nothing is started after commit` });
const SESSION_ONLY = { none: 'dashboard session only; merchant settings in the database, records no event' };

/** Every declared route, as `METHOD /path` (the declaration's own path). */
export const ROUTE_COVERAGE: Record<string, Coverage> = {
  'GET /livez': { none: 'answers from the process, no I/O' },
  'GET /readyz': { watch: 'Temporal health probe (no transaction: the database is probed on a connection of its own)' },
  'GET /metrics': { none: "the process's metrics registry" },
  'GET /healthz': { watch: 'Temporal health probe' },
  'GET /v1/merchants/current': READ,
  'GET /v1/redirect_domains': READ,
  'PUT /v1/redirect_domains': SESSION_ONLY,
  'GET /v1/allowed_origins': READ,
  'PUT /v1/allowed_origins': SESSION_ONLY,
  'GET /v1/bank_invoice_settings': READ,
  'PUT /v1/bank_invoice_settings': SESSION_ONLY,
  'POST /v1/merchants/current/go_live': SESSION_ONLY,
  'PATCH /v1/merchants/current': SESSION_ONLY,
  'GET /v1/api_keys': READ,
  'POST /v1/api_keys': { watch: 'other writes' },
  'POST /v1/api_keys/:id/rotate': { watch: 'other writes' },
  'DELETE /v1/api_keys/:id': { watch: 'other writes' },
  'POST /v1/customers': { watch: 'Temporal start after commit (customer.created)' },
  'GET /v1/customers': READ,
  'GET /v1/customers/:id': READ,
  'PATCH /v1/customers/:id': { watch: 'Temporal start after commit (customer.updated)' },
  'POST /v1/products': { watch: 'setup of every case' },
  'GET /v1/products': READ,
  'GET /v1/products/:id': READ,
  'PATCH /v1/products/:id': { watch: 'other writes' },
  'POST /v1/prices': { watch: 'setup of every case' },
  'GET /v1/prices': READ,
  'GET /v1/prices/:id': READ,
  'PATCH /v1/prices/:id': { watch: 'other writes' },
  'POST /v1/meters': { watch: 'other writes' },
  'GET /v1/meters': READ,
  'GET /v1/meters/:id': READ,
  'DELETE /v1/meters/:id': { watch: 'other writes' },
  'GET /v1/meters/:id/quantities': READ,
  'POST /v1/events': { watch: 'other writes' },
  'POST /v1/events/batch': { watch: 'other writes' },
  'GET /v1/events': READ,
  'POST /v1/webhook_endpoints': { watch: 'setup' },
  'GET /v1/webhook_endpoints': READ,
  'GET /v1/webhook_endpoints/:id': READ,
  'PATCH /v1/webhook_endpoints/:id': { watch: 'other writes' },
  'DELETE /v1/webhook_endpoints/:id': { watch: 'other writes' },
  'POST /v1/webhook_endpoints/:id/rotate_secret': { watch: 'other writes' },
  'GET /v1/webhook_deliveries': READ,
  'GET /v1/webhook_deliveries/:id': READ,
  'POST /v1/webhook_deliveries/:id/retry': { watch: 'Temporal signal-with-start (step-wise)' },
  'GET /v1/webhook_events': READ,
  'GET /v1/webhook_events/:id': READ,
  'POST /v1/payments': { watch: 'acquirer charge' },
  'GET /v1/payments': READ,
  'GET /v1/payments/:id': READ,
  'POST /v1/payments/:id/confirm': { watch: 'acquirer charge' },
  'POST /v1/payments/:id/cancel': { watch: 'Temporal start after commit (payment.canceled)' },
  'GET /v1/payment_methods': READ,
  'GET /v1/payment_methods/:id': READ,
  'DELETE /v1/payment_methods/:id': { watch: 'other writes' },
  'POST /v1/payment_methods/:id/set_default': { watch: 'dashboard case' },
  'POST /v1/refunds': { watch: 'Temporal start after commit' },
  'GET /v1/refunds': READ,
  'GET /v1/refunds/:id': READ,
  'GET /v1/invoices': READ,
  'GET /v1/invoices/:id': READ,
  'POST /v1/invoices/:id/pay': { watch: 'Temporal update (step-wise)' },
  'POST /v1/invoices/:id/void': { watch: 'Temporal update (step-wise)' },
  'POST /v1/invoice_items': { watch: 'other writes' },
  'GET /v1/invoice_items': READ,
  'GET /v1/invoice_items/:id': READ,
  'GET /v1/credit_notes': READ,
  'GET /v1/credit_notes/:id': READ,
  'POST /v1/test_helpers/customers/:id/payment_methods': { watch: 'acquirer tokenize' },
  'POST /v1/test_helpers/invoices/:id/pay_bank_claim': { watch: 'bank payClaim' },
  'GET /v1/test_helpers/event_feed': READ,
  'POST /v1/payment_sessions': { watch: 'Temporal start after commit' },
  'OPTIONS /v1/payment_sessions': { none: 'CORS preflight: answers from the merchant row' },
  'GET /v1/payment_sessions/:id': READ,
  'GET /checkout/embed.js': ASSET,
  'GET /checkout/assets/checkout.js': ASSET,
  'GET /checkout/assets/checkout.css': ASSET,
  'GET /checkout/embedded': ASSET,
  'GET /checkout/:id': READ,
  'POST /checkout/api/sessions/:id/confirm': { watch: 'acquirer charge, Temporal signal' },
  'POST /checkout/api/embedded/session': READ,
  'POST /checkout/api/embedded/confirm': { watch: 'acquirer charge, Temporal signal' },
  'POST /v1/test_helpers/test_clocks': { watch: 'test clocks case' },
  'GET /v1/test_helpers/test_clocks': READ,
  'GET /v1/test_helpers/test_clocks/:id': READ,
  'POST /v1/test_helpers/test_clocks/:id/advance': { watch: 'Temporal signal-with-start after commit' },
  'POST /v1/test_helpers/test_clocks/:id/customers': { watch: 'Temporal start after commit' },
  'DELETE /v1/test_helpers/test_clocks/:id': { watch: 'Temporal signal, cancels of the clock subscriptions' },
  'POST /v1/subscriptions': { watch: 'Temporal start after commit' },
  'GET /v1/subscriptions': READ,
  'GET /v1/subscriptions/:id': READ,
  'POST /v1/subscriptions/:id': { watch: 'Temporal update (step-wise)' },
  'POST /v1/subscriptions/:id/cancel': { watch: 'Temporal update (step-wise)' },
  'POST /v1/subscriptions/:id/uncancel': { watch: 'Temporal update (step-wise)' },
  'POST /v1/subscriptions/:id/pause': { watch: 'Temporal update (step-wise)' },
  'POST /v1/subscriptions/:id/resume': { watch: 'Temporal update (step-wise)' },
  'POST /v1/subscription_items': { watch: 'Temporal update (step-wise)' },
  'GET /v1/subscription_items/:id': READ,
  'POST /v1/subscription_items/:id': { watch: 'Temporal update (step-wise)' },
  'DELETE /v1/subscription_items/:id': { watch: 'Temporal update (step-wise)' },
  'GET /v1/vat_settings': READ,
  'POST /v1/vat_settings': { watch: 'other writes' },
  'GET /v1/ledger_entries': READ,
  'GET /v1/trial_balance': READ,
  'POST /v1/customer_portals': { watch: 'portal case' },
  'GET /v1/customer_portals': READ,
  'GET /v1/customer_portals/:id': READ,
  'DELETE /v1/customer_portals/:id': { watch: 'other writes' },
  'GET /v1/accounting_link/providers': { none: 'the provider catalogue, a constant' },
  'POST /v1/accounting_link/connect': { accounting: 'stores the OAuth state; the OAuth case connects through it' },
  'POST /v1/accounting_link/complete': { accounting: 'provider verify (step-wise)' },
  'GET /v1/accounting_link/callback/:provider': { accounting: 'provider code exchange, Temporal start after commit' },
  'GET /v1/accounting_link': READ,
  'DELETE /v1/accounting_link': { accounting: 'Temporal (stops the sync) after commit' },
  'GET /v1/accounting_link/chart_of_accounts': { accounting: 'provider (and a token refresh)' },
  'GET /v1/accounting_link/vat_codes': { accounting: 'provider (and a token refresh)' },
  'POST /v1/accounting_link/settings': { accounting: 'provider chart and VAT codes (step-wise), Temporal nudge after commit' },
  'GET /v1/accounting_link/sync_records': READ,
  'POST /v1/accounting_link/sync_records/:id/resync': { accounting: 'Temporal nudge after commit' },
  'GET /v1/invoices/:id/pdf': { none: 'renders the document in process from the database' },
  'GET /v1/credit_notes/:id/pdf': { none: 'renders the document in process from the database' },
  'GET /v1/invoices/:id/html': { none: 'renders the document in process from the database' },
  'GET /v1/credit_notes/:id/html': { none: 'renders the document in process from the database' },
  'GET /v1/exports/invoices.csv': READ,
  'GET /v1/exports/payments.csv': READ,
  'GET /v1/exports/refunds.csv': READ,
  'GET /v1/exports/credit_notes.csv': READ,
  'GET /v1/exports/ledger_entries.csv': READ,
  'GET /v1/exports/trial_balance.csv': READ,
  'GET /v1/exports/invoice_documents.zip': { none: 'renders the documents in process from the database' },
  'GET /portal/assets/portal.js': ASSET,
  'GET /portal/assets/portal.css': ASSET,
  'GET /portal/open/:token': NO_EVENT('opens a portal session'),
  'GET /portal': READ,
  'GET /portal/invoices/:id': READ,
  'GET /portal/credit_notes/:id': READ,
  'GET /portal/invoices/:id/pdf': { none: 'renders the document in process from the database' },
  'GET /portal/credit_notes/:id/pdf': { none: 'renders the document in process from the database' },
  'POST /portal/api/subscriptions/:id/cancel': { watch: 'Temporal update (step-wise)' },
  'POST /portal/api/subscriptions/:id/uncancel': { watch: 'Temporal update (step-wise)' },
  'POST /portal/api/payment_methods': { watch: 'acquirer tokenize' },
  'POST /portal/api/payment_methods/:id/default': { watch: 'portal case' },
  'POST /portal/api/payment_methods/:id/remove': { watch: 'portal case' },
  'POST /portal/api/billing_details': { watch: 'Temporal start after commit (customer.updated)' },
  'POST /portal/api/invoices/:id/pay': { watch: 'Temporal update, acquirer (step-wise)' },
  'POST /portal/api/sign_out': { watch: 'portal case' },
  'GET /portal/signed_out': ASSET,
  'GET /v1/openapi.json': ASSET,
  'GET /docs/api': ASSET,
  'GET /docs/errors': ASSET,
  'GET /docs/api/assets/:file': ASSET,
};

/** Every activity the worker registers. */
export const ACTIVITY_COVERAGE: Record<string, Coverage> = {
  applySubscriptionCommand: { watch: 'Temporal start (events)' },
  attachSubscriptionWorkflow: { none: 'database only (ran on the watched worker)' },
  attemptWebhookDelivery: { watch: 'HTTP POST to the receiver (the receiver watches)' },
  chargeSubscriptionInvoice: { watch: 'acquirer charge, Temporal start' },
  checkSubscriptionBankClaim: { watch: 'bank getClaim' },
  completeClockAdvance: { none: 'database only (ran on the watched worker)' },
  dispatchUndispatchedEvents: { watch: 'Temporal start' },
  expirePaymentSession: {
    none: 'Temporal start of its events after its own commit; not driven: its timer is a day away, and sweepOverduePaymentSessions (watched) runs the same expiry',
  },
  finalizeSubscriptionInvoice: { none: 'only histories from before the one-activity renewal patch call it; runSubscriptionSteps (watched) runs the same domain step' },
  invoiceCollectionState: { none: 'database only (ran on the watched worker)' },
  loadSubscriptionView: { none: 'database only' },
  maintainUsageEventPartitions: { none: 'database only (partition DDL)' },
  markSubscriptionWorkflowEnded: { watch: 'Temporal signal (clock nudge)' },
  nextWebhookAttemptNumber: { none: 'database only (ran on the watched worker)' },
  notifyClockSubscriptions: { watch: 'Temporal signal-with-start' },
  purgeExpiredIdempotencyKeys: { none: 'database only (ran on the watched worker)' },
  purgeOldRateLimitWindows: { none: 'database only (ran on the watched worker)' },
  pushAccountingSyncBatch: { accounting: 'provider posts' },
  reconcileSubscriptionWorkflows: { watch: 'Temporal start/signal (ran; nothing to repair)' },
  recordRefundOutcome: { watch: 'Temporal start (events)' },
  refundAtAcquirer: { watch: 'acquirer refund' },
  runSubscriptionPeriodEnd: { none: 'only histories from before the one-activity renewal patch call it; runSubscriptionSteps (watched) runs the same domain step' },
  runSubscriptionSteps: { watch: 'acquirer charge, bank claims, Temporal start/signal' },
  sendSubscriptionTrialNotice: { none: 'only histories from before the one-activity renewal patch call it; runSubscriptionSteps (watched) runs the same domain step' },
  startPendingRefundWorkflows: { watch: 'Temporal start (ran; nothing pending)' },
  sweepOverduePaymentSessions: { watch: 'Temporal start (events)' },
  syncSubscriptionClock: { watch: 'Temporal signal (clock nudge)' },
};

/** The rows of `table` with the given kind. */
export function coveredBy(table: Record<string, Coverage>, kind: 'watch' | 'accounting'): string[] {
  return Object.entries(table)
    .filter(([, c]) => kind in c)
    .map(([k]) => k);
}

/**
 * The declared route (`METHOD /path`) a request was served by: the first declaration, in mount
 * order, whose method and path pattern match (as the router matches).
 */
export function routeOfRequest(declared: ReadonlyArray<{ method: string; path: string }>, method: string, url: string): string | null {
  const path = url.split('?')[0]!;
  for (const d of declared) {
    if (d.method.toUpperCase() !== method.toUpperCase()) continue;
    const pattern = new RegExp(`^${d.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);
    if (pattern.test(path)) return `${d.method.toUpperCase()} ${d.path}`;
  }
  return null;
}
