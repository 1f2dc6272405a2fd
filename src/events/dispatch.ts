// Dispatch of recorded events: after the transaction that recorded an event commits, one
// delivery (`del_`) row and one delivery workflow `delivery/<evt_id>/<we_id>` are created per
// matching endpoint, then the event is marked dispatched. Every step is idempotent, so the
// reconciler (workflows/event-dispatch-reconciler.ts) can run it again for an event a crash left
// undispatched:
//  - delivery rows: unique (event_id, endpoint_id), inserted with ON CONFLICT DO NOTHING;
//  - workflows: the id is derived from event and endpoint and the reuse policy is
//    REJECT_DUPLICATE, so a repeat start never makes a second delivery run;
//  - dispatched_at is only set, never cleared.
// Which endpoints match: enabled, not deleted, subscribed to the type (or "*"), and created no
// later than the event (an endpoint does not receive events from before it existed).
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Db } from '../db/client';
import type { TemporalProvider } from '../temporal/client';
import { workflowIds } from '../temporal/workflow-ids';
import { SA_MERCHANT, SA_MODE } from '../temporal/search-attributes';
import { newId } from '../ids';
import { ALL_EVENTS } from './types';
import { RETRY_DELIVERY_NOW_SIGNAL, WEBHOOK_DELIVERY_WORKFLOW, type WebhookDeliveryInput } from '../contracts/webhooks';

/** Where delivery workflows are started: a Temporal client and the task queue of the workers. */
export interface DispatchTarget {
  db: Db;
  client: Client;
  taskQueue: string;
  log?: (line: string) => void;
}

/** The API's dependencies (AppDeps) are enough. */
export interface ApiDispatchDeps {
  db: Db;
  temporal: TemporalProvider;
  log?: (line: string) => void;
}

export interface EventRef {
  id: string;
}

export interface DispatchSummary {
  /** Events now marked dispatched. */
  dispatched: number;
  /** Delivery workflows started (repeats that found a workflow already there are not counted). */
  workflowsStarted: number;
  /** Events left for the reconciler because something failed (logged). */
  failed: number;
}

/**
 * After commit, from an API route:
 *   ctx.state.afterCommit.push(() => dispatchEvents(deps, [event]));
 * Never throws: an event it could not dispatch is picked up by the reconciler within a minute.
 */
export async function dispatchEvents(deps: ApiDispatchDeps | DispatchTarget, events: readonly EventRef[]): Promise<DispatchSummary> {
  const summary: DispatchSummary = { dispatched: 0, workflowsStarted: 0, failed: 0 };
  if (events.length === 0) return summary;
  let target: DispatchTarget;
  try {
    target = 'client' in deps ? deps : { db: deps.db, client: await deps.temporal.client(), taskQueue: deps.temporal.taskQueue, log: deps.log };
  } catch (err) {
    deps.log?.(`event dispatch deferred to the reconciler (Temporal unavailable): ${(err as Error).message}`);
    summary.failed = events.length;
    return summary;
  }
  let remaining: readonly EventRef[] = events;
  try {
    const quick = await dispatchWithoutEndpoints(target, events.map((e) => e.id));
    summary.dispatched += quick.marked;
    remaining = events.filter((e) => !quick.settled.has(e.id));
  } catch (err) {
    target.log?.(`event dispatch: batch check failed, dispatching one by one: ${(err as Error).message}`);
  }
  for (const event of remaining) {
    try {
      const r = await dispatchEvent(target, event.id);
      summary.dispatched += r.dispatched ? 1 : 0;
      summary.workflowsStarted += r.workflowsStarted;
    } catch (err) {
      summary.failed += 1;
      target.log?.(`event ${event.id} dispatch deferred to the reconciler: ${(err as Error).message}`);
    }
  }
  return summary;
}

/**
 * After commit, from an activity (right after its transaction): uses the worker's client and
 * task queue. Never throws, so the activity does not repeat its committed work.
 */
export async function dispatchEventsFromActivity(db: Db, events: readonly EventRef[], log?: (line: string) => void): Promise<DispatchSummary> {
  const ctx = Context.current();
  return dispatchEvents({ db, client: ctx.client, taskQueue: ctx.info.taskQueue, log: log ?? ((l) => ctx.log.warn(l)) }, events);
}

/**
 * The common case in one pass: events whose merchant and mode have no live endpoint (enabled, not
 * deleted) and no delivery waiting to start are marked dispatched together (4 statements for any
 * number of events, instead of 4 per event). This is exactly what dispatchEvent would do for each
 * of them (no endpoint matches, nothing to start); every other event is left to dispatchEvent.
 * Returns the ids it settled (marked now, or found already marked) and how many it marked.
 */
