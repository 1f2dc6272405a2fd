import type { Event } from '../generated/prisma/client';
import { iso } from './iso';

/** The same `{ id, type, created_at, data }` a webhook delivery carries, plus `object`. */
export function presentEvent(e: Event) {
  return { id: e.id, object: 'event', type: e.type, created_at: iso(e.createdAt), data: e.data };
}
