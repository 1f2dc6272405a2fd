// The JSON Schema of every public object, one per presenter in this folder (named in each comment).
// The OpenAPI document (api/openapi/) lists them under components.schemas and the routes' responses
// refer to them by name. They are checked against real presenter output by the contract tests:
// every response the API tests receive is validated against the document (docs/openapi.md), so a
// presenter that adds, drops or retypes a field without changing its schema here fails a test.
import type * as P from '../generated/prisma/client';
import { anyJson, arrayOf, bool, int, literal, metadata, nullable, num, object, ref, str, stringEnum, timestamp, type JsonSchema } from './json-schema';

const nstr = nullable(str);
const nint = nullable(int);
const nts = nullable(timestamp);
const vatRate = nullable(str);

/** presentVatBreakdown (vat-breakdown.ts) */
const vatBreakdown = arrayOf(object({ vat_rate: str, percent: num, amount_excluding_vat: int, vat_amount: int, amount_including_vat: int }));

/** presentSubscriptionItem (subscription-items.ts) */
const SubscriptionItem = object({
  id: str,
  object: literal('subscription_item'),
  subscription: str,
  price: str,
  quantity: int,
  credit_rollover: bool,
  included_units: nint,
  metadata,
  created_at: timestamp,
  updated_at: timestamp,
});

/** presentInvoiceLine (invoices.ts) */
const InvoiceLine = object({
  id: str,
  object: literal('invoice_line'),
  kind: str,
  description: str,
  amount: int,
  unit_amount: nullable(num),
  quantity: num,
  currency: str,
  proration: bool,
  vat_rate: vatRate,
  vat_percent: num,
  vat_amount: int,
  period_start: nts,
  period_end: nts,
});

