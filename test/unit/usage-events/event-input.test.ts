// Pure checks behind POST /v1/events and /v1/events/batch (no database).
import assert from 'node:assert/strict';
import { checkEvent, EVENT_LIMITS, parseEventTimestamp } from '../../../src/domain/usage-events/event-input';
import { newUsageEventIdParts, EVENT_ID_RANDOM_CHARS } from '../../../src/domain/usage-events/event-ids';
import { newId } from '../../../src/ids';

describe('catalog: usage event input', () => {
  describe('parseEventTimestamp', () => {
    const cases: Array<[string, string | null]> = [
      ['2026-03-01T12:00:00.000Z', '2026-03-01T12:00:00.000Z'],
      ['2026-03-01T12:00:00Z', '2026-03-01T12:00:00.000Z'],
      ['2026-03-01T12:00Z', '2026-03-01T12:00:00.000Z'],
      ['2026-03-01T12:00:00.5+01:00', '2026-03-01T11:00:00.500Z'],
      ['2026-03-01T12:00:00-0230', '2026-03-01T14:30:00.000Z'],
      ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
      ['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z'],
      ['2026-02-29T00:00:00Z', null],
      ['2026-02-30T00:00:00.000Z', null],
      ['2026-13-01T00:00:00Z', null],
      ['2026-03-01T24:00:00Z', null],
      ['2026-03-01T24:00:00.000Z', null],
      ['2026-03-01T12:60:00Z', null],
      ['2026-03-01T12:00:00+25:00', null],
      ['2026-03-01T12:00:00', null],
      ['2026-03-01', null],
      ['2026-03-01 12:00:00Z', null],
      ['1969-12-31T23:59:59.999Z', null],
      ['+002026-03-01T00:00:00.000Z', null],
      ['yesterday', null],
      ['', null],
      // the canonical form's digit-by-digit fast path (24 characters)
      ['2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
      ['2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59.999Z'],
      ['2023-02-29T00:00:00.000Z', null],
      ['2026-04-31T00:00:00.000Z', null],
      ['2026-03-01T12:00:60.000Z', null],
      ['2026-03-01T12:00:00.0a0Z', null],
      ['2026-00-10T12:00:00.000Z', null],
      ['2026-03-00T12:00:00.000Z', null],
      ['2026-03-01t12:00:00.000Z', null],
    ];
    it('the canonical form of any instant from 1970 to 9999 parses to that instant', () => {
      let seed = 32;
      for (let i = 0; i < 5000; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const t = Math.floor((seed / 2 ** 31) * Date.UTC(9999, 11, 31, 23, 59, 59, 999));
        const iso = new Date(t).toISOString();
        assert.equal(parseEventTimestamp(iso)?.getTime(), t, iso);
      }
    });
    for (const [input, expected] of cases) {
      it(`${JSON.stringify(input)} → ${expected ?? 'refused'}`, () => {
        const d = parseEventTimestamp(input);
        assert.equal(d === null ? null : d.toISOString(), expected);
      });
    }
  });

  describe('checkEvent', () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    it('fills defaults: timestamp now, metadata {}, key null', () => {
      const c = checkEvent({ event_name: 'e', customer: 'cus_1' }, now);
      assert.ok(c.ok);
      if (c.ok) {
        assert.equal(c.event.timestamp.getTime(), now.getTime());
        assert.deepEqual(c.event.metadata, {});
        assert.equal(c.event.metadataJson, '{}');
        assert.equal(c.event.idempotencyKey, null);
      }
    });
    it('the future tolerance is inclusive at five minutes', () => {
      const at = (ms: number) => checkEvent({ event_name: 'e', customer: 'cus_1', timestamp: new Date(now.getTime() + ms).toISOString() }, now).ok;
      assert.equal(at(EVENT_LIMITS.futureToleranceMs), true);
      assert.equal(at(EVENT_LIMITS.futureToleranceMs + 1), false);
    });
    it('limits are inclusive: 200-character event_name and idempotency_key, 16 KiB metadata', () => {
      const big = { pad: 'x'.repeat(EVENT_LIMITS.metadataMaxBytes - '{"pad":""}'.length) };
      assert.ok(checkEvent({ event_name: 'e'.repeat(200), customer: 'cus_1', idempotency_key: 'k'.repeat(200), metadata: big }, now).ok);
      const tooBig = { pad: `${big.pad}x` };
      const r = checkEvent({ event_name: 'e', customer: 'cus_1', metadata: tooBig }, now);
      assert.deepEqual(r.ok ? null : r.param, 'metadata');
      // multi-byte characters count as bytes
      const r2 = checkEvent({ event_name: 'e', customer: 'cus_1', metadata: { pad: 'þ'.repeat(EVENT_LIMITS.metadataMaxBytes / 2) } }, now);
      assert.equal(r2.ok, false);
    });
    it('escaped text that merely looks like \\u0000 is fine; a real NUL is not', () => {
      assert.ok(checkEvent({ event_name: 'e', customer: 'cus_1', metadata: { a: '\\u0000' } }, now).ok);
      assert.equal(checkEvent({ event_name: 'e', customer: 'cus_1', metadata: { a: '\\\u0000' } }, now).ok, false);
      assert.equal(checkEvent({ event_name: 'e', customer: 'cus_1', metadata: { ['\u0000']: 'x' } }, now).ok, false);
      assert.ok(checkEvent({ event_name: 'e', customer: 'cus_1', metadata: { emoji: '😀' } }, now).ok);
    });
  });

  describe('bulk event ids', () => {
    it('have the newId format, the creation time prefix and are distinct', () => {
      const nowMs = Date.UTC(2026, 2, 1);
      const { prefix, random } = newUsageEventIdParts(1000, nowMs);
      assert.equal(random.length, 1000 * EVENT_ID_RANDOM_CHARS);
      const ids = Array.from({ length: 1000 }, (_, i) => prefix + random.slice(i * EVENT_ID_RANDOM_CHARS, (i + 1) * EVENT_ID_RANDOM_CHARS));
      const reference = newId('usageEvent', nowMs);
      for (const id of ids) {
        assert.match(id, /^ue_[0-9A-Za-z]{24}$/);
        assert.equal(id.slice(0, 13), reference.slice(0, 13));
      }
      assert.equal(new Set(ids).size, 1000);
    });
  });
});
