// Home: MRR, revenue by month, new and canceled subscriptions, failed payments and invoices past
// due as charts, and the list of what needs attention.
import { invoiceDueDate } from '../../../src/billing/invoice-due';
import type { AppDeps } from '../../context';
import { billingOverview } from '../../../src/domain/dashboard-metrics/billing-overview';
import { needsAttention } from '../../../src/domain/dashboard-metrics/needs-attention';
import { amountRemaining } from '../../../src/billing/invoice-amounts';
import type { DashboardRouter } from '../router-types';
import { fillText } from '../i18n';
import { dash, requireSession } from '../session';
import { sendPage } from '../render';
import { Chart, IdText, Panel, money, month, statusWord, when, day } from '../views/ui';
import { CustomerCell, customerNames, failureText } from '../views/tables';

export function homePages(router: DashboardRouter, deps: AppDeps): void {
  router.get('/', requireSession(deps), async (ctx) => {
    const d = dash(ctx);
    const now = new Date();
    const currency = d.merchant.defaultCurrency;
    const [o, attention] = await Promise.all([billingOverview(d.db, d.tenant, { currency, now }), needsAttention(d.db, d.tenant, now)]);
    const t = d.t;
    const labels = o.months.map((m) => month(m, d.locale));
    const agingLabels = [t.aging_0, t.aging_1, t.aging_2, t.aging_3];
    const names = await customerNames(d.db, [
      ...attention.pastDueInvoices.map((i) => i.customerId),
      ...attention.failedPayments.map((p) => p.customerId),
      ...attention.troubledSubscriptions.map((s) => s.customerId),
    ]);
    const nothing = attention.pastDueInvoices.length + attention.failedPayments.length + attention.troubledSubscriptions.length + attention.failedDeliveries.length === 0;
    sendPage(ctx, d, {
      title: t.home,
      active: '/dashboard',
      charts: true,
      body: (
        <>
          <div class="kpis">
            <div class="kpi">
              <div class="label">{fillText(t.kpi_mrr, { currency })}</div>
              <div class="value" id="kpi-mrr">
                {money(o.mrr, currency)}
              </div>
            </div>
            <div class="kpi">
              <div class="label">{t.kpi_active}</div>
              <div class="value" id="kpi-active">
                {o.activeSubscriptions}
              </div>
            </div>
            <div class="kpi">
              <div class="label">{t.kpi_revenue}</div>
              <div class="value" id="kpi-revenue">
                {money(o.revenueByMonth[o.revenueByMonth.length - 1] ?? 0, currency)}
              </div>
            </div>
            <div class="kpi">
              <div class="label">{t.kpi_past_due}</div>
              <div class="value" id="kpi-past-due">
                {o.pastDue.count} · {money(o.pastDue.amount, currency)}
              </div>
            </div>
          </div>
          {o.meteredSubscriptions > 0 ? <p class="muted">{fillText(t.metered_note, { count: o.meteredSubscriptions })}</p> : null}
          <Panel title={t.attention} id="attention">
            {nothing ? (
              <p class="muted" id="attention-none">
                {t.attention_none}
              </p>
            ) : (
              <ul class="attention">
                {attention.pastDueInvoices.map((i) => (
                  <li>
                    <CustomerCell id={i.customerId} names={names} /> — {money(amountRemaining(i), i.currency)}{' '}
                    {fillText(t.past_due_since, { date: day(invoiceDueDate(i), d.locale) })} <a href={`/dashboard/invoices/${i.id}`}>{i.number ?? i.id}</a>
                  </li>
                ))}
                {attention.failedPayments.map((p) => (
                  <li>
                    <CustomerCell id={p.customerId} names={names} /> —{' '}
                    <a href={`/dashboard/payments/${p.id}`}>
                      {money(p.amount, p.currency)} {t.declined}
                    </a>{' '}
                    ({failureText(p, t) ?? p.failureCode ?? t.declined}), {when(p.createdAt, d.locale)} <IdText id={p.id} />
                  </li>
                ))}
                {attention.troubledSubscriptions.map((s) => (
                  <li>
                    <CustomerCell id={s.customerId} names={names} /> —{' '}
                    <a href={`/dashboard/subscriptions/${s.id}`}>{fillText(t.subscription_status, { status: statusWord(s.status, t) })}</a> <IdText id={s.id} />
                  </li>
                ))}
                {attention.failedDeliveries.map((w) => (
                  <li>
                    {t.att_delivery} <a href={`/dashboard/developers/deliveries?endpoint=${w.endpointId}`}>{w.id}</a> {fillText(t.att_delivery_failed, { type: w.eventType })}{' '}
                    {w.lastError ?? `HTTP ${w.lastStatusCode ?? '—'}`}
                  </li>
                ))}
              </ul>
            )}
          </Panel>
          <div class="grid">
            <Panel title={fillText(t.chart_revenue, { currency })} id="chart-revenue-panel">
              <Chart
                id="chart-revenue"
                title={t.chart_revenue_title}
                emptyText={t.nothing_yet}
                spec={{ type: 'bar', labels, currency, series: [{ label: t.series_paid, data: o.revenueByMonth }] }}
              />
            </Panel>
            <Panel title={t.chart_subs} id="chart-subs-panel">
              <Chart
                id="chart-subscriptions"
                title={t.chart_subs}
                emptyText={t.nothing_yet}
                spec={{
                  type: 'bar',
                  labels,
                  series: [
                    { label: t.series_new, data: o.newSubscriptionsByMonth },
                    { label: t.series_canceled, data: o.canceledSubscriptionsByMonth },
                  ],
                }}
              />
            </Panel>
            <Panel title={t.chart_failed} id="chart-failed-panel">
              <Chart
                id="chart-failed"
                title={t.chart_failed_title}
                emptyText={t.nothing_yet}
                spec={{ type: 'line', labels, series: [{ label: t.chart_failed, data: o.failedPaymentsByMonth }] }}
              />
            </Panel>
            <Panel title={fillText(t.chart_past_due, { currency })} id="chart-past-due-panel">
              <Chart
                id="chart-past-due"
                title={t.chart_past_due_title}
                emptyText={t.nothing_yet}
                spec={{ type: 'bar', labels: agingLabels, currency, series: [{ label: t.series_past_due, data: o.pastDueAging.amounts }] }}
              />
            </Panel>
          </div>
        </>
      ),
    });
  });
}
