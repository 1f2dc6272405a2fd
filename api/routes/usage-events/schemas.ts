import { yup } from '../../validate';
import type { JsonSchema } from '../../../src/objects/json-schema';
import { idField, text } from '../../fields';
import { EVENT_LIMITS } from '../../../src/domain/usage-events/event-input';

// Bodies of POST /v1/events and /v1/events/batch are checked by src/domain/usage-events/event-input.ts
// (hand-written for the 1,000-event batch path); only the list query uses yup.
export const listEventsQuery = yup.object({
  customer: idField(),
  event_name: text(EVENT_LIMITS.eventNameLength),
  from: yup.string(),
  to: yup.string(),
});

/**
 * The JSON Schema of one usage event in the OpenAPI document: what checkEvent
 * (src/domain/usage-events/event-input.ts) accepts, which checks the body itself. Fields it does not
 * know are ignored (so the schema leaves the object open).
 */
export const usageEventBody: JsonSchema = {
  type: 'object',
  description: 'One usage event (docs/metering.md). Give exactly one of `customer` and `external_customer_id`. Fields other than these are ignored.',
  properties: {
    event_name: { type: 'string', minLength: 1, maxLength: EVENT_LIMITS.eventNameLength, description: 'The name meters match (`event_name` of a meter).' },
    customer: { type: ['string', 'null'], minLength: 1, maxLength: EVENT_LIMITS.customerRefLength, pattern: '^[A-Za-z0-9_-]+$', description: 'The customer id (`cus_…`).' },
    external_customer_id: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: EVENT_LIMITS.customerRefLength,
      description: "The customer's `external_id`, instead of `customer`.",
    },
    idempotency_key: {
      type: ['string', 'null'],
      minLength: 1,
      maxLength: EVENT_LIMITS.idempotencyKeyLength,
      description: 'An event with a key already recorded is not recorded again.',
    },
    timestamp: {
      type: ['string', 'null'],
      description:
        "ISO 8601 with a time zone (`2026-03-01T12:00:00Z`); absent or null for now (the test clock's time for a customer on a test clock). At most 5 minutes in the future.",
    },
    metadata: {
      type: ['object', 'null'],
      additionalProperties: true,
      description: `Properties of the event, which meters aggregate (\`aggregate_property\`) and filter on: unlike other objects' metadata, values may be any JSON (numbers for aggregated properties). At most ${EVENT_LIMITS.metadataMaxBytes} bytes as JSON; absent or null for \`{}\`.`,
    },
  },
  required: ['event_name'],
  additionalProperties: true,
};
