// Exports for the accountant (docs/exports.md): a period's invoices, payments, refunds, credit
// notes, ledger entries and trial balance as CSV, and its invoice PDFs as one ZIP, streamed by the
// same functions as GET /v1/exports/…. Finance and owners download; every download is written to
// the audit log; other roles see the page and are told who can.
import type { AppContext, AppDeps } from '../../context';
import { CSV_EXPORTS, type CsvExportKind } from '../../../src/domain/exports/csv-export';
import { parseExportPeriod, previousMonth, type ExportPeriod } from '../../../src/domain/exports/period';
import { recordAuditEntry } from '../../../src/domain/dashboard-audit/record-audit-entry';
import type { DocumentLocale } from '../../../src/documents';
import { ApiError } from '../../../src/errors';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, assertPermission, type Dashboard } from '../session';
import { queryParams } from '../http';
import { sendPage } from '../render';
import { FormErrors, Panel } from '../views/ui';
import type { DashboardMessages } from '../i18n';
import { sendCsvExport, sendInvoiceDocumentsZip } from '../../routes/exports/router';

const LABELS: Record<CsvExportKind, [keyof DashboardMessages, keyof DashboardMessages]> = {
  invoices: ['ex_invoices', 'ex_invoices_about'],
  payments: ['ex_payments', 'ex_payments_about'],
  refunds: ['ex_refunds', 'ex_refunds_about'],
  credit_notes: ['ex_credit_notes', 'ex_credit_notes_about'],
  ledger_entries: ['ex_ledger_entries', 'ex_ledger_entries_about'],
  trial_balance: ['ex_trial_balance', 'ex_trial_balance_about'],
};

function exportsPage(ctx: AppContext, d: Dashboard, range: { from: string; to: string }, formError?: string) {
  const qs = `from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;
  const allowed = d.can('export_books');
  const t = d.t;
  sendPage(ctx, d, {
    title: t.exports,
    active: '/dashboard/exports',
    status: formError ? 400 : 200,
    body: (
      <>
        <Panel title={t.export_period} id="export-period">
          <FormErrors state={formError ? { formError } : undefined} />
          <form method="get" action="/dashboard/exports" class="filters">
            <div class="field">
              <label for="f-from">{t.first_day}</label>
              <input id="f-from" name="from" type="date" value={range.from} required />
            </div>
            <div class="field">
              <label for="f-to">{t.last_day}</label>
              <input id="f-to" name="to" type="date" value={range.to} required />
            </div>
            <button type="submit" class="secondary" id="export-period-button">
              {t.choose}
            </button>
          </form>
          <p class="muted">{t.export_about}</p>
        </Panel>
        <Panel title={t.download} id="export-downloads">
          {!allowed ? (
            <p id="export-not-allowed">{t.export_not_allowed}</p>
          ) : formError ? (
            <p class="muted">{t.export_choose_valid}</p>
          ) : (
            <ul class="export-list">
              {CSV_EXPORTS.map((kind) => (
                <li>
                  <a href={`/dashboard/exports/${kind}.csv?${qs}`} download="" id={`export-${kind}`}>
                    {t[LABELS[kind][0]]} (CSV)
                  </a>{' '}
                  <span class="muted">— {t[LABELS[kind][1]]}</span>
                </li>
              ))}
              <li>
                <a href={`/dashboard/exports/invoice_documents.zip?${qs}&locale=is`} download="" id="export-invoice-documents-is">
                  {t.ex_zip_is}
                </a>{' '}
                ·{' '}
                <a href={`/dashboard/exports/invoice_documents.zip?${qs}&locale=en`} download="" id="export-invoice-documents-en">
                  {t.ex_zip_en}
                </a>{' '}
                <span class="muted">— {t.ex_zip_about}</span>
              </li>
            </ul>
          )}
        </Panel>
      </>
    ),
  });
}

export function exportPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);

  router.get('/exports', session, async (ctx) => {
    const d = dash(ctx);
    const q = queryParams(ctx, ['from', 'to']);
    const range = q.from || q.to ? { from: q.from ?? '', to: q.to ?? '' } : previousMonth(new Date());
    try {
      parseExportPeriod(range);
    } catch (err) {
      if (err instanceof ApiError) return exportsPage(ctx, d, range, err.message);
      throw err;
    }
    exportsPage(ctx, d, range);
  });

  async function allow(ctx: AppContext, kind: string): Promise<{ d: Dashboard; period: ExportPeriod }> {
    const d = dash(ctx);
    const q = queryParams(ctx, ['from', 'to', 'locale']);
    const entry = {
      merchantId: d.merchant.id,
      objectMode: d.tenant.mode,
      actorUserId: d.user.id,
      actorEmail: d.user.email,
      action: 'export.download',
      objectType: 'export',
      objectId: null,
      ip: d.ip,
      userAgent: d.userAgent,
    };
    try {
      assertPermission(d, 'export_books');
    } catch (err) {
      await recordAuditEntry(d.deps.db, { ...entry, outcome: 'denied', detail: { kind, code: (err as ApiError).code } });
      throw err;
    }
    const period = parseExportPeriod(q);
    await recordAuditEntry(d.deps.db, { ...entry, outcome: 'succeeded', detail: { kind, from: period.firstDay, to: period.lastDay } });
    return { d, period };
  }

  for (const kind of CSV_EXPORTS) {
    router.get(`/exports/${kind}.csv`, session, async (ctx) => {
      const { d, period } = await allow(ctx, kind);
      sendCsvExport(ctx, d.db, d.tenant, kind, period);
    });
  }
  router.get('/exports/invoice_documents.zip', session, async (ctx) => {
    const { d, period } = await allow(ctx, 'invoice_documents');
    const locale: DocumentLocale = ctx.query.locale === 'is' ? 'is' : 'en';
    await sendInvoiceDocumentsZip(ctx, d.db, d.tenant, period, locale);
  });
}
