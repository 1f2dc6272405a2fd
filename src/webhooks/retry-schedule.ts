// Retry schedule for webhook deliveries (docs/webhooks.md: days, not minutes).
//
// Pure and deterministic: no clock, no Math.random, no Node built-ins, so a delivery
// workflow can import this file directly (import it from here, not from ./index, which
// also re-exports the Node-only sender).
//
//  attempt | wait before it | sent at (after the first attempt)
//  --------+----------------+----------------------------------
//     1    |       -        |  0
//     2    |     1 min      |  1 min
//     3    |     5 min      |  6 min
//     4    |    30 min      | 36 min
//     5    |     2 h        |  2 h 36 min
//     6    |     5 h        |  7 h 36 min
//     7    |    10 h        | 17 h 36 min
//     8    |    24 h        |  1 d 17 h 36 min
//     9    |    48 h        |  3 d 17 h 36 min
//    10    |    72 h        |  6 d 17 h 36 min   (last attempt; then the delivery is given up)
//
// Why this shape: the first three retries (within ~36 min) absorb blips, deploys and
// rate limits at the receiver; the hour-scale steps cover an outage that needs a person;
// the day-scale tail (~6.7 days in total) outlasts a receiver that breaks on a Friday
// evening and is fixed after a long weekend, while keeping the load from a dead endpoint
// at a handful of requests per day. Anything later than a week is better served by the
// manual retry (POST /v1/webhook_deliveries/{id}/retry) and the delivery history.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** RETRY_DELAYS_MS[i] is the wait after failed attempt i + 1 before attempt i + 2. */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  1 * MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  24 * HOUR_MS,
  48 * HOUR_MS,
  72 * HOUR_MS,
]);

/** Total number of automatic attempts, the first one included. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Time from the first attempt to the last one, without jitter: 6 d 17 h 36 min. */
export const RETRY_WINDOW_MS = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);

/** Jitter spreads retries of many deliveries that failed together by up to ±10 %. */
export const JITTER_FRACTION = 0.1;

/**
 * Delay before the next attempt after attempt number `attemptNumber` (1-based) failed,
 * or null when that was the last automatic attempt.
 *
 * With a `jitterSeed` (for example the delivery id) the delay is moved by up to ±10 %,
 * derived from a hash of seed and attempt number: the same inputs always give the same
 * delay, which keeps workflow replay deterministic.
 */
export function nextRetryDelayMs(attemptNumber: number, jitterSeed?: string): number | null {
  if (!Number.isSafeInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be a positive integer, got ${attemptNumber}`);
  }
  if (attemptNumber >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attemptNumber - 1];
  if (jitterSeed === undefined) return base;
  // Map the hash to [-1, 1] and scale; rounding keeps whole milliseconds.
  const unit = (hashSeed(`${jitterSeed}:${attemptNumber}`) / 0xffffffff) * 2 - 1;
  return Math.round(base * (1 + unit * JITTER_FRACTION));
}

/**
 * FNV-1a (32 bit) over the UTF-16 code units of `text`, followed by MurmurHash3's fmix32
 * finaliser so that seeds differing only in their last character still spread evenly.
 */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
