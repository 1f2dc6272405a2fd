import assert from 'node:assert/strict';
import { prorate, prorationLines, prorationWindow } from '../../../src/billing';

const utc = (iso: string): Date => new Date(iso);

describe('billing/proration (whole seconds, rounded half away from zero per line)', () => {
  describe('prorate', () => {
    const cases: Array<{ name: string; amount: number; start: string; end: string; at: string; expected: number }> = [
      // January 2025: 31 days = 2,678,400 s
      {
        name: 'EUR 31.00, at the period start → full',
        amount: 3100,
        start: '2025-01-01T00:00:00.000Z',
        end: '2025-02-01T00:00:00.000Z',
        at: '2025-01-01T00:00:00.000Z',
        expected: 3100,
      },
      // 16 of 31 days remain: 3100 × 16 / 31 = 1600
      { name: 'EUR 31.00, Jan 16 → 16/31', amount: 3100, start: '2025-01-01T00:00:00.000Z', end: '2025-02-01T00:00:00.000Z', at: '2025-01-16T00:00:00.000Z', expected: 1600 },
      // 43,200 s of 2,678,400 s remain: 3100 × 0.5 / 31 = 50
      {
        name: 'EUR 31.00, Jan 31 12:00 → half a day',
        amount: 3100,
        start: '2025-01-01T00:00:00.000Z',
        end: '2025-02-01T00:00:00.000Z',
        at: '2025-01-31T12:00:00.000Z',
        expected: 50,
      },
      { name: 'EUR 31.00, at the period end → 0', amount: 3100, start: '2025-01-01T00:00:00.000Z', end: '2025-02-01T00:00:00.000Z', at: '2025-02-01T00:00:00.000Z', expected: 0 },
      {
        name: 'EUR 31.00, after the period end → 0',
        amount: 3100,
        start: '2025-01-01T00:00:00.000Z',
        end: '2025-02-01T00:00:00.000Z',
        at: '2025-02-02T00:00:00.000Z',
        expected: 0,
      },
      // February 2025: 28 days = 2,419,200 s
      // 14 of 28 days: 1990 / 2 = 995
      { name: 'ISK 1990, Feb 15 → 14/28', amount: 1990, start: '2025-02-01T00:00:00.000Z', end: '2025-03-01T00:00:00.000Z', at: '2025-02-15T00:00:00.000Z', expected: 995 },
      // 13.5 of 28 days: 1990 × 13.5 / 28 = 26865 / 28 = 959.46 → 959
      { name: 'ISK 1990, Feb 15 12:00 → 13.5/28', amount: 1990, start: '2025-02-01T00:00:00.000Z', end: '2025-03-01T00:00:00.000Z', at: '2025-02-15T12:00:00.000Z', expected: 959 },
      // 21 of 28 days: 1990 × 21 / 28 = 1492.5 → 1493 (half away from zero)
      {
        name: 'ISK 1990, Feb 8 → 21/28 = 1492.5 → 1493',
        amount: 1990,
        start: '2025-02-01T00:00:00.000Z',
        end: '2025-03-01T00:00:00.000Z',
        at: '2025-02-08T00:00:00.000Z',
        expected: 1493,
      },
      {
        name: 'ISK -1990, Feb 8 → -1492.5 → -1493 (mirror)',
        amount: -1990,
        start: '2025-02-01T00:00:00.000Z',
        end: '2025-03-01T00:00:00.000Z',
        at: '2025-02-08T00:00:00.000Z',
        expected: -1493,
      },
      // February 2024: 29 days; 15 of 29 remain: 2900 × 15 / 29 = 1500
      {
        name: 'ISK 2900, Feb 15 2024 (leap) → 15/29',
        amount: 2900,
        start: '2024-02-01T00:00:00.000Z',
        end: '2024-03-01T00:00:00.000Z',
        at: '2024-02-15T00:00:00.000Z',
        expected: 1500,
      },
      // period keeps the anchor time 15:00; 27 of 28 days remain: 2800 × 27 / 28 = 2700
      {
        name: 'EUR 28.00, period at 15:00, one day used',
        amount: 2800,
        start: '2025-01-31T15:00:00.000Z',
        end: '2025-02-28T15:00:00.000Z',
        at: '2025-02-01T15:00:00.000Z',
        expected: 2700,
      },
      // 10 s period: sub-second parts of the offset are floored
      {
        name: '10 s period, change at +2.999 s → 2 s used, 8/10',
        amount: 1000,
        start: '2025-01-01T00:00:00.000Z',
        end: '2025-01-01T00:00:10.000Z',
        at: '2025-01-01T00:00:02.999Z',
        expected: 800,
      },
      {
        name: '10 s period, change at +0.999 s → 0 s used, full',
        amount: 1000,
        start: '2025-01-01T00:00:00.000Z',
        end: '2025-01-01T00:00:10.000Z',
        at: '2025-01-01T00:00:00.999Z',
        expected: 1000,
      },
      {
        name: '10 s period, change at +9.999 s → last second charged, 1/10',
        amount: 1000,
        start: '2025-01-01T00:00:00.000Z',
        end: '2025-01-01T00:00:10.000Z',
        at: '2025-01-01T00:00:09.999Z',
        expected: 100,
      },
      // 10.9 s period floors to 10 s; change at +5.5 s → 5 s used, 5 of 10 remain
      { name: '10.9 s period floors to 10 s', amount: 1000, start: '2025-01-01T00:00:00.000Z', end: '2025-01-01T00:00:10.900Z', at: '2025-01-01T00:00:05.500Z', expected: 500 },
    ];
    for (const c of cases) {
      it(c.name, () => {
        assert.equal(prorate(c.amount, utc(c.start), utc(c.end), utc(c.at)), c.expected);
      });
    }

    it('accepts epoch milliseconds', () => {
      // [0 s, 10 s), change at 4 s: 6/10 of 1000
      assert.equal(prorate(1000, 0, 10_000, 4_000), 600);
    });

    const refused: Array<{ name: string; call: () => number }> = [
      { name: 'a change before the period start', call: () => prorate(1000, utc('2025-02-01T00:00:00Z'), utc('2025-03-01T00:00:00Z'), utc('2025-01-31T23:59:59.999Z')) },
      { name: 'an end before the start', call: () => prorate(1000, utc('2025-03-01T00:00:00Z'), utc('2025-02-01T00:00:00Z'), utc('2025-03-01T00:00:00Z')) },
      { name: 'a period shorter than one second', call: () => prorate(1000, 0, 999, 0) },
      { name: 'a non-integer amount', call: () => prorate(10.5, 0, 10_000, 0) },
      { name: 'an invalid date', call: () => prorate(1000, new Date('nope'), 10_000, 0) },
    ];
    for (const r of refused) {
      it(`throws on ${r.name}`, () => {
        assert.throws(r.call, RangeError);
      });
    }
  });

  describe('prorationWindow', () => {
    it('June 2025, change on June 11: 20 of 30 days', () => {
      assert.deepEqual(prorationWindow(utc('2025-06-01T00:00:00Z'), utc('2025-07-01T00:00:00Z'), utc('2025-06-11T00:00:00Z')), {
        periodSeconds: 2_592_000, // 30 × 86,400
        remainingSeconds: 1_728_000, // 20 × 86,400
      });
    });
  });

  describe('prorationLines', () => {
    const cases: Array<{
      name: string;
      oldFull: number;
      newFull: number;
      start: string;
      end: string;
      at: string;
      credit: number;
      charge: number;
      remainingSeconds: number;
      periodSeconds: number;
      lineStart: string;
    }> = [
      {
        // quantity 2 → 5 at 1000 ISK; 20 of 30 days remain:
        // credit -2000 × 20/30 = -1333.33 → -1333; charge 5000 × 20/30 = 3333.33 → 3333
        name: 'ISK quantity 2 → 5, June 11',
        oldFull: 2000,
        newFull: 5000,
        start: '2025-06-01T00:00:00.000Z',
        end: '2025-07-01T00:00:00.000Z',
        at: '2025-06-11T00:00:00.000Z',
        credit: -1333,
        charge: 3333,
        remainingSeconds: 1_728_000,
        periodSeconds: 2_592_000,
        lineStart: '2025-06-11T00:00:00.000Z',
      },
      {
        // 15 of 30 days: credit -1995/2 = -997.5 → -998; charge 2995/2 = 1497.5 → 1498
        name: 'ISK half cases round away from zero on both lines',
        oldFull: 1995,
        newFull: 2995,
        start: '2025-06-01T00:00:00.000Z',
        end: '2025-07-01T00:00:00.000Z',
        at: '2025-06-16T00:00:00.000Z',
        credit: -998,
        charge: 1498,
        remainingSeconds: 1_296_000,
        periodSeconds: 2_592_000,
        lineStart: '2025-06-16T00:00:00.000Z',
      },
      {
        // EUR downgrade 49.99 → 19.99, 21 of 31 days remain:
        // credit -4999 × 21/31 = -104979/31 = -3386.42 → -3386; charge 1999 × 21/31 = 41979/31 = 1354.16 → 1354
        name: 'EUR downgrade, Jan 11',
        oldFull: 4999,
        newFull: 1999,
        start: '2025-01-01T00:00:00.000Z',
        end: '2025-02-01T00:00:00.000Z',
        at: '2025-01-11T00:00:00.000Z',
        credit: -3386,
        charge: 1354,
        remainingSeconds: 1_814_400,
        periodSeconds: 2_678_400,
        lineStart: '2025-01-11T00:00:00.000Z',
      },
      {
        name: 'change at the period start: full credit and full charge',
        oldFull: 1000,
        newFull: 3000,
        start: '2025-06-01T00:00:00.000Z',
        end: '2025-07-01T00:00:00.000Z',
        at: '2025-06-01T00:00:00.000Z',
        credit: -1000,
        charge: 3000,
        remainingSeconds: 2_592_000,
        periodSeconds: 2_592_000,
        lineStart: '2025-06-01T00:00:00.000Z',
      },
      {
        name: 'change at the period end: both lines 0 (and +0, never -0)',
        oldFull: 1000,
        newFull: 3000,
        start: '2025-06-01T00:00:00.000Z',
        end: '2025-07-01T00:00:00.000Z',
        at: '2025-07-01T00:00:00.000Z',
        credit: 0,
        charge: 0,
        remainingSeconds: 0,
        periodSeconds: 2_592_000,
        lineStart: '2025-07-01T00:00:00.000Z',
      },
      {
        name: 'change after the period end: both lines 0, empty window at the end',
        oldFull: 1000,
        newFull: 3000,
        start: '2025-06-01T00:00:00.000Z',
        end: '2025-07-01T00:00:00.000Z',
        at: '2025-07-05T00:00:00.000Z',
        credit: 0,
        charge: 0,
        remainingSeconds: 0,
        periodSeconds: 2_592_000,
        lineStart: '2025-07-01T00:00:00.000Z',
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { credit, charge } = prorationLines({
          oldAmountForFullPeriod: c.oldFull,
          newAmountForFullPeriod: c.newFull,
          periodStart: utc(c.start),
          periodEnd: utc(c.end),
          changeAt: utc(c.at),
        });
        const common = { period_start: utc(c.lineStart), period_end: utc(c.end), remaining_seconds: c.remainingSeconds, period_seconds: c.periodSeconds };
        assert.deepEqual(credit, { kind: 'unused_time', amount: c.credit, full_period_amount: c.oldFull, ...common });
        assert.deepEqual(charge, { kind: 'remaining_time', amount: c.charge, full_period_amount: c.newFull, ...common });
      });
    }
    it('throws when the change is before the period start', () => {
      assert.throws(
        () =>
          prorationLines({
            oldAmountForFullPeriod: 1000,
            newAmountForFullPeriod: 2000,
            periodStart: utc('2025-06-01T00:00:00Z'),
            periodEnd: utc('2025-07-01T00:00:00Z'),
            changeAt: utc('2025-05-31T00:00:00Z'),
          }),
        RangeError,
      );
    });
  });
});