async function dispatchWithoutEndpoints(target: DispatchTarget, ids: readonly string[]): Promise<{ settled: Set<string>; marked: number }> {
  const { db } = target;
  const done = new Set<string>();
  const rows = await db.event.findMany({ where: { id: { in: [...ids] } }, select: { id: true, merchantId: true, mode: true, dispatchedAt: true } });
  for (const r of rows) if (r.dispatchedAt) done.add(r.id);
  const open = rows.filter((r) => !r.dispatchedAt);
  if (open.length === 0) return { settled: done, marked: 0 };
  const tenants = [...new Map(open.map((r) => [`${r.merchantId}:${r.mode}`, { merchantId: r.merchantId, mode: r.mode }])).values()];
  const withEndpoints = await db.webhookEndpoint.findMany({
    where: { OR: tenants.map((t) => ({ merchantId: t.merchantId, mode: t.mode })), status: 'enabled', deletedAt: null },
    select: { merchantId: true, mode: true },
    distinct: ['merchantId', 'mode'],
  });
  const busy = new Set(withEndpoints.map((e) => `${e.merchantId}:${e.mode}`));
  const candidates = open.filter((r) => !busy.has(`${r.merchantId}:${r.mode}`)).map((r) => r.id);
  if (candidates.length === 0) return { settled: done, marked: 0 };
  // Deliveries a crashed dispatch created (for an endpoint since disabled or deleted) still get
  // their workflow started by dispatchEvent: leave those events to it.
  const waiting = await db.webhookDelivery.findMany({ where: { eventId: { in: candidates }, status: 'pending', attemptCount: 0 }, select: { eventId: true } });
  const waitingIds = new Set(waiting.map((w) => w.eventId));
  const quiet = candidates.filter((id) => !waitingIds.has(id));
  const marked = quiet.length > 0 ? (await db.event.updateMany({ where: { id: { in: quiet }, dispatchedAt: null }, data: { dispatchedAt: new Date() } })).count : 0;
  for (const id of quiet) done.add(id);
  return { settled: done, marked };
}

/** Dispatches one event; idempotent. Throws when the database or Temporal fails. */
export async function dispatchEvent(target: DispatchTarget, eventId: string): Promise<{ dispatched: boolean; workflowsStarted: number }> {
  const { db } = target;
  const event = await db.event.findUnique({ where: { id: eventId }, select: { id: true, merchantId: true, mode: true, type: true, createdAt: true, dispatchedAt: true } });
  if (!event) throw new Error(`event ${eventId} not found (not committed?)`);
  if (event.dispatchedAt) return { dispatched: false, workflowsStarted: 0 };

  const endpoints = await db.webhookEndpoint.findMany({
    where: {
      merchantId: event.merchantId,
      mode: event.mode,
      status: 'enabled',
      deletedAt: null,
      createdAt: { lte: event.createdAt },
      OR: [{ events: { has: event.type } }, { events: { has: ALL_EVENTS } }],
    },
    select: { id: true },
  });
  if (endpoints.length > 0) {
    await db.webhookDelivery.createMany({
      data: endpoints.map((ep) => ({
        id: newId('webhookDelivery'),
        merchantId: event.merchantId,
        mode: event.mode,
        eventId: event.id,
        endpointId: ep.id,
        eventType: event.type,
      })),
      skipDuplicates: true,
    });
  }
  // Every delivery of the event that has not started yet (also ones a crashed dispatch created).
  const pending = await db.webhookDelivery.findMany({
    where: { eventId: event.id, status: 'pending', attemptCount: 0 },
    select: { id: true, endpointId: true },
  });
  let workflowsStarted = 0;
  for (const d of pending) {
    if (await startDeliveryWorkflow(target, { deliveryId: d.id, eventId: event.id, endpointId: d.endpointId, merchantId: event.merchantId, mode: event.mode })) {
      workflowsStarted += 1;
    }
  }
  await db.event.updateMany({ where: { id: event.id, dispatchedAt: null }, data: { dispatchedAt: new Date() } });
  return { dispatched: true, workflowsStarted };
}

/** Starts `delivery/<evt>/<we>`; false when it exists already (running or finished). */
export async function startDeliveryWorkflow(
  target: Pick<DispatchTarget, 'client' | 'taskQueue'>,
  d: { deliveryId: string; eventId: string; endpointId: string; merchantId: string; mode: string },
): Promise<boolean> {
  const args: [WebhookDeliveryInput] = [{ deliveryId: d.deliveryId }];
  try {
    await target.client.workflow.start(WEBHOOK_DELIVERY_WORKFLOW, {
      taskQueue: target.taskQueue,
      workflowId: workflowIds.delivery(d.eventId, d.endpointId),
      args,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      typedSearchAttributes: [
        { key: SA_MERCHANT, value: d.merchantId },
        { key: SA_MODE, value: d.mode },
      ],
    });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/**
 * Manual retry: if the delivery's workflow is running (waiting for its next attempt), signal it
 * to attempt now; if it has finished, start a new run under the same id that makes one attempt
 * now (signal-with-start does both atomically on the Temporal side, so two concurrent requests
 * never make two runs). Throws when Temporal is unreachable, so the caller can report it.
 */
export async function signalDeliveryRetry(
  target: Pick<DispatchTarget, 'client' | 'taskQueue'>,
  d: { deliveryId: string; eventId: string; endpointId: string; merchantId: string; mode: string },
): Promise<void> {
  const args: [WebhookDeliveryInput] = [{ deliveryId: d.deliveryId, manual: true }];
  await target.client.workflow.signalWithStart(WEBHOOK_DELIVERY_WORKFLOW, {
    taskQueue: target.taskQueue,
    workflowId: workflowIds.delivery(d.eventId, d.endpointId),
    args,
    signal: RETRY_DELIVERY_NOW_SIGNAL,
    signalArgs: [],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: [
      { key: SA_MERCHANT, value: d.merchantId },
      { key: SA_MODE, value: d.mode },
    ],
  });
}
