// Invoices and credit notes (filter by status; retry payment now and void through the one
// command path; the bank claim of a bank invoice; documents), payments and refunds (with a refund
// action), and usage per meter and customer as a chart.
import { invoiceDueDate } from '../../../src/billing/invoice-due';
import type { AppContext, AppDeps } from '../../context';
import { errors } from '../../../src/errors';
import { pageParams, parseBody, parseQuery, pathId, yup } from '../../validate';
import { listInvoicesQuery, INVOICE_STATUSES } from '../../routes/invoices/schemas';
import { listPaymentsQuery } from '../../routes/payments/schemas';
import { findInvoice, listInvoices } from '../../../src/domain/invoices/find-invoices';
import { payInvoiceNow } from '../../../src/domain/invoices/pay-invoice-now';
import { voidInvoice } from '../../../src/domain/invoices/void-invoice';
import { invoiceActionVerdict } from '../../../src/contracts/subscription-commands';
import { promisedRefunds, refundableAmount } from '../../../src/domain/refunds/refundable-amount';
import { pageCreditNotes } from '../../../src/domain/credit-notes/page-credit-notes';
import { findPayment, listPayments } from '../../../src/domain/payments/find-payments';
import { pageRefunds } from '../../../src/domain/refunds/page-refunds';
import { listRefunds } from '../../../src/domain/refunds/find-refunds';
import { listMeters } from '../../../src/domain/meters/manage-meters';
import { getMeterDailyUsage } from '../../../src/domain/meters/get-meter-quantities';
import { refundPayment } from '../../../src/domain/refunds/refund-payment';
import { PAYMENT_STATUSES } from '../../routes/payments/schemas';
import type { CreditNote, Refund } from '../../../src/generated/prisma/client';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, type Dashboard } from '../session';
import { field, queryParams } from '../http';
import { formPost } from '../forms';
import { redirectWithNotice, sendPage } from '../render';
import {
  ActionButton,
  Chart,
  Csrf,
  Field,
  FormErrors,
  Pager,
  Panel,
  Props,
  Status,
  Table,
  TextArea,
  day,
  money,
  period,
  statusWord,
  useLocale,
  when,
  type FormState,
} from '../views/ui';
import { CustomerCell, InvoicesTable, PaymentsTable, customerNames, failureText, paymentDescription } from '../views/tables';
import { fillText } from '../i18n';
import { documentQuery, sendDocument } from '../../routes/documents/router';
import { loadCreditNoteDocument, loadInvoiceDocument, type DocumentLocale } from '../../../src/documents';

function StatusFilter({
  action,
  statuses,
  current,
  hidden,
  search,
}: {
  action: string;
  statuses: readonly string[];
  current?: string;
  hidden?: Record<string, string | undefined>;
  /** A search box too: its current text and what it searches. */
  search?: { value?: string; placeholder: string };
}) {
  const { t } = useLocale();
  return (
    <form method="get" action={action} class="filters" role={search ? 'search' : undefined}>
      {search ? (
        <div class="field search">
          <label for="f-q">{t.search}</label>
          <input id="f-q" name="q" type="search" value={search.value ?? ''} maxLength={200} placeholder={search.placeholder} />
        </div>
      ) : null}
      <div class="field">
        <label for="f-status">{t.status}</label>
        <select id="f-status" name="status">
          <option value="">{t.every_status}</option>
          {statuses.map((s) => (
            <option value={s} selected={s === current}>
              {statusWord(s, t)}
            </option>
          ))}
        </select>
      </div>
      {Object.entries(hidden ?? {}).map(([k, v]) => (v ? <input type="hidden" name={k} value={v} /> : null))}
      <button type="submit" class="secondary" id="filter-button">
        {t.filter}
      </button>
    </form>
  );
}

