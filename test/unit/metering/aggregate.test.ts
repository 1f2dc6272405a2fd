import assert from 'node:assert/strict';
import {
  type AggregateType,
  type MeterDefinition,
  type MeterEvent,
  type StoredMeterEvent,
  aggregateEvents,
  selectEventsForPeriod,
  validateEventForMeter,
} from '../../../src/metering';

function meter(aggregateType: AggregateType, filter: MeterDefinition['filter'], unitMultiplier = 1, property?: string): MeterDefinition {
  return {
    eventName: 'api_call',
    aggregateType,
    aggregateProperty: aggregateType === 'count' ? null : (property ?? (aggregateType === 'unique' ? 'user' : 'units')),
    filter,
    unitMultiplier,
  };
}

function ev(metadata: Record<string, unknown> | null, eventName = 'api_call'): MeterEvent {
  return { eventName, metadata };
}

// Numeric meters read `units`, unique meters read `user`.
const EVENTS: MeterEvent[] = [
  ev({ region: 'eu', tier: 'pro', units: 10, user: 'u1' }), //    E1
  ev({ region: 'eu', tier: 'free', units: '2.5', user: 'u2' }), // E2
  ev({ region: 'us', tier: 'pro', units: 4, user: 'u1' }), //     E3
  ev({ region: 'eu', tier: 'pro', user: 'u3' }), //               E4: no units
  ev({ region: 'eu', tier: 'pro', units: '7', user: 'u1' }), //   E5
  ev({ region: 'us', tier: 'free', units: 'abc', user: 'u4' }), // E6: stored before the meter, not numeric
  ev({ region: 'eu', tier: 'pro', units: 1000, user: 'u9' }, 'other_event'), // E7: other event name
];

// Matching events per filter, worked by hand:
// no filter           E1 E2 E3 E4 E5 E6   units 10, 2.5, 4, 7 (sum 23.5, n 4)   users u1 u2 u1 u3 u1 u4 → 4
// region=eu           E1 E2 E4 E5         units 10, 2.5, 7    (sum 19.5, n 3)   users u1 u2 u3 u1       → 3
// region=eu,tier=pro  E1 E4 E5            units 10, 7         (sum 17,   n 2)   users u1 u3 u1          → 2
// region=asia         none
// plan=gold           none (no event has the key)
const FILTERS: Array<{ name: string; filter: MeterDefinition['filter']; events: MeterEvent[] }> = [
  { name: 'no filter', filter: null, events: EVENTS },
  { name: 'match (region=eu)', filter: { region: 'eu' }, events: EVENTS },
  { name: 'partial match (region=eu, tier=pro)', filter: { region: 'eu', tier: 'pro' }, events: EVENTS },
  { name: 'no match (region=asia)', filter: { region: 'asia' }, events: EVENTS },
  { name: 'missing key (plan=gold)', filter: { plan: 'gold' }, events: EVENTS },
  { name: 'empty event set', filter: null, events: [] },
];

// [filter name, aggregate type, quantity with multiplier 1, quantity with multiplier 1000]
const TABLE: Array<[string, AggregateType, string | null, string | null]> = [
  ['no filter', 'count', '6', '6000'],
  ['no filter', 'sum', '23.5', '23500'],
  ['no filter', 'max', '10', '10000'],
  ['no filter', 'min', '2.5', '2500'],
  ['no filter', 'avg', '5.875', '5875'], // 23.5 / 4
  ['no filter', 'unique', '4', '4000'],

  ['match (region=eu)', 'count', '4', '4000'],
  ['match (region=eu)', 'sum', '19.5', '19500'],
  ['match (region=eu)', 'max', '10', '10000'],
  ['match (region=eu)', 'min', '2.5', '2500'],
  ['match (region=eu)', 'avg', '6.5', '6500'], // 19.5 / 3
  ['match (region=eu)', 'unique', '3', '3000'],

  ['partial match (region=eu, tier=pro)', 'count', '3', '3000'],
  ['partial match (region=eu, tier=pro)', 'sum', '17', '17000'],
  ['partial match (region=eu, tier=pro)', 'max', '10', '10000'],
  ['partial match (region=eu, tier=pro)', 'min', '7', '7000'],
  ['partial match (region=eu, tier=pro)', 'avg', '8.5', '8500'], // 17 / 2
  ['partial match (region=eu, tier=pro)', 'unique', '2', '2000'],

  ['no match (region=asia)', 'count', '0', '0'],
  ['no match (region=asia)', 'sum', '0', '0'],
  ['no match (region=asia)', 'max', null, null],
  ['no match (region=asia)', 'min', null, null],
  ['no match (region=asia)', 'avg', null, null],
  ['no match (region=asia)', 'unique', '0', '0'],

  ['missing key (plan=gold)', 'count', '0', '0'],
  ['missing key (plan=gold)', 'sum', '0', '0'],
  ['missing key (plan=gold)', 'max', null, null],
  ['missing key (plan=gold)', 'min', null, null],
  ['missing key (plan=gold)', 'avg', null, null],
  ['missing key (plan=gold)', 'unique', '0', '0'],

  ['empty event set', 'count', '0', '0'],
  ['empty event set', 'sum', '0', '0'],
  ['empty event set', 'max', null, null],
  ['empty event set', 'min', null, null],
  ['empty event set', 'avg', null, null],
  ['empty event set', 'unique', '0', '0'],
];

