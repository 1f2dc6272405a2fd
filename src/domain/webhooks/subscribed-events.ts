// An endpoint's `events`: known event types, or "*" for all (including types added later).
import { errors } from '../../errors';
import { ALL_EVENTS, EVENT_TYPE_NAMES, isEventType } from '../../events/types';

/** Validates and normalises: duplicates dropped, catalogue order, "*" alone when present. */
export function normalizeSubscribedEvents(events: readonly string[]): string[] {
  if (events.length === 0) throw errors.validationFailed('events must name at least one event type (or "*")', 'events');
  events.forEach((t, i) => {
    if (t !== ALL_EVENTS && !isEventType(t)) {
      throw errors.validationFailed(`events[${i}]: unknown event type '${t.slice(0, 100)}' (see docs/events.md)`, 'events');
    }
  });
  if (events.includes(ALL_EVENTS)) return [ALL_EVENTS];
  return EVENT_TYPE_NAMES.filter((t) => events.includes(t));
}
