import assert from 'node:assert/strict';
import { type AggregateType, type MeterAggregateRow, type MeterDefinition, AGGREGATE_TYPES, buildMeterAggregateQuery, quantityFromAggregateRow } from '../../../src/metering';

const from = new Date('2026-03-01T00:00:00.000Z');
const to = new Date('2026-03-31T23:59:59.999Z');

function meter(aggregateType: AggregateType, over: Partial<MeterDefinition> = {}): MeterDefinition {
  return {
    eventName: 'api_call',
    aggregateType,
    aggregateProperty: aggregateType === 'count' ? null : 'units',
    filter: null,
    unitMultiplier: 1,
    ...over,
  };
}

function build(m: MeterDefinition) {
  return buildMeterAggregateQuery({ merchantId: 'merch_1', mode: 'test', customerId: 'cus_1', meter: m, from, to });
}

function placeholders(text: string): number[] {
  return [...new Set([...text.matchAll(/\$(\d+)/g)].map((x) => Number(x[1])))].sort((a, b) => a - b);
}

describe('metering/buildMeterAggregateQuery', () => {
  const selects: Array<[AggregateType, RegExp]> = [
    ['count', /^SELECT NULL::text AS value, count\(\*\)::text AS n FROM usage_events WHERE/],
    [
      'sum',
      /^SELECT sum\(CASE WHEN metadata->>\$7::text ~ '\^-\?\[0-9\]\{1,30\}\(\[\.\]\[0-9\]\{1,30\}\)\?\$' THEN \(metadata->>\$7::text\)::numeric END\)::text AS value, count\(CASE/,
    ],
    ['avg', /^SELECT sum\(CASE WHEN metadata->>\$7::text ~ .* AS value, count\(CASE .* AS n FROM/],
    ['max', /^SELECT max\(CASE WHEN metadata->>\$7::text ~ /],
    ['min', /^SELECT min\(CASE WHEN metadata->>\$7::text ~ /],
    [
      'unique',
      /^SELECT NULL::text AS value, count\(DISTINCT CASE WHEN jsonb_typeof\(metadata->\$7::text\) IN \('string', 'number', 'boolean'\) THEN metadata->>\$7::text END\)::text AS n FROM/,
    ],
  ];
  for (const [type, pattern] of selects) {
    it(`${type}: selects the right aggregate`, () => assert.match(build(meter(type)).text, pattern));
  }

  it('binds tenant, customer, event name and the inclusive period as $1–$6', () => {
    const q = build(meter('count'));
    assert.equal(
      q.text,
      'SELECT NULL::text AS value, count(*)::text AS n FROM usage_events WHERE merchant_id = $1 AND mode = $2 AND customer_id = $3' +
        ' AND event_name = $4 AND "timestamp" >= $5::timestamptz AND "timestamp" <= $6::timestamptz',
    );
    assert.deepEqual(q.values, ['merch_1', 'test', 'cus_1', 'api_call', from, to]);
  });

  it('passes the property as a parameter and the filter as jsonb for @>', () => {
    const q = build(meter('sum', { filter: { region: 'eu', tier: 'pro' } }));
    assert.deepEqual(q.values.slice(6), ['units', '{"region":"eu","tier":"pro"}']);
    assert.match(q.text, / AND metadata @> \$8::jsonb$/);
  });

  it('leaves out the filter clause for a null or empty filter', () => {
    for (const filter of [null, {}]) {
      const q = build(meter('sum', { filter }));
      assert.doesNotMatch(q.text, /@>/);
      assert.equal(q.values.length, 7);
    }
  });

  it('count with a filter puts the filter at $7', () => {
    const q = build(meter('count', { filter: { region: 'eu' } }));
    assert.deepEqual(q.values.slice(6), ['{"region":"eu"}']);
    assert.match(q.text, /metadata @> \$7::jsonb$/);
  });

  describe('every type × filter: placeholders are exactly $1…$n for n values', () => {
    for (const type of AGGREGATE_TYPES) {
      for (const filter of [null, { region: 'eu' }]) {
        it(`${type}, filter ${JSON.stringify(filter)}`, () => {
          const q = build(meter(type, { filter }));
          assert.deepEqual(
            placeholders(q.text),
            q.values.map((_, i) => i + 1),
          );
        });
      }
    }
  });

  it('never splices user input into the text', () => {
    const hostile = "x'); DROP TABLE usage_events; --";
    const m = meter('unique', { eventName: hostile, aggregateProperty: `p${hostile}`, filter: { [`k${hostile}`]: `v${hostile}` } });
    const q = buildMeterAggregateQuery({ merchantId: hostile, mode: hostile, customerId: hostile, meter: m, from, to });
    assert.equal(q.text.includes('DROP'), false);
    assert.equal(q.values.filter((v) => typeof v === 'string' && v.includes('DROP')).length, 6);
  });

  it('rejects a period that ends before it starts, and invalid dates', () => {
    const m = meter('count');
    assert.throws(() => buildMeterAggregateQuery({ merchantId: 'm', mode: 'test', customerId: 'c', meter: m, from: to, to: from }), RangeError);
    assert.throws(() => buildMeterAggregateQuery({ merchantId: 'm', mode: 'test', customerId: 'c', meter: m, from: new Date('x'), to }), RangeError);
  });

  it('accepts a single-instant period (from = to, both inclusive)', () => {
    const q = buildMeterAggregateQuery({ merchantId: 'm', mode: 'test', customerId: 'c', meter: meter('count'), from, to: from });
    assert.deepEqual(q.values.slice(4), [from, from]);
  });
});

describe('metering/quantityFromAggregateRow', () => {
  // [type, multiplier, row as pg returns it, quantity]
  const TABLE: Array<[AggregateType, number, MeterAggregateRow, string | null]> = [
    ['count', 1, { value: null, n: '6' }, '6'],
    ['count', 1000, { value: null, n: '6' }, '6000'],
    ['count', 1, { value: null, n: '0' }, '0'],
    ['sum', 1, { value: '23.50', n: '4' }, '23.5'],
    ['sum', 1000, { value: '23.50', n: '4' }, '23500'],
    ['sum', 1, { value: null, n: '0' }, '0'],
    ['max', 1, { value: '10', n: '4' }, '10'],
    ['max', 1, { value: null, n: '0' }, null],
    ['min', 1000, { value: '2.5', n: '4' }, '2500'],
    ['min', 1, { value: null, n: '0' }, null],
    ['avg', 1, { value: '5', n: '3' }, '1.66666666667'],
    ['avg', 1000, { value: '5', n: '3' }, '1666.66666667'],
    ['avg', 1, { value: null, n: '0' }, null],
    ['unique', 1, { value: null, n: 4 }, '4'],
    ['unique', 1000, { value: null, n: 4n }, '4000'],
    ['unique', 1, { value: null, n: null }, '0'],
  ];
  for (const [type, multiplier, row, expected] of TABLE) {
    it(`${type} ×${multiplier} ${JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))} → ${expected}`, () => {
      assert.equal(quantityFromAggregateRow(meter(type, { unitMultiplier: multiplier }), row), expected);
    });
  }

  it('refuses a value that is not plain decimal text', () => {
    assert.throws(() => quantityFromAggregateRow(meter('sum'), { value: 'NaN', n: '1' }), RangeError);
  });
});
