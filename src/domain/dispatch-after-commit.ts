// The one way a use case called from a request dispatches the events it recorded (in its
// transaction, the outbox): after the request's transaction commits, through the scope. A
// dispatch that fails is left to the dispatch reconciler (src/events/dispatch.ts).
import { dispatchEvents, type ApiDispatchDeps, type RecordedEvent } from '../events';
import type { RequestScope } from './request-scope';

/** Dispatches the events once the request's transaction committed (never when it rolled back). */
export function dispatchAfterCommit(deps: ApiDispatchDeps, scope: Pick<RequestScope, 'afterCommit'>, events: RecordedEvent[]): void {
  if (events.length > 0) scope.afterCommit(async () => void (await dispatchEvents(deps, events)));
}
