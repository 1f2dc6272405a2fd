// A CSV export as a stream (docs/exports.md): UTF-8 with a byte order mark (so Excel reads
// Icelandic names), a header line, RFC 4180 quoting by csv-stringify, rows pulled from the
// database batch by batch only as fast as the client reads them.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Tenant, TenantDb } from '../../db/tenancy';
import { CREDIT_NOTES, INVOICES, LEDGER_ENTRIES, PAYMENTS, REFUNDS, exportRows, type Cell, type ExportTable } from './export-tables';
import { TRIAL_BALANCE_COLUMNS, trialBalanceRows } from './trial-balance-rows';
import type { ExportPeriod } from './period';

export const CSV_EXPORTS = ['invoices', 'payments', 'refunds', 'credit_notes', 'ledger_entries', 'trial_balance'] as const;
export type CsvExportKind = (typeof CSV_EXPORTS)[number];

export function isCsvExportKind(v: unknown): v is CsvExportKind {
  return typeof v === 'string' && (CSV_EXPORTS as readonly string[]).includes(v);
}

const TABLES: Record<Exclude<CsvExportKind, 'trial_balance'>, ExportTable<{ id: string }>> = {
  invoices: INVOICES as unknown as ExportTable<{ id: string }>,
  payments: PAYMENTS as unknown as ExportTable<{ id: string }>,
  refunds: REFUNDS as unknown as ExportTable<{ id: string }>,
  credit_notes: CREDIT_NOTES as unknown as ExportTable<{ id: string }>,
  ledger_entries: LEDGER_ENTRIES as unknown as ExportTable<{ id: string }>,
};

export function exportColumns(kind: CsvExportKind): readonly string[] {
  return kind === 'trial_balance' ? TRIAL_BALANCE_COLUMNS : TABLES[kind].columns.map((c) => c.name);
}

/** `invoices-2026-11-01-2026-11-30.csv` */
export function exportFileName(kind: string, period: ExportPeriod, ext: 'csv' | 'zip'): string {
  return `${kind.replace(/_/g, '-')}-${period.firstDay}-${period.lastDay}.${ext}`;
}

export function csvExportStream(db: TenantDb, tenant: Tenant, kind: CsvExportKind, period: ExportPeriod, opts: { batchSize?: number } = {}): Readable {
  const rows: AsyncGenerator<Cell[]> = kind === 'trial_balance' ? trialBalanceRows(db, tenant, period) : exportRows(db, TABLES[kind], period, opts.batchSize);
  const csv = stringify({ bom: true, header: true, columns: [...exportColumns(kind)], record_delimiter: 'windows' });
  const source = Readable.from(rows, { objectMode: true, highWaterMark: 64 });
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
