// The event feed behind `billing listen` (GET /v1/test_helpers/event_feed, docs/webhooks.md
// "Receiving events on localhost"): the tenant's events oldest first after a cursor, by the time
// they were recorded. A long poll: when nothing is there yet it looks again every
// FEED_POLL_INTERVAL_MS until `waitMs` has passed (never holding a connection while it waits).
//
// An event becomes visible FEED_SETTLE_MS after it was recorded. `recorded_at` is the time its
// transaction began (PostgreSQL's now()), so a transaction that commits later than that would
// otherwise land behind a cursor that has already moved on; requests run in far shorter
// transactions than this window.
import type { TenantDb } from '../../db/tenancy';
import type { Event } from '../../generated/prisma/client';
import { errors } from '../../errors';

export const FEED_SETTLE_MS = 2000;
export const FEED_POLL_INTERVAL_MS = 500;
export const MAX_FEED_WAIT_SECONDS = 30;
export const MAX_FEED_EVENTS = 100;

export interface FeedCursor {
  recordedAt: Date;
  id: string;
}

export interface FeedInput {
  after: FeedCursor | null;
  /** Only these types (null: every type). */
  types: readonly string[] | null;
  waitMs: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** Set when the caller went away: stop waiting. */
  aborted?: () => boolean;
}

export interface FeedPage {
  events: Event[];
  hasMore: boolean;
  cursor: FeedCursor;
}

export function encodeFeedCursor(c: FeedCursor): string {
  return Buffer.from(JSON.stringify([c.recordedAt.toISOString(), c.id]), 'utf8').toString('base64url');
}

export function decodeFeedCursor(raw: string): FeedCursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    const recordedAt = new Date(String(at));
    if (typeof id !== 'string' || id.length > 100 || typeof at !== 'string' || Number.isNaN(recordedAt.getTime())) throw new Error('bad cursor');
    return { recordedAt, id };
  } catch {
    throw errors.validationFailed('cursor must be a cursor returned by this endpoint', 'cursor');
  }
}

async function readOnce(db: TenantDb, after: FeedCursor, types: readonly string[] | null, horizon: Date): Promise<FeedPage> {
  const rows = await db.event.findMany({
    where: {
      ...(types ? { type: { in: [...types] } } : {}),
      recordedAt: { lte: horizon },
      OR: [{ recordedAt: { gt: after.recordedAt } }, { recordedAt: after.recordedAt, id: { gt: after.id } }],
    },
    orderBy: [{ recordedAt: 'asc' }, { id: 'asc' }],
    take: MAX_FEED_EVENTS + 1,
  });
  const events = rows.slice(0, MAX_FEED_EVENTS);
  const last = events.at(-1);
  return { events, hasMore: rows.length > MAX_FEED_EVENTS, cursor: last ? { recordedAt: last.recordedAt, id: last.id } : after };
}

export async function readEventFeed(db: TenantDb, input: FeedInput): Promise<FeedPage> {
  const now = input.now ?? (() => new Date());
  const sleep = input.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  const started = now().getTime();
  // Without a cursor the feed starts now: only events recorded from here on.
  const after = input.after ?? { recordedAt: new Date(started - FEED_SETTLE_MS), id: '' };
  for (;;) {
    const page = await readOnce(db, after, input.types, new Date(now().getTime() - FEED_SETTLE_MS));
    if (page.events.length > 0 || now().getTime() - started >= input.waitMs || input.aborted?.() === true) return page;
    await sleep(FEED_POLL_INTERVAL_MS);
  }
}
