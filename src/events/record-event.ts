// The outbox: an event row written in the SAME transaction as the state change that causes it,
// so an event exists if and only if the change committed. Dispatch to webhook endpoints happens
// after commit (./dispatch.ts); the reconciler dispatches whatever a crash left behind.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Prisma } from '../generated/prisma/client';
import type { Tenant, TenantDb } from '../db/tenancy';
import type { Mode } from '../generated/prisma/client';
import { newId } from '../ids';
import { isEventType, type EventType } from './types';

export interface RecordEventInput {
  type: EventType;
  /** The full resource exactly as the API presents it (the presenter's output). */
  data: Record<string, unknown>;
}

/** What dispatchEvents needs; returned by recordEvent. */
export interface RecordedEvent {
  id: string;
  type: EventType;
  merchantId: string;
  mode: Mode;
  createdAt: Date;
  /** Marked dispatched when it was written (no endpoint of its merchant and mode could receive it): nothing to dispatch after commit. */
  dispatched?: boolean;
}

let lastCreatedAtMs = 0;
/**
 * created_at for a new event: the wall clock, but strictly after the previous event this process
 * recorded, so events of one change (payment.succeeded then invoice.paid, in one transaction)
 * list and deliver in the order they happened instead of tying on the millisecond (ties would be
 * broken by the random part of the id). Runs ahead of the wall clock only while a process
 * records more than one event per millisecond, by at most that burst.
 */
function nextCreatedAt(): Date {
  const now = Date.now();
  lastCreatedAtMs = now > lastCreatedAtMs ? now : lastCreatedAtMs + 1;
  return new Date(lastCreatedAtMs);
}

const eventTime = new AsyncLocalStorage<Date>();

/**
 * Runs `fn` with every event it records dated `at`: the subscription's time of a billing step or
 * command (its test clock's time on a clock; docs/test-clocks.md "Timestamps"). Outside such a
 * run events are dated when they are recorded.
 */
export function datingEventsAt<T>(at: Date, fn: () => Promise<T>): Promise<T> {
  return eventTime.run(at, fn);
}

/**
 * Records one event. `db` must be the transaction that makes the change (in a route:
 * `dbOf(ctx)` inside `transactional`; in an activity: the scoped `tx` of its transaction).
 */
export async function recordEvent(db: TenantDb, tenant: Tenant, input: RecordEventInput): Promise<RecordedEvent> {
  if (!isEventType(input.type)) throw new TypeError(`unknown event type ${String(input.type)}: add it to src/events/types.ts`);
  if (input.data === null || typeof input.data !== 'object' || Array.isArray(input.data)) {
    throw new TypeError('event data must be the resource object');
  }
  // Through JSON once: what is stored is exactly what receivers will get (Dates become ISO strings).
  // One raw INSERT (events are written on every billing step's hot path); tenant stamped explicitly.
  // Ids carry the recording order (strictly increasing per process): events of one instant of a
  // test clock list in the order they were recorded. created_at is when the change happened (the
  // step's time, its clock's on a test clock), recorded_at when the row was written.
  const recordedAt = nextCreatedAt();
  const createdAt = eventTime.getStore() ?? recordedAt;
  const id = newId('event', recordedAt.getTime());
  await db.$executeRaw`INSERT INTO webhook_events (id, merchant_id, mode, type, data, created_at, recorded_at)
    VALUES (${id}, ${tenant.merchantId}, ${tenant.mode}::"Mode", ${input.type}, ${JSON.stringify(input.data)}::jsonb, ${createdAt}, ${recordedAt})`;
  return { id, type: input.type, merchantId: tenant.merchantId, mode: tenant.mode, createdAt };
}

/** An event ready to be written with others in one statement (eventsInsertCte). */
export interface PreparedEvent {
  recorded: RecordedEvent;
  values: Prisma.Sql;
}

/** Checks and dates an event like recordEvent, without writing it. */
export function prepareEvent(tenant: Tenant, input: RecordEventInput): PreparedEvent {
  if (!isEventType(input.type)) throw new TypeError(`unknown event type ${String(input.type)}: add it to src/events/types.ts`);
  if (input.data === null || typeof input.data !== 'object' || Array.isArray(input.data)) {
    throw new TypeError('event data must be the resource object');
  }
  const recordedAt = nextCreatedAt();
  const createdAt = eventTime.getStore() ?? recordedAt;
  const id = newId('event', recordedAt.getTime());
  return {
    recorded: { id, type: input.type, merchantId: tenant.merchantId, mode: tenant.mode, createdAt },
    values: Prisma.sql`(${id}, ${input.type}, ${JSON.stringify(input.data)}::jsonb, ${createdAt}::timestamptz, ${recordedAt}::timestamptz)`,
  };
}

/**
 * A data-modifying CTE `name` that writes the events of one tenant in one statement (in the
 * transaction of the change, like recordEvent) and returns `id, dispatched`. An event that no
 * endpoint of its merchant and mode can receive (none enabled) is written already dispatched,
 * as src/events/dispatch.ts would mark it right after commit: the step needs no statement after
 * commit for it. The race is the one dispatch has: an endpoint enabled while the step commits
 * does not receive the step's events (an endpoint never receives events from before it existed).
 * `dataPatch` (a jsonb expression) is merged into every event's data: top-level fields only the
 * statement knows (an invoice's number taken in it).
 */
export function eventsInsertCte(tenant: Tenant, events: readonly PreparedEvent[], name: string, dataPatch?: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(name)} AS (
      INSERT INTO webhook_events (id, merchant_id, mode, type, data, created_at, recorded_at, dispatched_at)
      SELECT v.id, ${tenant.merchantId}, ${tenant.mode}::"Mode", v.type, ${dataPatch ? Prisma.sql`v.data || ${dataPatch}` : Prisma.sql`v.data`}, v.created_at, v.recorded_at,
             CASE WHEN EXISTS (SELECT 1 FROM webhook_endpoints w
                               WHERE w.merchant_id = ${tenant.merchantId} AND w.mode = ${tenant.mode}::"Mode" AND w.status = 'enabled' AND w.deleted_at IS NULL)
                  THEN NULL ELSE v.recorded_at END
        FROM (VALUES ${Prisma.join(events.map((e) => e.values))}) AS v(id, type, data, created_at, recorded_at)
      RETURNING id, dispatched_at IS NOT NULL AS dispatched
    )`;
}

/** The rows the CTE `name` of eventsInsertCte wrote, as one JSON array (null when none) for recordedEvents. */
export function writtenEventsJson(name: string): Prisma.Sql {
  return Prisma.sql`(SELECT json_agg(json_build_object('id', id, 'dispatched', dispatched)) FROM ${Prisma.raw(name)})`;
}

/** The recorded events, marked as the statement of eventsInsertCte wrote them. */
export function recordedEvents(events: readonly PreparedEvent[], written: ReadonlyArray<{ id: string; dispatched: boolean }>): RecordedEvent[] {
  const dispatched = new Map(written.map((w) => [w.id, w.dispatched]));
  return events.map((e) => ({ ...e.recorded, dispatched: dispatched.get(e.recorded.id) ?? false }));
}
