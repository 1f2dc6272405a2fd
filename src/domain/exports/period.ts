// The period of an export (docs/exports.md): two UTC calendar days, both included, so
// `from=2026-11-01&to=2026-11-30` is November. Inside, the period is the half-open range
// [from 00:00, the day after `to` 00:00), the same boundaries every stored period uses.
import { errors } from '../../errors';

export interface ExportPeriod {
  /** Inclusive start instant (00:00 UTC of the first day). */
  from: Date;
  /** Exclusive end instant (00:00 UTC of the day after the last day). */
  to: Date;
  /** The days as given, for file names: 2026-11-01, 2026-11-30. */
  firstDay: string;
  lastDay: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDay(raw: unknown, param: string): Date {
  if (typeof raw !== 'string' || raw === '') throw errors.validationFailed(`${param} is required: a day such as 2026-11-01`, param);
  const m = DAY.exec(raw);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !d || d.toISOString().slice(0, 10) !== raw) throw errors.validationFailed(`${param} must be a day written as YYYY-MM-DD, such as 2026-11-01`, param);
  return d;
}

export function parseExportPeriod(query: { from?: unknown; to?: unknown }): ExportPeriod {
  const from = parseDay(query.from, 'from');
  const last = parseDay(query.to, 'to');
  if (last < from) throw errors.validationFailed('to must be the same day as from or later', 'to');
  const to = new Date(last.getTime() + 86_400_000);
  return { from, to, firstDay: from.toISOString().slice(0, 10), lastDay: last.toISOString().slice(0, 10) };
}

/** The calendar month before `now` (UTC): the dashboard's default period. */
export function previousMonth(now: Date): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}
