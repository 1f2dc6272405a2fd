import type { TestClock } from '../generated/prisma/client';
import { iso } from './iso';

export function presentTestClock(c: TestClock) {
  return {
    id: c.id,
    object: 'test_clock',
    name: c.name,
    frozen_time: iso(c.frozenTime),
    status: c.status,
    created_at: iso(c.createdAt),
  };
}

export function presentDeletedTestClock(c: TestClock) {
  return { id: c.id, object: 'test_clock', deleted: true };
}
