// The catalogue of event types, in one place. Areas record events with these names through
// recordEvent (./record-event.ts); endpoints subscribe to them (or to "*"); docs/events.md lists
// each with a sample, and test/api/webhooks/events-doc.test.ts keeps the two in step.
// Adding a type is backward compatible (docs/events.md); renaming or removing one is not.

export const EVENT_TYPES = {
  'payment.succeeded': 'A payment completed and a charge was captured',
  'payment.failed': 'A payment attempt was declined or errored',
  'payment.canceled': 'A payment that was never paid was canceled (directly, or when its checkout session expired)',
  'payment_method.attached': 'A payment method was saved to a customer',
  'invoice.finalized': 'An invoice left draft and became open (payable)',
  'invoice.paid': 'An invoice was marked paid by automatic charge or manual payment',
  'invoice.payment_failed': 'A collection attempt for an invoice failed: a declined charge, or a refusal by the bank or acquirer (see last_payment_error)',
  'invoice.voided': 'An open invoice was voided and is no longer collectible',
  'invoice.updated':
    'An open invoice changed without changing status: its next collection attempt (next_payment_attempt) moved, e.g. a bank claim was issued or checked and still waits',
  'subscription.created': 'A new subscription was created',
  'subscription.updated': 'A subscription changed (items, quantities, discount, status, cancel_at_period_end, …)',
  'subscription.canceled': 'A subscription was canceled, immediately or at period end',
  'subscription.paused': 'A subscription was paused (billing stops)',
  'subscription.resumed': 'A paused subscription was resumed',
  'subscription.trial_will_end': 'A trial ends in three days (or at once, for shorter trials)',
  'refund.created': 'A refund was created (status pending)',
  'refund.succeeded': 'A refund was completed',
  'refund.failed': 'A refund could not be completed',
  'credit_note.created': 'A credit note was issued (for a refund against a paid invoice)',
  'customer.created': 'A customer was created',
  'customer.updated': 'A customer was changed',
  'accounting_link.error': 'The accounting link went to error: the provider refused its credentials or tokens (consent revoked); syncing waits until it is connected again',
} as const satisfies Record<string, string>;

export type EventType = keyof typeof EVENT_TYPES;

/** Every event type, in catalogue order. */
export const EVENT_TYPE_NAMES: readonly EventType[] = Object.freeze(Object.keys(EVENT_TYPES) as EventType[]);

/** An endpoint subscribed to this receives every type, including types added later. */
export const ALL_EVENTS = '*';

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(EVENT_TYPES, value);
}

/** True when an endpoint with `subscribed` (event types or ["*"]) receives `type`. */
export function endpointReceives(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
}
