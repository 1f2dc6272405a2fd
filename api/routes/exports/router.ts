// Exports for the accountant (docs/exports.md), secret key:
//   GET /v1/exports/{kind}.csv?from=YYYY-MM-DD&to=YYYY-MM-DD   kind: invoices, payments, refunds,
//       credit_notes, ledger_entries, trial_balance — text/csv, UTF-8 with a BOM, streamed
//   GET /v1/exports/invoice_documents.zip?from&to&locale       the period's invoice PDFs
// The dashboard serves the same streams under /dashboard/exports (finance and owner).
import { area, route, secretKey } from '../../route';
import type { AppContext } from '../../context';
import { dbOf, tenantOf } from '../../context';
import { parseQuery } from '../../validate';
import { CSV_EXPORTS, csvExportStream, exportFileName, type CsvExportKind } from '../../../src/domain/exports/csv-export';
import { invoiceDocumentsZip } from '../../../src/domain/exports/invoice-documents-zip';
import { parseExportPeriod, type ExportPeriod } from '../../../src/domain/exports/period';
import type { Tenant, TenantDb } from '../../../src/db/tenancy';
import type { DocumentLocale } from '../../../src/documents';
import { exportQuery, invoiceDocumentsExportQuery } from './schemas';

function download(ctx: AppContext, type: string, fileName: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
  ctx.type = type;
}

/** Sends a CSV export (shared with the dashboard). */
export function sendCsvExport(ctx: AppContext, db: TenantDb, tenant: Tenant, kind: CsvExportKind, period: ExportPeriod): void {
  download(ctx, 'text/csv; charset=utf-8', exportFileName(kind, period, 'csv'));
  ctx.body = csvExportStream(db, tenant, kind, period);
}

/** Sends the ZIP of a period's invoice PDFs (shared with the dashboard). */
export async function sendInvoiceDocumentsZip(ctx: AppContext, db: TenantDb, tenant: Tenant, period: ExportPeriod, locale: DocumentLocale): Promise<void> {
  const { stream, count } = await invoiceDocumentsZip(db, tenant, period, locale);
  download(ctx, 'application/zip', exportFileName('invoice_documents', period, 'zip'));
  ctx.set('X-Invoice-Count', String(count));
  ctx.body = stream;
}

export const exportsRoutes = area('exports', [
  ...CSV_EXPORTS.map((kind) =>
    route({
      method: 'get',
      path: `/v1/exports/${kind}.csv`,
      operationId: `export${kind.replace(/(^|_)(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
      tag: 'Exports',
      summary: `The ${kind.replace(/_/g, ' ')} of a period as CSV`,
      description:
        'UTF-8 with a byte order mark, a header line, amounts in minor units plus a formatted column, instants in ISO 8601 (docs/exports.md lists the columns). `from` and `to` are days (YYYY-MM-DD), both included. Streamed.',
      auth: 'secret',
      query: exportQuery,
      kind: 'csv',
      use: ({ auth }) => [auth()],
      handler: () => async (ctx) => {
        const q = parseQuery(exportQuery, ctx.query);
        sendCsvExport(ctx, dbOf(ctx), tenantOf(ctx), kind, parseExportPeriod(q));
      },
    }),
  ),
  route({
    method: 'get',
    path: '/v1/exports/invoice_documents.zip',
    operationId: 'exportInvoiceDocuments',
    tag: 'Exports',
    summary: 'The PDFs of the invoices issued in a period, as one ZIP archive',
    description:
      'Streams a ZIP archive of the PDFs of every invoice finalized from `from` to `to` (days, YYYY-MM-DD, both included), one file per invoice named by its number, in `locale` en (default) or is; `X-Invoice-Count` says how many. A period without invoices gives an archive holding a README.txt that says so. Each PDF is rendered as the archive is sent. Changes nothing.',
    query: invoiceDocumentsExportQuery,
    kind: 'zip',
    ...secretKey(),
    handler: () => async (ctx) => {
      const q = parseQuery(invoiceDocumentsExportQuery, ctx.query);
      await sendInvoiceDocumentsZip(ctx, dbOf(ctx), tenantOf(ctx), parseExportPeriod(q), (q.locale as DocumentLocale | undefined) ?? 'en');
    },
  }),
]);
