// The parts of the OpenAPI document that are not routes: the tags (in the document's order) and the
// objects presented in api/ itself (their presenters sit next to their routes; the objects of
// src/objects/ have their schemas in src/objects/schemas.ts). The operations come from the route
// declarations (api/route.ts, api/areas.ts).
import { arrayOf, bool, int, literal, metadata, nullable, object, str, stringEnum, timestamp, type JsonSchema } from '../../src/objects/json-schema';

export const TAGS = [
  { name: 'Health', description: 'Liveness of the service and its dependencies.' },
  { name: 'API reference', description: 'This document and the page that renders it.' },
  { name: 'Merchant', description: 'The merchant of the calling key, and settings managed in the dashboard.' },
  { name: 'API keys', description: 'Secret and publishable keys of the merchant.' },
  { name: 'Customers', description: 'The people and companies that are billed.' },
  { name: 'Products', description: 'What is sold.' },
  { name: 'Prices', description: 'How much and how often a product costs.' },
  { name: 'Meters', description: 'Usage meters for metered prices.' },
  { name: 'Usage events', description: 'Usage recorded against meters.' },
  { name: 'Subscriptions', description: 'Recurring billing of a customer.' },
  { name: 'Subscription items', description: 'The prices of a subscription.' },
  { name: 'Invoices', description: 'Invoices, their documents, and pending invoice items.' },
  { name: 'Credit notes', description: 'Credit notes issued against invoices.' },
  { name: 'Payments', description: 'One-off payments, their payment methods and refunds.' },
  { name: 'Payment sessions', description: 'Hosted or embedded checkout of a payment.' },
  { name: 'Webhooks', description: 'Endpoints, deliveries and the events they carry.' },
  { name: 'Customer portal', description: 'Links to the customer self-service portal.' },
  { name: 'VAT', description: 'VAT settings of the merchant.' },
  { name: 'Ledger', description: 'The double-entry ledger and trial balance.' },
  { name: 'Accounting', description: 'The link to an external accounting system.' },
  { name: 'Exports', description: 'A period of invoices, payments, refunds, credit notes, ledger entries and the trial balance as CSV, and the invoice PDFs as a ZIP.' },
  { name: 'Test helpers', description: 'Test mode only: test clocks, test cards and simulated bank claims.' },
  { name: 'Checkout page', description: 'The hosted and embedded checkout pages and the JSON calls they make (not for merchant servers).' },
  { name: 'Customer portal page', description: 'The customer portal pages and the JSON calls they make (not for merchant servers).' },
];

const nstr = nullable(str);
const nts = nullable(timestamp);

/** Objects presented in api/ itself (their presenters sit next to their routes). */
export const API_SCHEMAS: Record<string, JsonSchema> = {
  /** api/routes/health.ts */
  Health: object({
    status: stringEnum<'ok' | 'saturated' | 'degraded'>({ ok: true, saturated: true, degraded: true }),
    database: object({ ok: bool, latency_ms: int, error: str }, { optional: ['latency_ms', 'error'] }),
    temporal: object({ ok: bool, address: str, namespace: str }),
    /** The API's database pool (src/db/client.ts poolUse). */
    pool: nullable(object({ size: int, in_use: int, idle: int, waiting: int })),
    /** Requests in flight against API_MAX_IN_FLIGHT, and how many were refused since start. */
    requests: nullable(object({ current: int, limit: int, refused: int })),
    /** What is exhausted now: `database_pool`, `requests_in_flight` (docs/operations.md "Pools and back-pressure"). */
    saturated: arrayOf(str),
    subscription_workflows: nullable(object({ restarted: int, halted: int })),
  }),
  /** api/ops-endpoints.ts GET /livez */
  Liveness: object({ status: stringEnum<'ok'>({ ok: true }), uptime_seconds: int }),
  /** api/ops-endpoints.ts GET /readyz (src/observability/readiness.ts: one entry per check) */
  Readiness: object({
    status: stringEnum<'ready' | 'not_ready'>({ ready: true, not_ready: true }),
    checks: { type: 'object', additionalProperties: { type: 'object', properties: { ok: bool }, required: ['ok'] } },
    /** What is exhausted now (reported; not a reason to be unready): `database_pool`, `requests_in_flight`. */
    saturated: arrayOf(str),
  }),
  /** api/routes/merchants/router.ts */
  CurrentMerchant: object({ id: str, name: str, created_at: nts }),
  /** api/routes/dashboard-only.ts presentMerchant */
  DashboardMerchant: object({ id: str, object: literal('merchant'), name: str, default_currency: str, live_enabled_at: nts, created_at: nts }),
  RedirectDomains: object({ object: literal('redirect_domains'), domains: arrayOf(str) }),
  AllowedOrigins: object({ object: literal('allowed_origins'), origins: arrayOf(str) }),
  BankInvoiceSettings: object({ object: literal('bank_invoice_settings'), default_days_until_due: int, claim_expiry_days: int, claim_recheck_days: int, editable: bool }),
  /** A deleted payment method or webhook endpoint. */
  DeletedObject: object({ id: str, object: str, deleted: { const: true } }),
  /** api/routes/customer-portals/presenter.ts; `url` only in the creation response */
  CustomerPortal: object({
    id: str,
    object: literal('customer_portal'),
    customer: str,
    url: nstr,
    status: str,
    reusable: bool,
    expires_at: nts,
    revoked_at: nts,
    last_accessed_at: nts,
    metadata,
    created_at: timestamp,
  }),
  /** src/domain/accounting/connect-accounting-link.ts */
  AccountingConnect: object(
    { redirect_url: nstr, auth_type: stringEnum<'oauth' | 'form'>({ oauth: true, form: true }), credentials_fields: arrayOf(str) },
    { optional: ['credentials_fields'] },
  ),
  /** api/checkout/router.ts pay() */
  CheckoutPaymentResult: {
    oneOf: [
      object({ outcome: literal('succeeded'), session_id: str, status: str, payment: str, payment_status: str, redirect_url: nstr }),
      object({ outcome: literal('declined'), decline_code: nstr, message: nstr }),
    ],
  },
  /** api/checkout/router.ts POST /checkout/api/embedded/session */
  EmbeddedCheckoutSession: object({
    session_id: str,
    status: str,
    origin: nstr,
    merchant_name: str,
    amount_label: str,
    description: nstr,
    test_mode: bool,
    enabled_methods: arrayOf(str),
    customer_email: nstr,
    save_payment_method: bool,
    locale: str,
    messages: { type: 'object', additionalProperties: { type: 'string' } },
  }),
  /** api/portal/router.ts done() */
  PortalActionResult: object({ ok: { const: true }, notice: str }),
  PortalSignOut: object({ ok: { const: true }, redirect: str }),
};
