// Subscriptions: filter by status; a subscription's items, periods, the next invoice preview, a
// link to its workflow in the Temporal Web UI; cancel (now or at period end), uncancel, pause and
// resume through the one command path (runSubscriptionCommand), offered as its rules allow.
import type { AppContext, AppDeps } from '../../context';
import { pageParams, parseQuery, pathId } from '../../validate';
import { listSubscriptionsQuery } from '../../routes/subscriptions/schemas';
import { findSubscriptionWithItems, listSubscriptions } from '../../../src/domain/subscriptions/find-subscriptions';
import { runSubscriptionCommand, type SubscriptionChangeCommand } from '../../../src/domain/subscriptions/run-subscription-command';
import { previewNextInvoice } from '../../../src/domain/subscriptions/preview-next-invoice';
import { listInvoices } from '../../../src/domain/invoices/find-invoices';
import { commandRefusal } from '../../../src/contracts/subscription-commands';
import { subscriptionWorkflowId } from '../../../src/domain/subscriptions/workflow-lifecycle';
import type { DashboardRouter } from '../router-types';
import { dash, requireSession, type Dashboard } from '../session';
import { queryParams } from '../http';
import { formPost } from '../forms';
import { redirectWithNotice, sendPage } from '../render';
import { ActionButton, FormErrors, Pager, Panel, Props, Status, Table, money, period, statusWord, when, type FormState } from '../views/ui';
import { fillText, type DashboardMessages } from '../i18n';
import { CustomerCell, InvoicesTable, SubscriptionsTable, customerNames, planPrices } from '../views/tables';

const STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'] as const;

export function temporalWorkflowUrl(d: Dashboard, workflowId: string): string {
  const query = encodeURIComponent(`WorkflowId="${workflowId}"`);
  return `${d.deps.config.temporalUiUrl}/namespaces/${encodeURIComponent(d.deps.config.temporalNamespace)}/workflows?query=${query}`;
}

type Text = keyof DashboardMessages;
const ACTIONS: Array<{ path: string; label: Text; command: SubscriptionChangeCommand; confirm?: Text; danger?: boolean }> = [
  { path: 'cancel-at-period-end', label: 'cancel_at_period_end', command: { kind: 'cancel', atPeriodEnd: true }, confirm: 'cancel_at_period_end_confirm' },
  { path: 'cancel-now', label: 'cancel_now', command: { kind: 'cancel', atPeriodEnd: false }, confirm: 'cancel_now_confirm', danger: true },
  { path: 'uncancel', label: 'uncancel', command: { kind: 'uncancel' } },
  { path: 'pause', label: 'pause', command: { kind: 'pause' }, confirm: 'pause_confirm' },
  { path: 'resume', label: 'resume', command: { kind: 'resume' } },
];

