// Invoice and credit note documents through the API (docs/invoice-documents.md), secret key:
//   GET /v1/invoices/{id}/pdf        application/pdf   (finalized invoices; a draft → 409 invalid_state)
//   GET /v1/invoices/{id}/html       text/html         (a self-contained page, no script)
//   GET /v1/credit_notes/{id}/pdf    application/pdf
//   GET /v1/credit_notes/{id}/html   text/html
// Query `locale`: `is` or `en` (default `en`).
import { area, route } from '../../route';
import type { AppContext } from '../../context';
import { dbOf, tenantOf } from '../../context';
import { parseQuery, pathId, yup } from '../../validate';
import {
  DOCUMENT_CSP,
  DOCUMENT_LOCALES,
  documentFileName,
  loadCreditNoteDocument,
  loadInvoiceDocument,
  renderDocumentHtml,
  renderDocumentPdf,
  type DocumentLocale,
  type InvoiceDocument,
} from '../../../src/documents';

export const documentQuery = yup.object({
  locale: yup.string().oneOf([...DOCUMENT_LOCALES], 'locale must be is or en'),
});

/** Sends a document as PDF or HTML (shared with the customer portal). */
export async function sendDocument(ctx: AppContext, doc: InvoiceDocument, format: 'pdf' | 'html', locale: DocumentLocale): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (format === 'pdf') {
    ctx.type = 'application/pdf';
    ctx.set('Content-Disposition', `attachment; filename="${documentFileName(doc, 'pdf')}"`);
    ctx.body = await renderDocumentPdf(doc, locale);
    return;
  }
  ctx.set('Content-Security-Policy', DOCUMENT_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Content-Disposition', `inline; filename="${documentFileName(doc, 'html')}"`);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = renderDocumentHtml(doc, locale);
}

const FORMATS = {
  pdf: {
    kind: 'pdf',
    id: 'Pdf',
    invoice: 'The invoice as a PDF document',
    creditNote: 'The credit note as a PDF document',
    what: 'as a PDF download (`Content-Disposition: attachment`, named by its number)',
  },
  html: {
    kind: 'html',
    id: 'Html',
    invoice: 'The invoice as a self-contained HTML page',
    creditNote: 'The credit note as a self-contained HTML page',
    what: 'as a self-contained HTML page (no script, no outside resource, its own Content-Security-Policy) to show or print in a browser',
  },
} as const;

export const documentsRoutes = area('documents', [
  ...(['pdf', 'html'] as const).flatMap((format) => [
    route({
      method: 'get',
      path: `/v1/invoices/:id/${format}`,
      operationId: `retrieveInvoice${FORMATS[format].id}`,
      tag: 'Invoices',
      summary: FORMATS[format].invoice,
      description: `Renders a finalized invoice (any status but draft) ${FORMATS[format].what}, with its lines and VAT breakdown, in \`locale\` en (default) or is. A draft has no document yet: 409 invalid_state. Rendered from the stored invoice on each request; changes nothing.`,
      auth: 'secret',
      query: documentQuery,
      kind: FORMATS[format].kind,
      errors: ['invalid_state'],
      use: ({ auth }) => [auth()],
      handler: () => async (ctx) => {
        const q = parseQuery(documentQuery, ctx.query);
        const doc = await loadInvoiceDocument(dbOf(ctx), tenantOf(ctx), pathId(ctx.params.id));
        await sendDocument(ctx, doc, format, (q.locale as DocumentLocale | undefined) ?? 'en');
      },
    }),
    route({
      method: 'get',
      path: `/v1/credit_notes/:id/${format}`,
      operationId: `retrieveCreditNote${FORMATS[format].id}`,
      tag: 'Credit notes',
      summary: FORMATS[format].creditNote,
      description: `Renders a credit note ${FORMATS[format].what}: the credited amount against its invoice, in \`locale\` en (default) or is. Rendered from the stored credit note on each request; changes nothing.`,
      auth: 'secret',
      query: documentQuery,
      kind: FORMATS[format].kind,
      use: ({ auth }) => [auth()],
      handler: () => async (ctx) => {
        const q = parseQuery(documentQuery, ctx.query);
        const doc = await loadCreditNoteDocument(dbOf(ctx), tenantOf(ctx), pathId(ctx.params.id));
        await sendDocument(ctx, doc, format, (q.locale as DocumentLocale | undefined) ?? 'en');
      },
    }),
  ]),
]);
