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
import type { Client } from '@temporalio/client';
import type { Db } from '../db/client';
import { Prisma } from '../generated/prisma/client';
import type { TemporalProvider } from '../temporal/client';
import { deliveryWorkflowClient } from '../temporal/delivery-workflow';
import { newId } from '../ids';
import { endpointReceives } from './types';

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
  /** Written already dispatched (src/events/record-event.ts eventsInsertCte): skipped. */
  dispatched?: boolean;
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
export async function dispatchEvents(deps: ApiDispatchDeps | DispatchTarget, all: readonly EventRef[]): Promise<DispatchSummary> {
  const summary: DispatchSummary = { dispatched: 0, workflowsStarted: 0, failed: 0 };
  const events = all.filter((e) => e.dispatched !== true);
  summary.dispatched = all.length - events.length;
  if (events.length === 0) return summary;
  let target: DispatchTarget;
  try {
    target = 'client' in deps ? deps : { db: deps.db, client: await deps.temporal.client(), taskQueue: deps.temporal.taskQueue, log: deps.log };
  } catch (err) {
    deps.log?.(`event dispatch deferred to the reconciler (Temporal unavailable): ${(err as Error).message}`);
    summary.failed = events.length;
    return summary;
  }
  try {
    const r = await dispatchBatch(
      target,
      events.map((e) => e.id),
    );
    summary.dispatched += r.dispatched;
    summary.workflowsStarted = r.workflowsStarted;
    summary.failed = r.failed.length;
    for (const f of r.failed) target.log?.(`event ${f.id} dispatch deferred to the reconciler: ${f.error.message}`);
  } catch (err) {
    // The database failed: nothing of this batch was marked, the reconciler takes all of it.
    summary.failed = events.length;
    target.log?.(`dispatch of ${events.length} event(s) deferred to the reconciler: ${(err as Error).message}`);
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

/** Dispatches one event; idempotent. Throws when the database or Temporal fails. */
export async function dispatchEvent(target: DispatchTarget, eventId: string): Promise<{ dispatched: boolean; workflowsStarted: number }> {
  const r = await dispatchBatch(target, [eventId]);
  if (r.failed[0]) throw r.failed[0].error;
  return { dispatched: r.dispatched > 0, workflowsStarted: r.workflowsStarted };
}

/**
 * Dispatches events together. Events nobody can receive are marked in one statement; the
 * others take one read of the events, one of the endpoints of their merchants and modes, one
 * insert of the deliveries, one read of the deliveries not started yet, one update of
 * dispatched_at — whatever the number of events — plus one workflow start per delivery.
 * Idempotent. An event is marked only when every one of its deliveries has its workflow; one
 * whose start failed (or that is not found) is returned in `failed` and left to the reconciler.
 * Throws when the database fails (nothing marked).
 */
async function dispatchBatch(
  target: DispatchTarget,
  allIds: readonly string[],
): Promise<{ dispatched: number; workflowsStarted: number; failed: Array<{ id: string; error: Error }> }> {
  const { db } = target;
  // Where nobody listens (the common case: a merchant without enabled endpoints, and no delivery
  // row a crashed dispatch left behind), one statement marks the events dispatched; whatever it
  // does not mark (not found, already dispatched, or listened to) takes the way below.
  const quiet = await markUnheardDispatched(db, allIds);
  const ids = allIds.filter((id) => !quiet.has(id));
  if (ids.length === 0) return { dispatched: quiet.size, workflowsStarted: 0, failed: [] };
  const rest = await dispatchListened(target, ids);
  return { ...rest, dispatched: rest.dispatched + quiet.size };
}

/** Marks dispatched, in one statement, the events of `ids` that no enabled endpoint of their merchant and mode can receive. */
async function markUnheardDispatched(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    UPDATE webhook_events e SET dispatched_at = ${new Date()}
    WHERE e.id IN (${Prisma.join([...ids])}) AND e.dispatched_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM webhook_endpoints w
                      WHERE w.merchant_id = e.merchant_id AND w.mode = e.mode AND w.status = 'enabled' AND w.deleted_at IS NULL)
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
    RETURNING e.id`;
  return new Set(rows.map((r) => r.id));
}

async function dispatchListened(
  target: DispatchTarget,
  ids: readonly string[],
): Promise<{ dispatched: number; workflowsStarted: number; failed: Array<{ id: string; error: Error }> }> {
  const { db } = target;
  const rows = await db.event.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, merchantId: true, mode: true, type: true, recordedAt: true, dispatchedAt: true },
  });
  const found = new Set(rows.map((r) => r.id));
  const failed = ids.filter((id) => !found.has(id)).map((id) => ({ id, error: new Error(`event ${id} not found (not committed?)`) }));
  const open = rows.filter((r) => r.dispatchedAt === null);
  if (open.length === 0) return { dispatched: 0, workflowsStarted: 0, failed };

  const tenantKey = (r: { merchantId: string; mode: string }) => `${r.merchantId}:${r.mode}`;
  const tenants = [...new Map(open.map((r) => [tenantKey(r), { merchantId: r.merchantId, mode: r.mode }])).values()];
  const endpoints = await db.webhookEndpoint.findMany({
    where: { OR: tenants, status: 'enabled', deletedAt: null },
    select: { id: true, merchantId: true, mode: true, events: true, createdAt: true },
  });
  // Which endpoints match: the event's merchant and mode, subscribed to its type (or "*"), and
  // created no later than the event was recorded (its created_at may be a test clock's time).
  const deliveries = open.flatMap((event) =>
    endpoints
      .filter((ep) => tenantKey(ep) === tenantKey(event) && ep.createdAt <= event.recordedAt && endpointReceives(ep.events, event.type))
      .map((ep) => ({ id: newId('webhookDelivery'), merchantId: event.merchantId, mode: event.mode, eventId: event.id, endpointId: ep.id, eventType: event.type })),
  );
  if (deliveries.length > 0) await db.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });

  // Every delivery not started yet (also ones a crashed dispatch created).
  const pending = await db.webhookDelivery.findMany({
    where: { eventId: { in: open.map((e) => e.id) }, status: 'pending', attemptCount: 0 },
    select: { id: true, endpointId: true, eventId: true },
  });
  const byId = new Map(open.map((e) => [e.id, e]));
  const unstarted = new Map<string, Error>();
  let workflowsStarted = 0;
  const deliveryWorkflows = deliveryWorkflowClient({ client: async () => target.client, taskQueue: target.taskQueue });
  for (const d of pending) {
    const event = byId.get(d.eventId)!;
    if (unstarted.has(event.id)) continue;
    try {
      if (await deliveryWorkflows.start({ deliveryId: d.id, eventId: event.id, endpointId: d.endpointId, merchantId: event.merchantId, mode: event.mode })) {
        workflowsStarted += 1;
      }
    } catch (err) {
      unstarted.set(event.id, err as Error);
    }
  }
  const done = open.filter((e) => !unstarted.has(e.id)).map((e) => e.id);
  const dispatched = done.length > 0 ? (await db.event.updateMany({ where: { id: { in: done }, dispatchedAt: null }, data: { dispatchedAt: new Date() } })).count : 0;
  for (const [id, error] of unstarted) failed.push({ id, error });
  return { dispatched, workflowsStarted, failed };
}