describe('metering/aggregateEvents', () => {
  describe('aggregate type × filter × multiplier', () => {
    for (const [filterName, type, times1, times1000] of TABLE) {
      const f = FILTERS.find((x) => x.name === filterName);
      if (f === undefined) throw new Error(`no filter case ${filterName}`);
      it(`${type}, ${filterName}, ×1 → ${times1}`, () => {
        assert.equal(aggregateEvents(meter(type, f.filter, 1), f.events), times1);
      });
      it(`${type}, ${filterName}, ×1000 → ${times1000}`, () => {
        assert.equal(aggregateEvents(meter(type, f.filter, 1000), f.events), times1000);
      });
    }

    it('covers every aggregate type under every filter case', () => {
      assert.equal(TABLE.length, 6 * FILTERS.length);
    });
  });

  describe('exact decimals and avg precision', () => {
    const units = (...values: unknown[]): MeterEvent[] => values.map((units) => ev({ units }));
    const cases: Array<[string, AggregateType, MeterEvent[], number, string | null]> = [
      ['0.1 + 0.2 is exactly 0.3', 'sum', units(0.1, 0.2), 1, '0.3'],
      ['0.2 + 2.2 + 0.6 is exactly 3 (floats give 3.0000000000000004)', 'sum', units(0.2, 2.2, 0.6), 1, '3'],
      ['numbers and numeric strings mix', 'sum', units('1.25', 2, '-0.25'), 1, '3'],
      ['negative values', 'sum', units(-5, '2'), 1, '-3'],
      ['JSON number 1e3 is 1000', 'sum', units(1e3), 1, '1000'],
      ['30-digit strings stay exact', 'sum', units('999999999999999999999999999999', '1'), 1, '1000000000000000000000000000000'],
      ['avg(1, 2, 2) = 5/3 to 12 significant digits', 'avg', units(1, 2, 2), 1, '1.66666666667'],
      ['multiplier applies to the rounded avg', 'avg', units(1, 2, 2), 1000, '1666.66666667'],
      ['avg(0, 0, 2) = 0.666666666667', 'avg', units(0, 0, 2), 1, '0.666666666667'],
      ['avg(-1, -2, -2) rounds half away from zero', 'avg', units(-1, -2, -2), 1, '-1.66666666667'],
      ['avg(0.001, 0, 0): 12 significant digits after leading zeros', 'avg', units('0.001', 0, 0), 1, '0.000333333333333'],
      ['avg(1, 2) = 1.5 exactly', 'avg', units(1, 2), 1, '1.5'],
      ['avg(0.1, 0.2) = 0.15 exactly', 'avg', units(0.1, 0.2), 1, '0.15'],
      ['avg keeps every integer digit: (10^15 + 10^15+1)/2 → 1000000000000001', 'avg', units('1000000000000000', '1000000000000001'), 1, '1000000000000001'],
      ['max compares numerically, not as text', 'max', units('9', '10', '-20'), 1, '10'],
      ['min with negatives', 'min', units('9', '10', '-20'), 1, '-20'],
      ['max of equal values given differently', 'max', units('3.50', 3.5), 1, '3.5'],
      ['non-numeric values are skipped', 'sum', units('1e3', ' 5', 'abc', true, null, { n: 1 }, [1], 4), 1, '4'],
      ['only non-numeric values: sum 0', 'sum', units('abc', true), 1, '0'],
      ['only non-numeric values: avg null', 'avg', units('abc', true), 1, null],
      ['JSON null counts as missing', 'max', units(null), 1, null],
      ['count counts events without the property', 'count', [ev({}), ev(null), ev({ units: 'abc' })], 1, '3'],
    ];
    for (const [why, type, events, multiplier, expected] of cases) {
      it(`${why}: ${type} → ${expected}`, () => {
        assert.equal(aggregateEvents(meter(type, null, multiplier), events), expected);
      });
    }
  });

  describe('unique counts distinct text forms', () => {
    const users = (...values: unknown[]): MeterEvent[] => values.map((user) => ev({ user }));
    const cases: Array<[string, MeterEvent[], string]> = [
      ['12 and "12" are one value', users(12, '12'), '1'],
      ['"12.0" differs from "12"', users(12, '12', '12.0'), '2'],
      ['true and "true" are one value', users(true, 'true', false), '2'],
      ['case matters', users('a', 'A', 'a'), '2'],
      ['null, missing, objects and arrays are not counted', [...users(null, { a: 1 }, ['x'], 'x'), ev({})], '1'],
      ['1e21 counts as its plain digits', users(1e21, '1000000000000000000000'), '1'],
      ['0.1 as number and string', users(0.1, '0.1'), '1'],
    ];
    for (const [why, events, expected] of cases) {
      it(why, () => assert.equal(aggregateEvents(meter('unique', null), events), expected));
    }
  });

  describe('filter semantics', () => {
    it('compares strings strictly: number 1 does not match "1"', () => {
      const events = [ev({ region: 1, units: 5 }), ev({ region: '1', units: 7 })];
      assert.equal(aggregateEvents(meter('sum', { region: '1' }), events), '7');
    });

    it('an empty filter matches every event', () => {
      assert.equal(aggregateEvents(meter('count', {}), EVENTS), '6');
    });

    it('is case-sensitive and does not look into arrays', () => {
      const events = [ev({ region: 'EU' }), ev({ region: ['eu'] }), ev({ region: 'eu' })];
      assert.equal(aggregateEvents(meter('count', { region: 'eu' }), events), '1');
    });

    it('ignores inherited properties', () => {
      assert.equal(aggregateEvents(meter('count', { toString: 'x' }), [ev({})]), '0');
    });
  });

  describe('invalid meter definitions throw', () => {
    const bad: Array<[string, MeterDefinition]> = [
      ['multiplier 0', { ...meter('count', null), unitMultiplier: 0 }],
      ['fractional multiplier', { ...meter('count', null), unitMultiplier: 1.5 }],
      ['sum without property', { ...meter('sum', null), aggregateProperty: null }],
      ['count with property', { ...meter('count', null), aggregateProperty: 'units' }],
      ['unknown type', { ...meter('count', null), aggregateType: 'median' as AggregateType }],
    ];
    for (const [why, m] of bad) {
      it(why, () => assert.throws(() => aggregateEvents(m, EVENTS), RangeError));
    }
  });
});

