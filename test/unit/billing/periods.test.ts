import assert from 'node:assert/strict';
import { BillingInterval, MAX_INTERVAL_COUNT, MAX_INTERVAL_SPAN_YEARS, nextPeriod, periodAt, periodBoundary, periodContaining, validateIntervalCount } from '../../../src/billing';

const utc = (iso: string): Date => new Date(iso);

interface BoundaryCase {
  readonly anchor: string;
  readonly interval: BillingInterval;
  readonly count: number;
  /** n → expected boundary (ISO, UTC) */
  readonly expected: ReadonlyArray<readonly [number, string]>;
}

describe('billing/periods', () => {
  describe('periodBoundary', () => {
    const cases: Array<{ name: string } & BoundaryCase> = [
      {
        name: 'monthly from Jan 31 (2025, common year): a whole year of month-end clamping',
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        expected: [
          [0, '2025-01-31T00:00:00.000Z'],
          [1, '2025-02-28T00:00:00.000Z'],
          [2, '2025-03-31T00:00:00.000Z'], // from the anchor, not Feb 28 + 1 month (= Mar 28)
          [3, '2025-04-30T00:00:00.000Z'],
          [4, '2025-05-31T00:00:00.000Z'],
          [5, '2025-06-30T00:00:00.000Z'],
          [6, '2025-07-31T00:00:00.000Z'],
          [7, '2025-08-31T00:00:00.000Z'],
          [8, '2025-09-30T00:00:00.000Z'],
          [9, '2025-10-31T00:00:00.000Z'],
          [10, '2025-11-30T00:00:00.000Z'],
          [11, '2025-12-31T00:00:00.000Z'],
          [12, '2026-01-31T00:00:00.000Z'],
          [13, '2026-02-28T00:00:00.000Z'],
        ],
      },
      {
        name: 'monthly from Jan 31 (2024, leap year): Feb 29',
        anchor: '2024-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        expected: [
          [1, '2024-02-29T00:00:00.000Z'],
          [2, '2024-03-31T00:00:00.000Z'],
          [3, '2024-04-30T00:00:00.000Z'],
          [13, '2025-02-28T00:00:00.000Z'],
          [14, '2025-03-31T00:00:00.000Z'],
        ],
      },
      {
        name: 'monthly from Jan 30: clamped only in February',
        anchor: '2025-01-30T00:00:00.000Z',
        interval: 'month',
        count: 1,
        expected: [
          [1, '2025-02-28T00:00:00.000Z'],
          [2, '2025-03-30T00:00:00.000Z'],
          [3, '2025-04-30T00:00:00.000Z'],
        ],
      },
      {
        name: 'yearly from Feb 29 2024: Feb 28 in common years, Feb 29 in leap years',
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'year',
        count: 1,
        expected: [
          [1, '2025-02-28T00:00:00.000Z'],
          [2, '2026-02-28T00:00:00.000Z'],
          [3, '2027-02-28T00:00:00.000Z'],
          [4, '2028-02-29T00:00:00.000Z'],
          [8, '2032-02-29T00:00:00.000Z'],
        ],
      },
      {
        name: 'yearly from Feb 29 2024, count 3',
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'year',
        count: 3,
        expected: [
          [1, '2027-02-28T00:00:00.000Z'],
          [2, '2030-02-28T00:00:00.000Z'],
          [3, '2033-02-28T00:00:00.000Z'],
          [4, '2036-02-29T00:00:00.000Z'], // 2036 is a leap year
        ],
      },
      {
        name: 'yearly from Mar 15, count 1 and 12 periods later',
        anchor: '2025-03-15T00:00:00.000Z',
        interval: 'year',
        count: 1,
        expected: [
          [1, '2026-03-15T00:00:00.000Z'],
          [12, '2037-03-15T00:00:00.000Z'],
        ],
      },
      {
        name: 'monthly from Feb 29 2024: the 29th, clamped in common-year Februaries',
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'month',
        count: 1,
        expected: [
          [1, '2024-03-29T00:00:00.000Z'],
          [11, '2025-01-29T00:00:00.000Z'],
          [12, '2025-02-28T00:00:00.000Z'],
          [13, '2025-03-29T00:00:00.000Z'],
          [48, '2028-02-29T00:00:00.000Z'],
        ],
      },
      {
        name: 'every 3 months from Jan 31',
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 3,
        expected: [
          [1, '2025-04-30T00:00:00.000Z'],
          [2, '2025-07-31T00:00:00.000Z'],
          [3, '2025-10-31T00:00:00.000Z'],
          [4, '2026-01-31T00:00:00.000Z'],
        ],
      },
      {
        name: 'every 12 months from Feb 29 2024 equals yearly',
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'month',
        count: 12,
        expected: [
          [1, '2025-02-28T00:00:00.000Z'],
          [4, '2028-02-29T00:00:00.000Z'],
        ],
      },
      {
        name: 'every 36 months (the maximum) from Aug 31',
        anchor: '2025-08-31T00:00:00.000Z',
        interval: 'month',
        count: 36,
        expected: [[1, '2028-08-31T00:00:00.000Z']],
      },
      {
        name: 'weekly from Fri Jan 31 10:00',
        anchor: '2025-01-31T10:00:00.000Z',
        interval: 'week',
        count: 1,
        expected: [
          [1, '2025-02-07T10:00:00.000Z'],
          [4, '2025-02-28T10:00:00.000Z'],
          [5, '2025-03-07T10:00:00.000Z'],
        ],
      },
      {
        name: 'every 3 weeks (21 days)',
        anchor: '2025-01-31T10:00:00.000Z',
        interval: 'week',
        count: 3,
        expected: [
          [1, '2025-02-21T10:00:00.000Z'],
          [2, '2025-03-14T10:00:00.000Z'], // Feb 21 + 21 days: Feb 28 is +7, Mar 14 is +21
        ],
      },
      {
        name: 'every 12 weeks (84 days)',
        anchor: '2025-01-31T10:00:00.000Z',
        interval: 'week',
        count: 12,
        // Jan 31 + 84 days: Feb 28 = +28, Mar 31 = +59, Apr 25 = +84
        expected: [[1, '2025-04-25T10:00:00.000Z']],
      },
      {
        name: 'daily across Feb 29 2024',
        anchor: '2024-02-28T23:59:59.000Z',
        interval: 'day',
        count: 1,
        expected: [
          [1, '2024-02-29T23:59:59.000Z'],
          [2, '2024-03-01T23:59:59.000Z'],
        ],
      },
      {
        name: 'every 3 days across the new year',
        anchor: '2025-12-30T06:00:00.000Z',
        interval: 'day',
        count: 3,
        expected: [
          [1, '2026-01-02T06:00:00.000Z'],
          [2, '2026-01-05T06:00:00.000Z'],
        ],
      },
      {
        name: 'every 12 days across the end of February',
        anchor: '2025-02-20T00:00:00.000Z',
        interval: 'day',
        count: 12,
        expected: [[1, '2025-03-04T00:00:00.000Z']], // Feb 20 + 8 = Feb 28, + 4 = Mar 4
      },
      {
        name: 'time of day kept: monthly from Jan 31 23:59:59.999',
        anchor: '2025-01-31T23:59:59.999Z',
        interval: 'month',
        count: 1,
        expected: [
          [1, '2025-02-28T23:59:59.999Z'],
          [2, '2025-03-31T23:59:59.999Z'],
          [3, '2025-04-30T23:59:59.999Z'],
        ],
      },
      {
        name: 'time of day kept: yearly from Feb 29 12:34:56.789',
        anchor: '2024-02-29T12:34:56.789Z',
        interval: 'year',
        count: 1,
        expected: [
          [1, '2025-02-28T12:34:56.789Z'],
          [4, '2028-02-29T12:34:56.789Z'],
        ],
      },
      {
        name: 'time of day kept: weekly from 00:00:00.001',
        anchor: '2025-01-01T00:00:00.001Z',
        interval: 'week',
        count: 1,
        expected: [[52, '2025-12-31T00:00:00.001Z']], // 52 × 7 = 364 days after Jan 1 of a common year
      },
    ];
    for (const c of cases) {
      describe(c.name, () => {
        for (const [n, iso] of c.expected) {
          it(`n = ${n} → ${iso}`, () => {
            assert.equal(periodBoundary(utc(c.anchor), c.interval, c.count, n).toISOString(), iso);
          });
        }
      });
    }

    it('accepts epoch milliseconds as the anchor', () => {
      // 2025-01-31T00:00:00Z = 2025-01-01 (1735689600000) + 30 days × 86400000
      assert.equal(periodBoundary(1738281600000, 'month', 1, 1).toISOString(), '2025-02-28T00:00:00.000Z');
    });

    const refusedN: number[] = [-1, 1.5, Number.NaN];
    for (const n of refusedN) {
      it(`refuses n = ${n}`, () => {
        assert.throws(() => periodBoundary(utc('2025-01-31T00:00:00Z'), 'month', 1, n), RangeError);
      });
    }
    it('refuses an invalid Date', () => {
      assert.throws(() => periodBoundary(new Date('not a date'), 'month', 1, 1), RangeError);
    });
  });

  describe('validateIntervalCount', () => {
    it('exports the three-year maximum', () => {
      assert.equal(MAX_INTERVAL_SPAN_YEARS, 3);
      assert.deepEqual({ ...MAX_INTERVAL_COUNT }, { day: 1095, week: 156, month: 36, year: 3 });
    });
    const accepted: Array<[BillingInterval, number]> = [
      ['day', 1],
      ['day', 1095],
      ['week', 156],
      ['month', 36],
      ['year', 3],
    ];
    for (const [interval, count] of accepted) {
      it(`accepts ${interval} × ${count}`, () => {
        assert.doesNotThrow(() => validateIntervalCount(interval, count));
      });
    }
    const refused: Array<[BillingInterval, number]> = [
      ['month', 0],
      ['month', -1],
      ['month', 1.5],
      ['month', Number.NaN],
      ['day', 1096],
      ['week', 157],
      ['month', 37],
      ['year', 4],
      ['fortnight' as BillingInterval, 1],
    ];
    for (const [interval, count] of refused) {
      it(`refuses ${interval} × ${count}`, () => {
        assert.throws(() => validateIntervalCount(interval, count), RangeError);
        assert.throws(() => periodBoundary(utc('2025-01-01T00:00:00Z'), interval, count, 1), RangeError);
      });
    }
  });

  describe('periodContaining (start inclusive, end exclusive)', () => {
    const cases: Array<{
      anchor: string;
      interval: BillingInterval;
      count: number;
      at: string;
      index: number;
      start: string;
      end: string;
    }> = [
      // monthly from Jan 31 2025
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-01-31T00:00:00.000Z',
        index: 0,
        start: '2025-01-31T00:00:00.000Z',
        end: '2025-02-28T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-02-27T23:59:59.999Z',
        index: 0,
        start: '2025-01-31T00:00:00.000Z',
        end: '2025-02-28T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-02-28T00:00:00.000Z',
        index: 1,
        start: '2025-02-28T00:00:00.000Z',
        end: '2025-03-31T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-03-15T00:00:00.000Z',
        index: 1,
        start: '2025-02-28T00:00:00.000Z',
        end: '2025-03-31T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-03-30T23:59:59.999Z',
        index: 1,
        start: '2025-02-28T00:00:00.000Z',
        end: '2025-03-31T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-03-31T00:00:00.000Z',
        index: 2,
        start: '2025-03-31T00:00:00.000Z',
        end: '2025-04-30T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2026-01-30T12:00:00.000Z',
        index: 11,
        start: '2025-12-31T00:00:00.000Z',
        end: '2026-01-31T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2026-01-31T00:00:00.000Z',
        index: 12,
        start: '2026-01-31T00:00:00.000Z',
        end: '2026-02-28T00:00:00.000Z',
      },
      // monthly from Jan 31 15:00: the boundary is at 15:00, not midnight
      {
        anchor: '2025-01-31T15:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-02-28T14:59:59.999Z',
        index: 0,
        start: '2025-01-31T15:00:00.000Z',
        end: '2025-02-28T15:00:00.000Z',
      },
      {
        anchor: '2025-01-31T15:00:00.000Z',
        interval: 'month',
        count: 1,
        at: '2025-02-28T15:00:00.000Z',
        index: 1,
        start: '2025-02-28T15:00:00.000Z',
        end: '2025-03-31T15:00:00.000Z',
      },
      // quarterly from Jan 31
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 3,
        at: '2025-04-29T23:59:59.999Z',
        index: 0,
        start: '2025-01-31T00:00:00.000Z',
        end: '2025-04-30T00:00:00.000Z',
      },
      {
        anchor: '2025-01-31T00:00:00.000Z',
        interval: 'month',
        count: 3,
        at: '2025-04-30T00:00:00.000Z',
        index: 1,
        start: '2025-04-30T00:00:00.000Z',
        end: '2025-07-31T00:00:00.000Z',
      },
      // yearly from Feb 29 2024
      {
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'year',
        count: 1,
        at: '2025-02-27T23:59:59.999Z',
        index: 0,
        start: '2024-02-29T00:00:00.000Z',
        end: '2025-02-28T00:00:00.000Z',
      },
      {
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'year',
        count: 1,
        at: '2025-02-28T00:00:00.000Z',
        index: 1,
        start: '2025-02-28T00:00:00.000Z',
        end: '2026-02-28T00:00:00.000Z',
      },
      {
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'year',
        count: 1,
        at: '2028-02-28T12:00:00.000Z',
        index: 3,
        start: '2027-02-28T00:00:00.000Z',
        end: '2028-02-29T00:00:00.000Z',
      },
      {
        anchor: '2024-02-29T00:00:00.000Z',
        interval: 'year',
        count: 1,
        at: '2028-02-29T00:00:00.000Z',
        index: 4,
        start: '2028-02-29T00:00:00.000Z',
        end: '2029-02-28T00:00:00.000Z',
      },
      // weekly and daily
      {
        anchor: '2025-01-31T10:00:00.000Z',
        interval: 'week',
        count: 1,
        at: '2025-02-07T09:59:59.999Z',
        index: 0,
        start: '2025-01-31T10:00:00.000Z',
        end: '2025-02-07T10:00:00.000Z',
      },
      {
        anchor: '2025-01-31T10:00:00.000Z',
        interval: 'week',
        count: 1,
        at: '2025-02-07T10:00:00.000Z',
        index: 1,
        start: '2025-02-07T10:00:00.000Z',
        end: '2025-02-14T10:00:00.000Z',
      },
      {
        anchor: '2025-01-31T10:00:00.000Z',
        interval: 'week',
        count: 3,
        at: '2025-03-14T10:00:00.000Z',
        index: 2,
        start: '2025-03-14T10:00:00.000Z',
        end: '2025-04-04T10:00:00.000Z',
      },
      {
        anchor: '2025-12-30T06:00:00.000Z',
        interval: 'day',
        count: 3,
        at: '2026-01-02T05:59:59.999Z',
        index: 0,
        start: '2025-12-30T06:00:00.000Z',
        end: '2026-01-02T06:00:00.000Z',
      },
      {
        anchor: '2025-12-30T06:00:00.000Z',
        interval: 'day',
        count: 3,
        at: '2026-01-02T06:00:00.000Z',
        index: 1,
        start: '2026-01-02T06:00:00.000Z',
        end: '2026-01-05T06:00:00.000Z',
      },
      {
        anchor: '2024-02-28T00:00:00.000Z',
        interval: 'day',
        count: 1,
        at: '2024-02-29T13:00:00.000Z',
        index: 1,
        start: '2024-02-29T00:00:00.000Z',
        end: '2024-03-01T00:00:00.000Z',
      },
    ];
    for (const c of cases) {
      it(`${c.interval} × ${c.count} from ${c.anchor}, at ${c.at} → #${c.index} [${c.start}, ${c.end})`, () => {
        const p = periodContaining(utc(c.anchor), c.interval, c.count, utc(c.at));
        assert.deepEqual({ index: p.index, start: p.start.toISOString(), end: p.end.toISOString() }, { index: c.index, start: c.start, end: c.end });
      });
    }
    it('throws when at is before the anchor', () => {
      assert.throws(() => periodContaining(utc('2025-01-31T00:00:00Z'), 'month', 1, utc('2025-01-30T23:59:59.999Z')), RangeError);
    });
  });

  describe('nextPeriod and periodAt', () => {
    const cases: Array<{ at: string; index: number; start: string; end: string }> = [
      // Feb 10 is in #0 [Jan 31, Feb 28), so the next is #1
      { at: '2025-02-10T00:00:00.000Z', index: 1, start: '2025-02-28T00:00:00.000Z', end: '2025-03-31T00:00:00.000Z' },
      { at: '2025-03-30T23:59:59.999Z', index: 2, start: '2025-03-31T00:00:00.000Z', end: '2025-04-30T00:00:00.000Z' },
      // exactly on a boundary: the period containing it starts there, so the next is the one after
      { at: '2025-02-28T00:00:00.000Z', index: 2, start: '2025-03-31T00:00:00.000Z', end: '2025-04-30T00:00:00.000Z' },
      { at: '2025-01-31T00:00:00.000Z', index: 1, start: '2025-02-28T00:00:00.000Z', end: '2025-03-31T00:00:00.000Z' },
    ];
    for (const c of cases) {
      it(`monthly from Jan 31, next after ${c.at} → #${c.index}`, () => {
        const p = nextPeriod(utc('2025-01-31T00:00:00Z'), 'month', 1, utc(c.at));
        assert.deepEqual({ index: p.index, start: p.start.toISOString(), end: p.end.toISOString() }, { index: c.index, start: c.start, end: c.end });
      });
    }
    it('periodAt(…, 1) is [Feb 28, Mar 31) for a Jan 31 anchor', () => {
      const p = periodAt(utc('2025-01-31T00:00:00Z'), 'month', 1, 1);
      assert.deepEqual(
        { index: p.index, start: p.start.toISOString(), end: p.end.toISOString() },
        { index: 1, start: '2025-02-28T00:00:00.000Z', end: '2025-03-31T00:00:00.000Z' },
      );
    });
  });
});
