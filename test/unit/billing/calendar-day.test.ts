import assert from 'node:assert/strict';
import { formatCalendarDay, formatMonth } from '../../../src/billing/calendar-day';

describe('formatCalendarDay (dates in invoice line descriptions and documents)', () => {
  it('writes the UTC calendar day in English and Icelandic', () => {
    const d = new Date('2027-03-11T00:00:00.000Z');
    assert.equal(formatCalendarDay(d, 'en'), '11 Mar 2027');
    assert.equal(formatCalendarDay(d, 'is'), '11. mars 2027');
  });
  it('uses the UTC day, not the machine zone, at the edges of a day', () => {
    assert.equal(formatCalendarDay(new Date('2026-12-31T23:59:59.999Z'), 'en'), '31 Dec 2026');
    assert.equal(formatCalendarDay(new Date('2027-01-01T00:00:00.000Z'), 'is'), '1. janúar 2027');
  });
});

describe('formatMonth (chart labels, month names in the dashboard and portal)', () => {
  it('writes a month as "Nov 2026" and "nóv. 2026", from a Date or "YYYY-MM", in UTC', () => {
    assert.equal(formatMonth('2026-11', 'en'), 'Nov 2026');
    assert.equal(formatMonth('2026-11', 'is'), 'nóv. 2026');
    assert.equal(formatMonth('2026-03', 'is'), 'mars 2026');
    assert.equal(formatMonth(new Date('2026-12-31T23:59:59.999Z'), 'en'), 'Dec 2026');
    assert.equal(formatMonth(new Date('2027-01-01T00:00:00.000Z'), 'is'), 'jan. 2027');
  });
});