async function invoicePage(ctx: AppContext, d: Dashboard, id: string, state?: FormState) {
  const { invoice: i, lines } = await findInvoice(d.db, id);
  const [claim, creditNotes] = await Promise.all([
    d.db.invoiceBankClaim.findFirst({ where: { invoiceId: i.id } }),
    d.db.creditNote.findMany({ where: { invoiceId: i.id }, orderBy: { createdAt: 'desc' }, take: 50 }),
  ]);
  const payment = i.paymentId ? await d.db.payment.findFirst({ where: { id: i.paymentId } }) : null;
  const names = await customerNames(d.db, [i.customerId]);
  const canAct = d.can('manage_billing') && i.subscriptionId !== null;
  const canPay = canAct && invoiceActionVerdict('pay', i.status) === 'apply';
  const canVoid = canAct && invoiceActionVerdict('void', i.status) === 'apply';
  const { t, locale } = d;
  sendPage(ctx, d, {
    title: fillText(t.invoice_title, { number: i.number ?? i.id }),
    active: '/dashboard/invoices',
    body: (
      <>
        <FormErrors state={state} />
        <Panel title={t.invoice} id="invoice">
          <Props
            rows={[
              [
                t.status,
                <span id="invoice-status">
                  <Status value={i.status} />
                </span>,
              ],
              [t.col_number, i.number],
              [t.col_customer, i.customerId ? <CustomerCell id={i.customerId} names={names} /> : null],
              [
                t.col_subscription,
                i.subscriptionId ? (
                  <a href={`/dashboard/subscriptions/${i.subscriptionId}`} class="mono">
                    {i.subscriptionId}
                  </a>
                ) : null,
              ],
              [
                t.col_payment,
                payment ? (
                  <a href={`/dashboard/payments/${payment.id}`} class="mono">
                    {payment.id}
                  </a>
                ) : null,
              ],
              [t.col_total, money(i.total, i.currency)],
              [t.col_paid, <span id="invoice-paid">{money(i.amountPaid, i.currency)}</span>],
              [t.col_period, period(i.periodStart, i.periodEnd, locale)],
              [t.col_due_date, day(invoiceDueDate(i), locale)],
              [t.col_attempts, String(i.attemptCount)],
              [t.col_next_attempt, when(i.nextPaymentAttemptAt, locale)],
              [t.col_paid_at, when(i.paidAt, locale)],
              [t.col_voided_at, when(i.voidedAt, locale)],
            ]}
          />
          {canPay || canVoid ? (
            <div class="actions" id="invoice-actions">
              {canPay ? (
                <ActionButton
                  action={`/dashboard/invoices/${i.id}/pay`}
                  csrf={d.csrf}
                  label={i.collectionMethod === 'send_invoice' ? t.check_bank_claim : t.retry_payment}
                  id="invoice-pay"
                  busy={t.collecting}
                />
              ) : null}
              {canVoid ? <ActionButton action={`/dashboard/invoices/${i.id}/void`} csrf={d.csrf} label={t.void_action} id="invoice-void" danger confirm={t.void_confirm} /> : null}
            </div>
          ) : null}
          {i.subscriptionId === null && i.status !== 'paid' ? <p class="muted">{t.invoice_of_payment}</p> : null}
        </Panel>
        <Panel title={t.documents} id="documents">
          {i.status === 'draft' ? <p class="muted">{t.draft_no_document}</p> : <DocumentLinks base={`/dashboard/invoices/${i.id}`} kind="invoice" />}
        </Panel>
        <Panel title={t.lines} id="lines">
          <Table
            caption={t.lines}
            rows={lines}
            empty={t.no_lines}
            columns={[
              { label: t.col_description, cell: (l) => l.description },
              { label: t.col_period, cell: (l) => (l.periodStart ? period(l.periodStart, l.periodEnd, locale) : '—') },
              { label: t.col_quantity, num: true, cell: (l) => String(l.quantity) },
              { label: t.col_unit, num: true, cell: (l) => (l.unitAmount === null ? '—' : money(l.unitAmount, l.currency)) },
              { label: t.col_amount, num: true, cell: (l) => money(l.amount, l.currency) },
            ]}
          />
        </Panel>
        {claim ? (
          <Panel title={t.bank_claim} id="bank-claim">
            <Props
              rows={[
                [t.col_claim, <span class="mono">{claim.claimId}</span>],
                [t.col_bank_reference, claim.bankReference],
                [t.col_due_date, day(claim.dueDate, locale)],
                [t.col_expires, day(claim.expiresAt, locale)],
                [t.col_issued, when(claim.createdAt, locale)],
              ]}
            />
          </Panel>
        ) : i.collectionMethod === 'send_invoice' ? (
          <Panel title={t.bank_claim} id="bank-claim">
            <p class="muted">{t.no_claim_yet}</p>
          </Panel>
        ) : null}
        <Panel title={t.credit_notes} id="invoice-credit-notes">
          <CreditNotesTable rows={creditNotes} ofInvoice />
        </Panel>
      </>
    ),
  });
}