export const OBJECT_SCHEMAS: Record<string, JsonSchema> = {
  /** presentCustomer (customers.ts) */
  Customer: object({
    id: str,
    email: str,
    name: nstr,
    phone: nstr,
    kennitala: nstr,
    external_id: nstr,
    vat_number: nstr,
    currency: nstr,
    metadata,
    billing_address: nullable(object({ line1: nstr, line2: nstr, city: nstr, postal_code: nstr, country: nstr })),
    created_at: timestamp,
    test_clock: nstr,
  }),
  /** presentProduct (products.ts) */
  Product: object({ id: str, name: str, description: nstr, active: bool, vat_rate: vatRate, metadata, created_at: timestamp, updated_at: timestamp }),
  /** presentPrice (prices.ts) */
  Price: object({
    id: str,
    product: str,
    currency: str,
    type: stringEnum<P.PriceType>({ one_time: true, recurring: true }),
    unit_amount: nint,
    recurring: nullable(
      object({
        interval: stringEnum<P.PriceInterval>({ day: true, week: true, month: true, year: true }),
        interval_count: int,
        usage_type: stringEnum<P.PriceUsageType>({ licensed: true, metered: true }),
        aggregate_usage: nullable(stringEnum<P.PriceAggregateUsage>({ sum: true, max: true, last_during_period: true })),
      }),
    ),
    tiers_mode: nullable(stringEnum<P.PriceTiersMode>({ graduated: true, volume: true })),
    tiers: nullable(arrayOf({ type: 'object' })),
    meter: nstr,
    included_units: nint,
    accounting_code: nstr,
    vat_rate: vatRate,
    active: bool,
    metadata,
    created_at: timestamp,
  }),
  /** presentMeter (meters.ts) */
  Meter: object({
    id: str,
    name: str,
    event_name: str,
    aggregate_type: stringEnum<P.MeterAggregateType>({ count: true, sum: true, max: true, min: true, avg: true, unique: true }),
    aggregate_property: nstr,
    filter: { type: 'object' },
    unit_label: nstr,
    unit_multiplier: num,
    archived: bool,
    archived_at: nts,
    created_at: timestamp,
  }),
  /** presentQuantity (meters.ts) */
  MeterQuantity: object({ meter: str, customer: str, period_start: timestamp, period_end: timestamp, quantity: nullable(num) }),
  /** presentUsageEvent (usage-events.ts) */
  UsageEvent: object({ id: str, event_name: str, customer: str, idempotency_key: nstr, timestamp, metadata: anyJson, received_at: timestamp }),
  /** presentBatchResult (usage-events.ts) */
  UsageBatchResult: object({ ingested: int, duplicates: int, errors: arrayOf(object({ index: int, message: str })) }),
  /** presentApiKey (api-keys.ts); `key` only when the key is created or rolled, and null when
   *  such a response is replayed for its Idempotency-Key (the full key is never stored) */
  ApiKey: object(
    {
      id: str,
      object: literal('api_key'),
      type: stringEnum<P.ApiKeyType>({ secret: true, publishable: true }),
      mode: stringEnum<P.Mode>({ test: true, live: true }),
      label: nstr,
      key: nstr,
      last4: str,
      created_at: timestamp,
    },
    { optional: ['key'] },
  ),
  /** presentWebhookEndpoint (webhook-endpoints.ts); `secret` only in the create and rotate_secret
   *  responses, and null when such a response is replayed for its Idempotency-Key (the plaintext
   *  secret is never stored; the endpoint row holds it sealed) */
  WebhookEndpoint: object(
    {
      id: str,
      object: literal('webhook_endpoint'),
      url: str,
      events: arrayOf(str),
      description: nstr,
      status: stringEnum<P.WebhookEndpointStatus>({ enabled: true, disabled: true }),
      secret: nstr,
      created_at: timestamp,
      updated_at: timestamp,
    },
    { optional: ['secret'] },
  ),
  /** presentWebhookDelivery (webhook-deliveries.ts) */
  WebhookDelivery: object({
    id: str,
    object: literal('webhook_delivery'),
    endpoint: str,
    event: str,
    event_type: str,
    status: stringEnum<P.WebhookDeliveryStatus>({ pending: true, succeeded: true, failed: true }),
    attempt_count: int,
    status_code: nint,
    latency_ms: nint,
    error: nstr,
    last_attempt_at: nts,
    next_retry_at: nts,
    created_at: timestamp,
    attempts: arrayOf(
      object({
        attempt_number: int,
        trigger: stringEnum<P.WebhookAttemptTrigger>({ automatic: true, manual: true }),
        status_code: nint,
        latency_ms: nint,
        error: nstr,
        response_body: nstr,
        attempted_at: timestamp,
        next_retry_at: nts,
      }),
    ),
  }),
  /** presentEvent (events.ts) */
  Event: object({ id: str, object: literal('event'), type: str, created_at: timestamp, data: { type: 'object' } }),
  /** presentPayment (payments.ts) */
  Payment: object({
    id: str,
    object: literal('payment'),
    status: stringEnum<P.PaymentStatus>({
      requires_payment_method: true,
      processing: true,
      succeeded: true,
      failed: true,
      canceled: true,
      partially_refunded: true,
      refunded: true,
    }),
    amount: int,
    amount_refunded: int,
    currency: str,
    customer: nstr,
    description: nstr,
    payment_method: nstr,
    invoice: nstr,
    external_reference: nstr,
    failure_code: nstr,
    failure_message: nstr,
    metadata,
    succeeded_at: nts,
    canceled_at: nts,
    created_at: timestamp,
  }),
  /** presentPaymentMethod (payment-methods.ts) */
  PaymentMethod: object({
    id: str,
    object: literal('payment_method'),
    customer: str,
    type: stringEnum<P.PaymentMethodType>({ card: true, apple_pay: true, google_pay: true, bank_invoice: true }),
    card: nullable(object({ brand: nstr, last4: nstr, exp_month: nint, exp_year: nint })),
    is_default: bool,
    created_at: timestamp,
  }),
  /** presentPaymentSession (payment-sessions.ts) */
  PaymentSession: object({
    id: str,
    object: literal('payment_session'),
    mode: stringEnum<P.PaymentSessionUiMode>({ hosted: true, embedded: true }),
    status: stringEnum<P.PaymentSessionStatus>({ open: true, complete: true, expired: true }),
    url: nstr,
    client_secret: nstr,
    payment: str,
    amount: int,
    currency: str,
    customer: nstr,
    customer_email: nstr,
    return_url: nstr,
    cancel_url: nstr,
    origin: nstr,
    enabled_methods: arrayOf(str),
    locale: nstr,
    save_payment_method: bool,
    payment_method: nstr,
    external_reference: nstr,
    metadata,
    expires_at: timestamp,
    completed_at: nts,
    created_at: timestamp,
  }),
  /** presentRefund (refunds.ts) */
  Refund: object({
    id: str,
    object: literal('refund'),
    payment: str,
    amount: int,
    currency: str,
    status: stringEnum<P.RefundStatus>({ pending: true, succeeded: true, failed: true }),
    reason: nstr,
    failure_code: nstr,
    failure_reason: nstr,
    metadata,
    succeeded_at: nts,
    failed_at: nts,
    created_at: timestamp,
  }),
  /** presentInvoice (invoices.ts); `lines` when the invoice is fetched on its own */
  Invoice: object(
    {
      id: str,
      object: literal('invoice'),
      number: nstr,
      customer: nstr,
      subscription: nstr,
      payment: nstr,
      status: stringEnum<P.InvoiceStatus>({ draft: true, open: true, paid: true, void: true, uncollectible: true }),
      billing_reason: nstr,
      collection_method: nstr,
      currency: str,
      subtotal: int,
      discount_amount: int,
      total: int,
      vat_amount: int,
      total_excluding_vat: int,
      prices_include_vat: bool,
      vat_breakdown: vatBreakdown,
      amount_due: int,
      amount_paid: int,
      amount_remaining: int,
      period_start: nts,
      period_end: nts,
      due_date: nts,
      finalized_at: nts,
      paid_at: nts,
      voided_at: nts,
      next_payment_attempt: nts,
      attempt_count: int,
      last_payment_error: nullable(object({ code: str, message: nstr, occurred_at: nts })),
      metadata,
      created_at: timestamp,
      lines: arrayOf(ref('InvoiceLine')),
    },
    { optional: ['lines'] },
  ),
  InvoiceLine,
  /** presentInvoiceItem (invoice-items.ts) */
  InvoiceItem: object({
    id: str,
    object: literal('invoice_item'),
    customer: str,
    subscription: nstr,
    invoice: nstr,
    pending: bool,
    amount: int,
    quantity: int,
    currency: str,
    description: nstr,
    proration: bool,
    vat_rate: vatRate,
    period_start: nts,
    period_end: nts,
    metadata,
    created_at: timestamp,
  }),
  /** presentCreditNote (credit-notes.ts) */
  CreditNote: object({
    id: str,
    object: literal('credit_note'),
    invoice: str,
    refund: nstr,
    amount: int,
    currency: str,
    vat_amount: int,
    vat_breakdown: vatBreakdown,
    reason: nstr,
    status: stringEnum<P.CreditNoteStatus>({ issued: true, void: true }),
    created_at: timestamp,
  }),
  /** presentSubscription (subscriptions.ts) */
  Subscription: object({
    id: str,
    object: literal('subscription'),
    customer: str,
    status: stringEnum<P.SubscriptionStatus>({ trialing: true, active: true, past_due: true, unpaid: true, canceled: true, paused: true }),
    collection_method: stringEnum<P.SubscriptionCollectionMethod>({ charge_automatically: true, send_invoice: true }),
    days_until_due: nint,
    currency: str,
    billing_cycle_anchor: nts,
    start_date: nts,
    current_period_start: nts,
    current_period_end: nts,
    cancel_at_period_end: bool,
    canceled_at: nts,
    ended_at: nts,
    trial_start: nts,
    trial_end: nts,
    pause_collection: nullable(object({ behavior: literal('void'), paused_at: timestamp })),
    discount: nullable(object({ amount_off: nint, percent_off: nullable(num), duration: str, duration_in_months: nint, start: nts })),
    items: arrayOf(ref('SubscriptionItem')),
    test_clock: nstr,
    metadata,
    created_at: timestamp,
    updated_at: timestamp,
  }),
  SubscriptionItem,
  /** presentDeletedSubscriptionItem (subscription-items.ts) */
  DeletedSubscriptionItem: object({ id: str, object: literal('subscription_item'), subscription: str, deleted: { const: true } }),
  /** presentTestClock (test-clocks.ts) */
  TestClock: object({
    id: str,
    object: literal('test_clock'),
    name: nstr,
    frozen_time: timestamp,
    status: stringEnum<P.TestClockStatus>({ ready: true, advancing: true }),
    created_at: timestamp,
  }),
  /** presentDeletedTestClock (test-clocks.ts) */
  DeletedTestClock: object({ id: str, object: literal('test_clock'), deleted: { const: true } }),
  /** presentVatSettings (vat-settings.ts) */
  VatSettings: object({ object: literal('vat_settings'), country: str, default_vat_rate: str, prices_include_vat: bool, rates: arrayOf(object({ id: str, percent: num })) }),
  /** presentLedgerEntry (ledger.ts) */
  LedgerEntry: object({
    id: str,
    object: literal('ledger_entry'),
    posting: str,
    kind: nstr,
    account: str,
    debit: int,
    credit: int,
    currency: str,
    invoice: nstr,
    customer: nstr,
    vat_rate: vatRate,
    occurred_at: timestamp,
    created_at: timestamp,
  }),
  /** presentTrialBalance (ledger.ts) */
  TrialBalance: object({
    object: literal('trial_balance'),
    as_of: timestamp,
    customer: nstr,
    currencies: arrayOf(
      object({
        currency: str,
        accounts: arrayOf(object({ account: str, debit: int, credit: int, balance: int })),
        total_debit: int,
        total_credit: int,
      }),
    ),
  }),
  /** presentAccountingLink (accounting-link.ts) */
  AccountingLink: object({
    id: str,
    object: literal('accounting_link'),
    provider: str,
    status: stringEnum<P.AccountingLinkStatus>({ active: true, disconnected: true, error: true }),
    mode: stringEnum<P.Mode>({ test: true, live: true }),
    status_reason: nstr,
    settings: ref('AccountingSettings'),
    created_at: timestamp,
    disconnected_at: nts,
  }),
  /** presentAccountingSettings (accounting-link.ts) */
  AccountingSettings: object({ default_gl_account: nstr, vat_code_mapping: metadata }),
  /** presentProvider (accounting-link.ts) */
  AccountingProvider: object({ id: str, name: str, auth_type: str, mode: str }),
  /** presentLedgerAccount (accounting-link.ts) */
  AccountingLedgerAccount: object({ code: str, name: str, type: str }),
  /** presentVatCode (accounting-link.ts) */
  AccountingVatCode: object({ code: str, name: str, rate: num }),
  /** presentSyncRecord (accounting-link.ts) */
  AccountingSyncRecord: object({
    id: str,
    object: literal('accounting_sync_record'),
    link: str,
    posting: str,
    kind: nstr,
    invoice: nstr,
    status: stringEnum<P.AccountingSyncStatus>({ pending: true, synced: true, failed: true }),
    attempts: int,
    provider_id: nstr,
    provider_message: nstr,
    last_attempt_at: nts,
    synced_at: nts,
    created_at: timestamp,
  }),
};
