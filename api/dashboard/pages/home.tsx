// Home: MRR, revenue by month, new and canceled subscriptions, failed payments and invoices past
// due as charts, and the list of what needs attention.
import { invoiceDueDate } from '../../../src/billing/invoice-due';
import type { AppDeps } from '../../context';
import { billingOverview } from '../../../src/domain/dashboard-metrics/billing-overview';
import { needsAttention } from '../../../src/domain/dashboard-metrics/needs-attention';
import { amountRemaining } from '../../../src/billing/invoice-amounts';
import type { DashboardRouter } from '../index';
import { dash, requireSession } from '../session';
import { sendPage } from '../render';
import { Chart, IdText, Panel, money, month, when, day } from '../views/ui';
import { CustomerCell, customerNames } from '../views/tables';

export function homePages(router: DashboardRouter, deps: AppDeps): void {
  router.get('/', requireSession(deps), async (ctx) => {
    const d = dash(ctx);
    const now = new Date();
    const currency = d.merchant.defaultCurrency;
    const [o, attention] = await Promise.all([billingOverview(d.db, d.tenant, { currency, now }), needsAttention(d.db, d.tenant, now)]);
    const labels = o.months.map(month);
    const names = await customerNames(d.db, [
      ...attention.pastDueInvoices.map((i) => i.customerId),
      ...attention.failedPayments.map((p) => p.customerId),
      ...attention.troubledSubscriptions.map((s) => s.customerId),
    ]);
    const nothing = attention.pastDueInvoices.length + attention.failedPayments.length + attention.troubledSubscriptions.length + attention.failedDeliveries.length === 0;
    sendPage(ctx, d, {
      title: 'Home',
      active: '/dashboard',
      charts: true,
      body: (
        <>
          <div class="kpis">
            <div class="kpi">
              <div class="label">MRR ({currency})</div>
              <div class="value" id="kpi-mrr">
                {money(o.mrr, currency)}
              </div>
            </div>
            <div class="kpi">
              <div class="label">Subscriptions billing now</div>
              <div class="value" id="kpi-active">
                {o.activeSubscriptions}
              </div>
            </div>
            <div class="kpi">
              <div class="label">Revenue this month</div>
              <div class="value" id="kpi-revenue">
                {money(o.revenueByMonth[o.revenueByMonth.length - 1] ?? 0, currency)}
              </div>
            </div>
            <div class="kpi">
              <div class="label">Invoices past due</div>
              <div class="value" id="kpi-past-due">
                {o.pastDue.count} · {money(o.pastDue.amount, currency)}
              </div>
            </div>
          </div>
          {o.meteredSubscriptions > 0 ? (
            <p class="muted">
              MRR counts fixed-price items only: {o.meteredSubscriptions} subscription(s) also have usage-based or tiered items, billed by usage and not included.
            </p>
          ) : null}
          <Panel title="What needs attention" id="attention">
            {nothing ? (
              <p class="muted" id="attention-none">
                Nothing right now: no invoice past due, no failed payment this week, no subscription past due, no failed webhook delivery.
              </p>
            ) : (
              <ul class="attention">
                {attention.pastDueInvoices.map((i) => (
                  <li>
                    <CustomerCell id={i.customerId} names={names} /> — {money(amountRemaining(i), i.currency)} past due since {day(invoiceDueDate(i))} · invoice{' '}
                    <a href={`/dashboard/invoices/${i.id}`}>{i.number ?? i.id}</a>
                  </li>
                ))}
                {attention.failedPayments.map((p) => (
                  <li>
                    <CustomerCell id={p.customerId} names={names} /> — <a href={`/dashboard/payments/${p.id}`}>{money(p.amount, p.currency)} declined</a> (
                    {p.failureMessage ?? p.failureCode ?? 'declined'}), {when(p.createdAt)} <IdText id={p.id} />
                  </li>
                ))}
                {attention.troubledSubscriptions.map((s) => (
                  <li>
                    <CustomerCell id={s.customerId} names={names} /> — <a href={`/dashboard/subscriptions/${s.id}`}>subscription {s.status.replace('_', ' ')}</a>{' '}
                    <IdText id={s.id} />
                  </li>
                ))}
                {attention.failedDeliveries.map((w) => (
                  <li>
                    Webhook delivery <a href={`/dashboard/developers/deliveries?endpoint=${w.endpointId}`}>{w.id}</a> of {w.eventType} failed:{' '}
                    {w.lastError ?? `HTTP ${w.lastStatusCode ?? '—'}`}
                  </li>
                ))}
              </ul>
            )}
          </Panel>
          <div class="grid">
            <Panel title={`Revenue by month (${currency})`} id="chart-revenue-panel">
              <Chart id="chart-revenue" title="Revenue by month" spec={{ type: 'bar', labels, currency, series: [{ label: 'Paid invoices', data: o.revenueByMonth }] }} />
            </Panel>
            <Panel title="New and canceled subscriptions" id="chart-subs-panel">
              <Chart
                id="chart-subscriptions"
                title="New and canceled subscriptions"
                spec={{
                  type: 'bar',
                  labels,
                  series: [
                    { label: 'New', data: o.newSubscriptionsByMonth },
                    { label: 'Canceled', data: o.canceledSubscriptionsByMonth },
                  ],
                }}
              />
            </Panel>
            <Panel title="Failed payments" id="chart-failed-panel">
              <Chart id="chart-failed" title="Failed payments by month" spec={{ type: 'line', labels, series: [{ label: 'Failed payments', data: o.failedPaymentsByMonth }] }} />
            </Panel>
            <Panel title={`Invoices past due (${currency})`} id="chart-past-due-panel">
              <Chart
                id="chart-past-due"
                title="Invoices past due by days overdue"
                spec={{ type: 'bar', labels: o.pastDueAging.labels, currency, series: [{ label: 'Amount past due', data: o.pastDueAging.amounts }] }}
              />
            </Panel>
          </div>
        </>
      ),
    });
  });
}