async function subscriptionPage(ctx: AppContext, d: Dashboard, id: string, state?: FormState) {
  const { subscription: s, items } = await findSubscriptionWithItems(d.db, id);
  const prices = items.length ? await d.db.price.findMany({ where: { id: { in: items.map((i) => i.priceId) } }, include: { product: true } }) : [];
  const priceById = new Map(prices.map((p) => [p.id, p]));
  const [preview, invoices, names] = await Promise.all([
    previewNextInvoice(d.db, d.tenant, s.id),
    listInvoices(d.db, { subscriptionId: s.id }, { limit: 10 }),
    customerNames(d.db, [s.customerId]),
  ]);
  const canAct = d.can('manage_billing');
  const possible = ACTIONS.filter((a) => commandRefusal({ status: s.status, cancelAtPeriodEnd: s.cancelAtPeriodEnd }, a.command) === null).filter(
    // Canceling is allowed twice by the rules (a no-op); offer it only while it changes something.
    (a) => a.command.kind !== 'cancel' || (s.status !== 'canceled' && !(a.command.atPeriodEnd && s.cancelAtPeriodEnd)),
  );
  const { t, locale } = d;
  sendPage(ctx, d, {
    title: fillText(t.subscription_title, { id: s.id }),
    active: '/dashboard/subscriptions',
    body: (
      <>
        <FormErrors state={state} />
        <Panel title={t.subscription} id="subscription">
          <Props
            rows={[
              [
                t.status,
                <span id="subscription-status">
                  <Status value={s.status} />
                </span>,
              ],
              [t.col_customer, <CustomerCell id={s.customerId} names={names} />],
              [t.col_collection, s.collectionMethod === 'send_invoice' ? fillText(t.collection_bank, { days: s.daysUntilDue ?? '—' }) : t.collection_card],
              [t.col_current_period, `${when(s.currentPeriodStart, locale)} – ${when(s.currentPeriodEnd, locale)}`],
              [t.col_trial, s.trialEnd ? period(s.trialStart, s.trialEnd, locale) : null],
              [t.col_cancels_at_end, s.cancelAtPeriodEnd ? t.yes : t.no],
              [t.col_canceled, when(s.canceledAt, locale)],
              [t.col_paused_since, when(s.pausedAt, locale)],
              [t.col_started, when(s.startDate, locale)],
              [t.col_test_clock, s.testClockId],
              [
                t.col_workflow,
                <a href={temporalWorkflowUrl(d, subscriptionWorkflowId(s.id))} id="workflow-link" rel="noopener" target="_blank">
                  {fillText(t.workflow_in_ui, { id: subscriptionWorkflowId(s.id) })}
                </a>,
              ],
            ]}
          />
          {canAct && possible.length > 0 ? (
            <div class="actions" id="subscription-actions">
              {possible.map((a) => (
                <ActionButton
                  action={`/dashboard/subscriptions/${s.id}/${a.path}`}
                  csrf={d.csrf}
                  label={t[a.label]}
                  id={`sub-${a.path}`}
                  confirm={a.confirm ? t[a.confirm] : undefined}
                  danger={a.danger}
                  busy={t.working}
                />
              ))}
            </div>
          ) : null}
        </Panel>
        <Panel title={t.items} id="items">
          <Table
            caption={t.items}
            rows={items}
            empty={t.no_items}
            columns={[
              { label: t.col_product, cell: (i) => priceById.get(i.priceId)?.product.name ?? i.priceId },
              {
                label: t.col_price,
                cell: (i) => {
                  const p = priceById.get(i.priceId);
                  return p?.unitAmount != null
                    ? `${money(p.unitAmount, p.currency)}${p.recurringUsageType === 'metered' ? ` ${t.per_unit}` : ''}`
                    : p?.tiersMode
                      ? fillText(t.tiered, { mode: p.tiersMode })
                      : '—';
                },
              },
              { label: t.col_quantity, num: true, cell: (i) => (priceById.get(i.priceId)?.recurringUsageType === 'metered' ? t.metered : i.quantity) },
              { label: t.col_since, nowrap: true, cell: (i) => when(i.createdAt, locale) },
            ]}
          />
        </Panel>
        <Panel title={t.next_invoice} id="next-invoice">
          {preview ? (
            <>
              <p>
                {fillText(t.preview_at, { when: when(s.currentPeriodEnd, locale) })} <strong id="preview-total">{money(preview.invoice.total, preview.invoice.currency)}</strong>{' '}
                {fillText(t.preview_for, { period: period(preview.invoice.periodStart, preview.invoice.periodEnd, locale) })}
              </p>
              <Table
                caption={t.preview_lines}
                rows={preview.lines}
                empty={t.no_lines}
                columns={[
                  { label: t.col_line, cell: (l) => l.description },
                  { label: t.col_quantity, num: true, cell: (l) => String(l.quantity) },
                  { label: t.col_amount, num: true, cell: (l) => money(l.amount, l.currency) },
                ]}
              />
            </>
          ) : (
            <p class="muted" id="preview-none">
              {fillText(t.preview_none, {
                why: s.status === 'canceled' ? t.why_canceled : s.status === 'paused' ? t.why_paused : s.status === 'unpaid' ? t.why_unpaid : t.why_nothing,
              })}
            </p>
          )}
        </Panel>
        <Panel title={t.invoices} id="subscription-invoices">
          <InvoicesTable rows={invoices.data} names={names} />
        </Panel>
      </>
    ),
  });
}

export function subscriptionPages(router: DashboardRouter, deps: AppDeps): void {
  const session = requireSession(deps);

  router.get('/subscriptions', session, async (ctx) => {
    const d = dash(ctx);
    const query = queryParams(ctx, ['status', 'customer', 'starting_after']);
    const filter = parseQuery(listSubscriptionsQuery, query);
    const page = await listSubscriptions(d.db, { customerId: filter.customer, status: filter.status }, pageParams(query));
    const [names, prices] = await Promise.all([
      customerNames(
        d.db,
        page.data.map((s) => s.subscription.customerId),
      ),
      planPrices(d.db, page.data),
    ]);
    const t = d.t;
    sendPage(ctx, d, {
      title: t.subscriptions,
      active: '/dashboard/subscriptions',
      body: (
        <Panel title={t.subscriptions} id="subscriptions">
          <form method="get" action="/dashboard/subscriptions" class="filters">
            <div class="field">
              <label for="f-status">{t.status}</label>
              <select id="f-status" name="status">
                <option value="">{t.every_status}</option>
                {STATUSES.map((s) => (
                  <option value={s} selected={s === filter.status}>
                    {statusWord(s, t)}
                  </option>
                ))}
              </select>
            </div>
            {filter.customer ? <input type="hidden" name="customer" value={filter.customer} /> : null}
            <button type="submit" class="secondary" id="filter-button">
              {t.filter}
            </button>
          </form>
          <SubscriptionsTable rows={page.data} names={names} prices={prices} />
          <Pager basePath="/dashboard/subscriptions" query={query} hasMore={page.hasMore} lastId={page.data.at(-1)?.subscription.id} />
        </Panel>
      ),
    });
  });

  router.get('/subscriptions/:id', session, async (ctx) => subscriptionPage(ctx, dash(ctx), pathId(ctx.params.id)));

  for (const a of ACTIONS) {
    router.post(`/subscriptions/:id/${a.path}`, session, async (ctx) => {
      const d = dash(ctx);
      const id = pathId(ctx.params.id);
      await formPost(
        ctx,
        d,
        {
          permission: 'manage_billing',
          action: `subscription.${a.path.replace(/-/g, '_')}`,
          objectType: 'subscription',
          objectId: id,
          // The command waits on the workflow: no transaction held meanwhile.
          stepwise: true,
          run: async (_tx, _after, scope) => runSubscriptionCommand(deps, scope, id, a.command),
        },
        { fields: [], success: () => redirectWithNotice(ctx, `/dashboard/subscriptions/${id}`, 'subscription_changed'), failure: (state) => subscriptionPage(ctx, d, id, state) },
      );
    });
  }
}