/** Links to a document as PDF (a download) and HTML, in English and Icelandic. */
function DocumentLinks({ base, kind, compact }: { base: string; kind: 'invoice' | 'credit_note'; compact?: boolean }) {
  const { t } = useLocale();
  const links: Array<[string, string, string]> = compact
    ? [
        ['pdf', 'en', 'PDF'],
        ['html', 'en', 'HTML'],
      ]
    : [
        ['pdf', 'en', kind === 'invoice' ? t.doc_invoice_pdf : t.doc_credit_note_pdf],
        ['pdf', 'is', t.doc_pdf_is],
        ['html', 'en', t.doc_html],
        ['html', 'is', t.doc_html_is],
      ];
  return (
    <span class="doc-links">
      {links.map(([format, locale, label]) => (
        <a
          href={`${base}/document.${format}?locale=${locale}`}
          class={compact ? undefined : 'button secondary'}
          id={compact ? undefined : `document-${format}-${locale}`}
          download={format === 'pdf' ? '' : undefined}
          target={format === 'html' ? '_blank' : undefined}
          rel="noopener"
        >
          {label}
        </a>
      ))}
    </span>
  );
}

/** Credit notes; on an invoice's own page (`ofInvoice`) without the invoice column. */
function CreditNotesTable({ rows, ofInvoice }: { rows: CreditNote[]; ofInvoice?: boolean }) {
  const { t, locale } = useLocale();
  return (
    <Table<CreditNote>
      caption={t.credit_notes}
      rows={rows}
      empty={t.no_credit_notes}
      columns={[
        { label: t.col_credit_note, role: 'id', cell: (c) => <span class="mono id-text">{c.id}</span> },
        ...(ofInvoice
          ? []
          : [
              {
                label: t.col_invoice,
                cell: (c: CreditNote) => (
                  <a href={`/dashboard/invoices/${c.invoiceId}`} class="mono">
                    {c.invoiceId}
                  </a>
                ),
              },
            ]),
        { label: t.col_amount, num: true, role: 'amount', cell: (c) => money(c.amount, c.currency) },
        { label: t.status, role: 'status', cell: (c) => <Status value={c.status} /> },
        { label: t.col_reason, cell: (c) => c.reason ?? '—' },
        { label: t.col_issued, cell: (c) => when(c.createdAt, locale) },
        { label: t.col_document, cell: (c) => <DocumentLinks base={`/dashboard/credit-notes/${c.id}`} kind="credit_note" compact /> },
      ]}
    />
  );
}

function RefundsTable({ rows }: { rows: Refund[] }) {
  const { t, locale } = useLocale();
  return (
    <Table<Refund>
      caption={t.refunds}
      rows={rows}
      empty={t.no_refunds}
      columns={[
        { label: t.col_refund, role: 'id', cell: (r) => <span class="mono id-text">{r.id}</span> },
        {
          label: t.col_payment,
          cell: (r) => (
            <a href={`/dashboard/payments/${r.paymentId}`} class="mono">
              {r.paymentId}
            </a>
          ),
        },
        { label: t.col_amount, num: true, role: 'amount', cell: (r) => money(r.amount, r.currency) },
        { label: t.status, role: 'status', cell: (r) => <Status value={r.status} /> },
        { label: t.col_reason, cell: (r) => r.reason ?? '—' },
        { label: t.col_failure, cell: (r) => r.failureMessage ?? '—' },
        { label: t.col_created, cell: (r) => when(r.createdAt, locale) },
      ]}
    />
  );
}

