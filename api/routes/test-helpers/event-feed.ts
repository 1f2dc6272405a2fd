// GET /v1/test_helpers/event_feed: the long poll `billing listen` reads (docs/webhooks.md
// "Receiving events on localhost"). Test keys only; it reads events, it never delivers anything,
// so it is no way around the URL rules of registered endpoints.
import type Router from '@koa/router';
import type { AppDeps, AppState } from '../../context';
import { dbOf } from '../../context';
import type { Auth } from '../../middleware/auth';
import { errors } from '../../../src/errors';
import { isEventType } from '../../../src/events/types';
import { decodeFeedCursor, encodeFeedCursor, readEventFeed } from '../../../src/domain/webhooks/read-event-feed';
import { presentEvent } from '../../../src/objects/events';
import { parseQuery } from '../../validate';
import { testModeOnly } from './router';
import { eventFeedQuery } from './schemas';

const DEFAULT_WAIT_SECONDS = 25;

export function eventFeedRoute(router: Router<AppState>, _deps: AppDeps, auth: Auth): void {
  router.get('/v1/test_helpers/event_feed', auth(), testModeOnly, async (ctx) => {
    const q = parseQuery(eventFeedQuery, ctx.query);
    const types = q.types ? q.types.split(',').map((t) => t.trim()) : null;
    const unknown = types?.find((t) => !isEventType(t));
    if (unknown !== undefined) throw errors.validationFailed(`Unknown event type '${unknown}' (see docs/events.md)`, 'types');
    let gone = false;
    ctx.req.on('close', () => (gone = true));
    const page = await readEventFeed(dbOf(ctx), {
      after: q.cursor ? decodeFeedCursor(q.cursor) : null,
      types,
      waitMs: (q.wait ?? DEFAULT_WAIT_SECONDS) * 1000,
      aborted: () => gone,
    });
    ctx.body = { data: page.events.map(presentEvent), has_more: page.hasMore, cursor: encodeFeedCursor(page.cursor) };
  });
}