describe('metering/validateEventForMeter', () => {
  const cases: Array<[string, MeterDefinition, Record<string, unknown> | null, RegExp | null]> = [
    ['sum: number', meter('sum', null), { units: 12 }, null],
    ['sum: decimal string', meter('sum', null), { units: '12.5' }, null],
    ['sum: property missing (skipped later)', meter('sum', null), { other: 'x' }, null],
    ['sum: property null', meter('sum', null), { units: null }, null],
    ['sum: no metadata', meter('sum', null), null, null],
    ['sum: "abc"', meter('sum', null), { units: 'abc' }, /metadata\.units must be a number or a decimal string/],
    ['avg: "1e3"', meter('avg', null), { units: '1e3' }, /must be a number/],
    ['max: " 5"', meter('max', null), { units: ' 5' }, /must be a number/],
    ['min: true', meter('min', null), { units: true }, /must be a number/],
    ['sum: object', meter('sum', null), { units: { v: 1 } }, /must be a number/],
    ['sum: 31 integer digits', meter('sum', null), { units: '1'.repeat(31) }, /must be a number/],
    ['sum: filter excludes the event, so its value is not this meter’s concern', meter('sum', { region: 'eu' }), { region: 'us', units: 'abc' }, null],
    ['sum: filter includes the event', meter('sum', { region: 'eu' }), { region: 'eu', units: 'abc' }, /must be a number/],
    ['count: anything goes', meter('count', null), { units: 'abc' }, null],
    ['unique: string', meter('unique', null), { user: 'u1' }, null],
    ['unique: number', meter('unique', null), { user: 7 }, null],
    ['unique: boolean', meter('unique', null), { user: false }, null],
    ['unique: object', meter('unique', null), { user: { id: 1 } }, /must be a string, number or boolean/],
    ['unique: array', meter('unique', null), { user: ['u1'] }, /must be a string, number or boolean/],
  ];
  for (const [why, m, metadata, expected] of cases) {
    it(why, () => {
      const message = validateEventForMeter(m, metadata);
      if (expected === null) assert.equal(message, null);
      else assert.match(message ?? '', expected);
    });
  }
});

describe('metering/selectEventsForPeriod', () => {
  const from = new Date('2026-03-01T00:00:00.000Z');
  const to = new Date('2026-03-31T23:59:59.999Z');
  const at = (iso: string, customerId = 'cus_1'): StoredMeterEvent => ({ eventName: 'api_call', metadata: {}, customerId, timestamp: new Date(iso) });
  const events = [
    at('2026-02-28T23:59:59.999Z'), // 1 ms before
    at('2026-03-01T00:00:00.000Z'), // at from: in
    at('2026-03-15T12:00:00.000Z'), // in
    at('2026-03-15T12:00:00.000Z', 'cus_2'), // other customer
    at('2026-03-31T23:59:59.999Z'), // at to: in
    at('2026-04-01T00:00:00.000Z'), // 1 ms after
  ];

  it('keeps one customer and both bounds inclusive', () => {
    const selected = selectEventsForPeriod(events, { customerId: 'cus_1', from, to });
    assert.deepEqual(
      selected.map((e) => e.timestamp.toISOString()),
      ['2026-03-01T00:00:00.000Z', '2026-03-15T12:00:00.000Z', '2026-03-31T23:59:59.999Z'],
    );
    assert.equal(aggregateEvents(meter('count', null), selected), '3');
  });
});