async function paymentPage(ctx: AppContext, d: Dashboard, id: string, state?: FormState) {
  const { payment: p, invoiceId } = await findPayment(d.db, id);
  const refunds = (await listRefunds(d.db, { paymentId: p.id }, { limit: 100 })).data;
  const left = refundableAmount(p, promisedRefunds(refunds));
  const refundable = left > 0n;
  const names = await customerNames(d.db, [p.customerId]);
  const { t, locale } = d;
  sendPage(ctx, d, {
    title: fillText(t.payment_title, { id: p.id }),
    active: '/dashboard/payments',
    body: (
      <>
        <Panel title={t.payment} id="payment">
          <Props
            rows={[
              [
                t.status,
                <span id="payment-status">
                  <Status value={p.status} />
                </span>,
              ],
              [t.col_amount, money(p.amount, p.currency)],
              [t.col_refunded, money(p.amountRefunded, p.currency)],
              [t.col_customer, p.customerId ? <CustomerCell id={p.customerId} names={names} /> : null],
              [
                t.col_invoice,
                invoiceId ? (
                  <a href={`/dashboard/invoices/${invoiceId}`} class="mono">
                    {invoiceId}
                  </a>
                ) : null,
              ],
              [t.col_description, paymentDescription(p.description, t)],
              [t.col_payment_attempts, String(p.attemptCount)],
              [t.col_failure, failureText(p, t)],
              [t.col_succeeded_at, when(p.succeededAt, locale)],
              [t.col_created, when(p.createdAt, locale)],
            ]}
          />
        </Panel>
        <Panel title={t.refunds} id="payment-refunds">
          <RefundsTable rows={refunds} />
        </Panel>
        {refundable && d.can('manage_billing') ? (
          <Panel title={t.refund} id="refund">
            <form method="post" action={`/dashboard/payments/${p.id}/refund`} id="refund-form" data-busy={t.refunding} data-confirm={t.refund_confirm}>
              <Csrf token={d.csrf} />
              <FormErrors state={state} />
              <Field
                name="amount"
                label={t.refund_amount}
                state={state}
                hint={fillText(t.refund_amount_hint, { amount: money(left, p.currency), minor: String(left) })}
                input={{ inputmode: 'numeric', pattern: '[0-9]*' }}
              />
              <TextArea name="reason" label={t.refund_reason} state={state} />
              <button type="submit" id="refund-button">
                {t.refund}
              </button>
            </form>
          </Panel>
        ) : state ? (
          <FormErrors state={state} />
        ) : null}
      </>
    ),
  });
}

const refundFormSchema = yup.object({
  amount: yup.number().integer().min(1).nullable(),
  reason: yup.string().max(200).nullable(),
});

