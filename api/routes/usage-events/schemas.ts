import { yup } from '../../validate';
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
