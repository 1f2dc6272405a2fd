// The invoice PDFs of a period as one ZIP archive (docs/exports.md): every invoice issued in the
// period (drafts have no document), named by number like a single download. The archive is built
// by yazl as it is sent: only the list of invoice ids is held, and each PDF is rendered when the
// archive reaches its entry, so memory stays at one document however long the period.
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Tenant, TenantDb } from '../../db/tenancy';
import { documentFileName, loadInvoiceDocument, renderDocumentPdf, type DocumentLocale } from '../../documents';
import type { ExportPeriod } from './period';

const ID_BATCH = 1000;

async function issuedInvoices(db: TenantDb, period: ExportPeriod): Promise<Array<{ id: string; number: string; issuedAt: Date }>> {
  const out: Array<{ id: string; number: string; issuedAt: Date }> = [];
  let after: { at: Date; id: string } | null = null;
  for (;;) {
    const range = { finalizedAt: { gte: period.from, lt: period.to }, number: { not: null } };
    const where: Record<string, unknown> = after
      ? { AND: [range, { finalizedAt: { gte: after.at } }, { OR: [{ finalizedAt: { gt: after.at } }, { id: { gt: after.id } }] }] }
      : range;
    const rows: Array<{ id: string; number: string | null; finalizedAt: Date | null }> = await db.invoice.findMany({
      where,
      take: ID_BATCH,
      orderBy: [{ finalizedAt: 'asc' }, { id: 'asc' }],
      select: { id: true, number: true, finalizedAt: true },
    });
    for (const r of rows) out.push({ id: r.id, number: r.number!, issuedAt: r.finalizedAt! });
    if (rows.length < ID_BATCH) return out;
    const last = rows[rows.length - 1]!;
    after = { at: last.finalizedAt!, id: last.id };
  }
}

/** Resolves once the invoices are listed (a database error is still an error response), then streams. */
export async function invoiceDocumentsZip(db: TenantDb, tenant: Tenant, period: ExportPeriod, locale: DocumentLocale): Promise<{ stream: Readable; count: number }> {
  const invoices = await issuedInvoices(db, period);
  const zip = new ZipFile();
  for (const inv of invoices) {
    zip.addReadStreamLazy(documentFileName({ kind: 'invoice', number: inv.number }, 'pdf'), { mtime: inv.issuedAt, compress: false }, (cb) => {
      loadInvoiceDocument(db, tenant, inv.id)
        .then((doc) => renderDocumentPdf(doc, locale))
        .then(
          (pdf) => cb(null, Readable.from([pdf])),
          (err: Error) => cb(err, undefined as unknown as Readable),
        );
    });
  }
  if (invoices.length === 0) {
    zip.addBuffer(Buffer.from(`No invoice was issued from ${period.firstDay} to ${period.lastDay}.\r\n`, 'utf8'), 'README.txt', { mtime: period.from });
  }
  zip.end();
  return { stream: zip.outputStream as Readable, count: invoices.length };
}
