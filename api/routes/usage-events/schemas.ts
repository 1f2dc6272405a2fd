import { yup } from '../../validate';
import { anyJson, object, str } from '../../../src/objects/json-schema';
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

/** The JSON Schema of one usage event in the OpenAPI document (the domain checks the body itself). */
export const usageEventBody = object(
  { event_name: str, customer: str, timestamp: { type: ['string', 'integer'] }, idempotency_key: str, value: anyJson, metadata: anyJson },
  { optional: ['timestamp', 'idempotency_key', 'value', 'metadata'], description: 'Checked by the domain (src/metering): see docs/metering.md.' },
);
(usageEventBody as { additionalProperties?: boolean }).additionalProperties = true;
