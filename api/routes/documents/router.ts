// Invoice and credit note documents through the API (docs/invoice-documents.md), secret key:
//   GET /v1/invoices/{id}/pdf        application/pdf   (finalized invoices; a draft → 409 invalid_state)
//   GET /v1/invoices/{id}/html       text/html         (a self-contained page, no script)
//   GET /v1/credit_notes/{id}/pdf    application/pdf
//   GET /v1/credit_notes/{id}/html   text/html
// Query `locale`: `is` or `en` (default `en`).
import Router from '@koa/router';
import type { AppContext, AppDeps, AppState } from '../../context';
import { dbOf, tenantOf } from '../../context';
import type { Auth } from '../../middleware/auth';
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

export function documentsRoutes(router: Router<AppState>, _deps: AppDeps, auth: Auth): void {
  for (const format of ['pdf', 'html'] as const) {
    router.get(`/v1/invoices/:id/${format}`, auth(), async (ctx) => {
      const q = parseQuery(documentQuery, ctx.query);
      const doc = await loadInvoiceDocument(dbOf(ctx), tenantOf(ctx), pathId(ctx.params.id));
      await sendDocument(ctx, doc, format, (q.locale as DocumentLocale | undefined) ?? 'en');
    });
    router.get(`/v1/credit_notes/:id/${format}`, auth(), async (ctx) => {
      const q = parseQuery(documentQuery, ctx.query);
      const doc = await loadCreditNoteDocument(dbOf(ctx), tenantOf(ctx), pathId(ctx.params.id));
      await sendDocument(ctx, doc, format, (q.locale as DocumentLocale | undefined) ?? 'en');
    });
  }
}
