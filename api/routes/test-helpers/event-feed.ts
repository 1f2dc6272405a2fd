// GET /v1/test_helpers/event_feed: the long poll `billing listen` reads (docs/webhooks.md
// "Receiving events on localhost"). Test keys only; it reads events, it never delivers anything,
// so it is no way around the URL rules of registered endpoints.
import { area, route, secretKey } from '../../route';
import { dbOf } from '../../context';
import { errors } from '../../../src/errors';
import { isEventType } from '../../../src/events/types';
import { decodeFeedCursor, encodeFeedCursor, readEventFeed } from '../../../src/domain/webhooks/read-event-feed';
import { presentEvent } from '../../../src/objects/events';
import { parseQuery } from '../../validate';
import { testModeOnly } from './router';
import { eventFeedQuery } from './schemas';

const DEFAULT_WAIT_SECONDS = 25;

export const eventFeedRoute = area('event-feed', [
  route({
    method: 'get',
    path: '/v1/test_helpers/event_feed',
    operationId: 'listEventFeed',
    tag: 'Webhooks',
    summary: 'Read new events, oldest first (a long poll; what `billing listen` forwards to localhost; test mode only)',
    description:
      'Answers the events recorded after `cursor` (without it: from now on), oldest first, at most 100, with a `cursor` to pass next time. When there is none yet it waits up to `wait` seconds (default 25) for one. An event appears about 2 s after it was recorded. Test keys only.',
    query: eventFeedQuery,
    response: {
      type: 'object',
      additionalProperties: false,
      required: ['data', 'has_more', 'cursor'],
      properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Event' } }, has_more: { type: 'boolean' }, cursor: { type: 'string' } },
    },
    errors: ['test_mode_only'],
    ...secretKey(testModeOnly),
    handler: () => async (ctx) => {
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
    },
  }),
]);
