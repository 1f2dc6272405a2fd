// The outbox API for every area: record an event in the transaction of the change, dispatch it
// after commit. docs/events.md shows how; src/events/types.ts is the catalogue of types.
export { datingEventsAt, eventsInsertCte, prepareEvent, recordEvent, recordedEvents, writtenEventsJson } from './record-event';
export type { PreparedEvent, RecordEventInput, RecordedEvent } from './record-event';
export { dispatchEvents, dispatchEventsFromActivity } from './dispatch';
export type { ApiDispatchDeps, DispatchSummary, DispatchTarget, EventRef } from './dispatch';
export { ALL_EVENTS, EVENT_TYPES, EVENT_TYPE_NAMES, endpointReceives, isEventType } from './types';
export type { EventType } from './types';
