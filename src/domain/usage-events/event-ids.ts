// Usage event ids in bulk: the same format as src/ids.ts newId('usageEvent') (`ue_` + 10 base62
// characters of creation time + 14 random base62 characters), with one randomBytes call per
// batch instead of one per event: ids are made a thousand at a time on the ingestion path.
import { randomBytes } from 'node:crypto';
import { newId } from '../../ids';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const EVENT_ID_RANDOM_CHARS = 14;

/** `prefix` (`ue_` + time part) and `count` × 14 random characters; id i is prefix + random.substr(14 i, 14). */
export function newUsageEventIdParts(count: number, nowMs: number = Date.now()): { prefix: string; random: string } {
  const prefix = newId('usageEvent', nowMs).slice(0, -EVENT_ID_RANDOM_CHARS);
  const bytes = randomBytes(count * EVENT_ID_RANDOM_CHARS);
  let random = '';
  // Same (negligible) modulo bias as newId: identifiers, not secrets.
  for (let i = 0; i < bytes.length; i++) random += ALPHABET[bytes[i]! % 62];
  return { prefix, random };
}
