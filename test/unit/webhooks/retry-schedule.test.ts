import assert from 'node:assert/strict';
import { JITTER_FRACTION, MAX_ATTEMPTS, RETRY_DELAYS_MS, RETRY_WINDOW_MS, nextRetryDelayMs } from '../../../src/webhooks/retry-schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('webhooks/retry-schedule', () => {
  it('waits 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, 48 h, 72 h, then gives up', () => {
    const delays: Array<number | null> = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) delays.push(nextRetryDelayMs(attempt));
    assert.deepEqual(delays, [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 24 * HOUR, 48 * HOUR, 72 * HOUR, null]);
    assert.equal(MAX_ATTEMPTS, 10);
    assert.equal(nextRetryDelayMs(MAX_ATTEMPTS + 5), null);
  });

  it('grows monotonically and spans between six and seven days', () => {
    for (let i = 1; i < RETRY_DELAYS_MS.length; i += 1) assert.ok(RETRY_DELAYS_MS[i] > RETRY_DELAYS_MS[i - 1]);
    assert.equal(RETRY_WINDOW_MS, 6 * DAY + 17 * HOUR + 36 * MINUTE);
    assert.ok(RETRY_WINDOW_MS >= 6 * DAY && RETRY_WINDOW_MS <= 7 * DAY);
  });

  it('refuses attempt numbers that are not positive integers', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => nextRetryDelayMs(bad), RangeError);
  });

  it('derives jitter deterministically from the seed, within ±10 %', () => {
    const seeds = Array.from({ length: 200 }, (_, i) => `del_${i.toString(36).padStart(6, '0')}`);
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt += 1) {
      const base = RETRY_DELAYS_MS[attempt - 1];
      const values = seeds.map((seed) => nextRetryDelayMs(attempt, seed));
      for (const [i, value] of values.entries()) {
        assert.ok(value !== null);
        assert.ok(Number.isInteger(value));
        assert.ok(Math.abs(value - base) <= base * JITTER_FRACTION + 1, `${seeds[i]} attempt ${attempt}: ${value}`);
        assert.equal(nextRetryDelayMs(attempt, seeds[i]), value, 'same seed, same delay');
      }
      // The jitter actually spreads: many distinct values, both earlier and later than base.
      assert.ok(new Set(values).size > 150);
      assert.ok(values.some((v) => v !== null && v < base) && values.some((v) => v !== null && v > base));
    }
    assert.equal(nextRetryDelayMs(MAX_ATTEMPTS, 'del_x'), null);
  });
});