export function billingPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);

  router.get('/invoices', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['status', 'customer', 'subscription', 'q', 'starting_after']);
    const { q, ...apiQuery } = query;
    const filter = parseQuery(listInvoicesQuery, apiQuery);
    const page = await listInvoices(d.db, { status: filter.status, customerId: filter.customer, subscriptionId: filter.subscription, search: q }, pageParams(query));
    const names = await customerNames(
      d.db,
      page.data.map((i) => i.customerId),
    );
    const t = d.t;
    sendPage(ctx, d, {
      title: t.invoices,
      active: '/dashboard/invoices',
      body: (
        <Panel title={q ? fillText(t.invoices_matching, { q }) : t.invoices} id="invoices">
          <StatusFilter
            action="/dashboard/invoices"
            statuses={INVOICE_STATUSES}
            current={filter.status}
            hidden={{ customer: filter.customer, subscription: filter.subscription }}
            search={{ value: q, placeholder: t.invoices_search_placeholder }}
          />
          <InvoicesTable rows={page.data} names={names} empty={q ? t.no_invoice_matches : undefined} />
          <Pager basePath="/dashboard/invoices" query={query} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  });

  router.get('/invoices/:id', session, async (ctx) => invoicePage(ctx, dash(ctx), pathId(ctx.params.id)));

  for (const [suffix, label, run, notice] of [
    ['pay', 'invoice.pay', payInvoiceNow, 'invoice_paid'],
    ['void', 'invoice.void', voidInvoice, 'invoice_voided'],
  ] as const) {
    router.post(`/invoices/:id/${suffix}`, session, async (ctx) => {
      const d = dash(ctx);
      const id = pathId(ctx.params.id);
      await formPost(
        ctx,
        d,
        {
          permission: 'manage_billing',
          action: label,
          objectType: 'invoice',
          objectId: id,
          // A finished subscription's invoice is charged (or its claim canceled) right here: no transaction open meanwhile.
          stepwise: true,
          run: async (_tx, _after, scope) => run(deps, scope, id),
        },
        { fields: [], success: () => redirectWithNotice(ctx, `/dashboard/invoices/${id}`, notice), failure: (state) => invoicePage(ctx, d, id, state) },
      );
    });
  }

  // Documents, for a dashboard session: the same loaders and renderer as the API and the portal,
  // in the session's tenant (another merchant's or mode's id is unknown: 404).
  for (const format of ['pdf', 'html'] as const) {
    router.get(`/invoices/:id/document.${format}`, session, async (ctx) => {
      const d = dash(ctx);
      const q = parseQuery(documentQuery, ctx.query);
      await sendDocument(ctx, await loadInvoiceDocument(d.db, d.tenant, pathId(ctx.params.id)), format, (q.locale as DocumentLocale | undefined) ?? 'en');
    });
    router.get(`/credit-notes/:id/document.${format}`, session, async (ctx) => {
      const d = dash(ctx);
      const q = parseQuery(documentQuery, ctx.query);
      await sendDocument(ctx, await loadCreditNoteDocument(d.db, d.tenant, pathId(ctx.params.id)), format, (q.locale as DocumentLocale | undefined) ?? 'en');
    });
  }

  router.get('/credit-notes', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['status', 'invoice', 'starting_after']);
    const status = parseQuery(yup.object({ status: yup.string().oneOf(['issued', 'void'] as const, 'status must be issued or void') }), query).status;
    const page = await pageCreditNotes(d.db, { status, invoiceId: query.invoice }, pageParams(query));
    sendPage(ctx, d, {
      title: d.t.credit_notes,
      active: '/dashboard/credit-notes',
      body: (
        <Panel title={d.t.credit_notes} id="credit-notes">
          <StatusFilter action="/dashboard/credit-notes" statuses={['issued', 'void']} current={status} />
          <CreditNotesTable rows={page.data} />
          <Pager basePath="/dashboard/credit-notes" query={query} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  });

  router.get('/payments', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['status', 'customer', 'starting_after']);
    const filter = parseQuery(listPaymentsQuery, query);
    const page = await listPayments(d.db, { status: filter.status, customerId: filter.customer }, pageParams(query));
    const names = await customerNames(
      d.db,
      page.data.map((p) => p.payment.customerId),
    );
    sendPage(ctx, d, {
      title: d.t.payments,
      active: '/dashboard/payments',
      body: (
        <Panel title={d.t.payments} id="payments">
          <StatusFilter action="/dashboard/payments" statuses={PAYMENT_STATUSES} current={filter.status} hidden={{ customer: filter.customer }} />
          <PaymentsTable rows={page.data.map((p) => p.payment)} names={names} />
          <Pager basePath="/dashboard/payments" query={query} hasMore={page.hasMore} lastId={page.data.at(-1)?.payment.id} />
        </Panel>
      ),
    });
  });

  router.get('/payments/:id', session, async (ctx) => paymentPage(ctx, dash(ctx), pathId(ctx.params.id)));

  router.post('/payments/:id/refund', session, async (ctx) => {
    const d = dash(ctx);
    const id = pathId(ctx.params.id);
    await formPost(
      ctx,
      d,
      {
        permission: 'manage_billing',
        action: 'refund.create',
        objectType: 'payment',
        objectId: id,
        run: async (_tx, _after, scope) => {
          const raw = field(d.form, 'amount').trim();
          // The form's own checks, in the page's language (the domain's refusals stay the API's).
          if (raw !== '' && !/^\d{1,16}$/.test(raw)) throw errors.validationFailed(d.t.refund_amount_whole, 'amount');
          if (raw !== '' && Number(raw) < 1) throw errors.validationFailed(d.t.refund_amount_min, 'amount');
          const input = parseBody(refundFormSchema, { amount: raw === '' ? null : Number(raw), reason: field(d.form, 'reason') || null });
          return refundPayment(deps, scope, { paymentId: id, amount: input.amount ?? null, reason: input.reason ?? null });
        },
        detail: (r) => ({ refund: r.id, amount: String(r.amount), currency: r.currency }),
      },
      { fields: ['amount', 'reason'], success: () => redirectWithNotice(ctx, `/dashboard/payments/${id}`, 'refund_created'), failure: (state) => paymentPage(ctx, d, id, state) },
    );
  });

  router.get('/refunds', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['starting_after']);
    const page = await pageRefunds(d.db, {}, pageParams(query));
    sendPage(ctx, d, {
      title: d.t.refunds,
      active: '/dashboard/refunds',
      body: (
        <Panel title={d.t.refunds} id="refunds">
          <RefundsTable rows={page.data} />
          <Pager basePath="/dashboard/refunds" query={query} hasMore={page.hasMore} lastId={page.data.at(-1)?.id} />
        </Panel>
      ),
    });
  });

  router.get('/usage', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['meter', 'customer', 'days']);
    const meters = await listMeters(d.db, { limit: 100 }, { includeArchived: false });
    const days = Math.min(90, Math.max(7, Number(query.days ?? 30) || 30));
    let chart: { labels: string[]; data: number[]; unit: string } | null = null;
    let error: string | null = null;
    if (query.meter && query.customer) {
      try {
        // One statement for every day, from the hourly rollups (docs/metering.md).
        const usage = await getMeterDailyUsage(d.db, d.tenant, { meterId: query.meter, customerId: query.customer, days, now: new Date() });
        chart = {
          labels: usage.days.map((x) => x.day.toISOString().slice(5, 10)),
          data: usage.days.map((x) => Number(x.quantity ?? 0)),
          unit: usage.meter.unitLabel ?? d.t.units,
        };
      } catch (err) {
        if (!(err as { code?: string }).code) throw err;
        error = (err as Error).message;
      }
    }
    const t = d.t;
    sendPage(ctx, d, {
      title: t.usage_title,
      active: '/dashboard/usage',
      charts: true,
      body: (
        <Panel title={t.usage_heading} id="usage">
          <form method="get" action="/dashboard/usage" class="filters">
            <div class="field">
              <label for="f-meter">{t.meter}</label>
              <select id="f-meter" name="meter">
                <option value="">{t.choose_meter}</option>
                {meters.data.map((m) => (
                  <option value={m.id} selected={m.id === query.meter}>
                    {m.name} ({m.eventName})
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="f-customer">{t.customer_id}</label>
              <input id="f-customer" name="customer" type="text" value={query.customer ?? ''} placeholder="cus_…" maxLength={255} />
            </div>
            <div class="field">
              <label for="f-days">{t.days}</label>
              <input id="f-days" name="days" type="number" min={7} max={90} value={String(days)} />
            </div>
            <button type="submit" class="secondary" id="usage-button">
              {t.show}
            </button>
          </form>
          {error ? (
            <div class="form-error" role="alert">
              {error}
            </div>
          ) : null}
          {chart ? (
            <Chart id="chart-usage" title={t.usage_chart} spec={{ type: 'bar', labels: chart.labels, series: [{ label: chart.unit, data: chart.data }] }} />
          ) : (
            <p class="muted">{t.usage_choose}</p>
          )}
          {meters.data.length === 0 ? <p class="muted">{t.no_meters}</p> : null}
        </Panel>
      ),
    });
  });
}
