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
import type { DashboardRouter } from '../index';
import { dash, requireSession, type Dashboard } from '../session';
import { queryParams } from '../http';
import { formPost } from '../forms';
import { redirectWithNotice, sendPage } from '../render';
import { ActionButton, FormErrors, Pager, Panel, Props, Status, Table, day, money, when, type FormState } from '../views/ui';
import { InvoicesTable, SubscriptionsTable, customerNames, planPrices } from '../views/tables';

const STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'] as const;

export function temporalWorkflowUrl(d: Dashboard, workflowId: string): string {
  const query = encodeURIComponent(`WorkflowId="${workflowId}"`);
  return `${d.deps.config.temporalUiUrl}/namespaces/${encodeURIComponent(d.deps.config.temporalNamespace)}/workflows?query=${query}`;
}

const ACTIONS: Array<{ path: string; label: string; command: SubscriptionChangeCommand; confirm?: string; danger?: boolean }> = [
  {
    path: 'cancel-at-period-end',
    label: 'Cancel at period end',
    command: { kind: 'cancel', atPeriodEnd: true },
    confirm: 'Cancel this subscription at the end of the current period?',
  },
  { path: 'cancel-now', label: 'Cancel now', command: { kind: 'cancel', atPeriodEnd: false }, confirm: 'Cancel this subscription now? Billing stops at once.', danger: true },
  { path: 'uncancel', label: 'Undo cancellation', command: { kind: 'uncancel' } },
  { path: 'pause', label: 'Pause', command: { kind: 'pause' }, confirm: 'Pause this subscription? No invoices while paused.' },
  { path: 'resume', label: 'Resume', command: { kind: 'resume' } },
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
  sendPage(ctx, d, {
    title: `Subscription ${s.id}`,
    active: '/dashboard/subscriptions',
    body: (
      <>
        <FormErrors state={state} />
        <Panel title="Subscription" id="subscription">
          <Props
            rows={[
              [
                'Status',
                <span id="subscription-status">
                  <Status value={s.status} />
                </span>,
              ],
              [
                'Customer',
                <a href={`/dashboard/customers/${s.customerId}`} class="mono">
                  {s.customerId}
                </a>,
              ],
              ['Collection', s.collectionMethod === 'send_invoice' ? `bank claim, due in ${s.daysUntilDue ?? '—'} days` : 'card, charged automatically'],
              ['Current period', `${when(s.currentPeriodStart)} – ${when(s.currentPeriodEnd)}`],
              ['Trial', s.trialEnd ? `${day(s.trialStart)} – ${day(s.trialEnd)}` : null],
              ['Cancels at period end', s.cancelAtPeriodEnd ? 'yes' : 'no'],
              ['Canceled', when(s.canceledAt)],
              ['Paused since', when(s.pausedAt)],
              ['Started', when(s.startDate)],
              ['Test clock', s.testClockId],
              [
                'Workflow',
                <a href={temporalWorkflowUrl(d, d.deps.workflows.subscription.workflowId(s.id))} id="workflow-link" rel="noopener" target="_blank">
                  {d.deps.workflows.subscription.workflowId(s.id)} in the Temporal Web UI
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
                  label={a.label}
                  id={`sub-${a.path}`}
                  confirm={a.confirm}
                  danger={a.danger}
                  busy="Working…"
                />
              ))}
            </div>
          ) : null}
        </Panel>
        <Panel title="Items" id="items">
          <Table
            caption="Items"
            rows={items}
            empty="No items."
            columns={[
              { label: 'Product', cell: (i) => priceById.get(i.priceId)?.product.name ?? i.priceId },
              {
                label: 'Price',
                cell: (i) => {
                  const p = priceById.get(i.priceId);
                  return p?.unitAmount != null
                    ? `${money(p.unitAmount, p.currency)}${p.recurringUsageType === 'metered' ? ' per unit' : ''}`
                    : p?.tiersMode
                      ? `tiered (${p.tiersMode})`
                      : '—';
                },
              },
              { label: 'Quantity', num: true, cell: (i) => (priceById.get(i.priceId)?.recurringUsageType === 'metered' ? 'metered' : i.quantity) },
              { label: 'Since', nowrap: true, cell: (i) => when(i.createdAt) },
            ]}
          />
        </Panel>
        <Panel title="Next invoice (preview)" id="next-invoice">
          {preview ? (
            <>
              <p>
                At {when(s.currentPeriodEnd)}: <strong id="preview-total">{money(preview.invoice.total, preview.invoice.currency)}</strong> for {day(preview.invoice.periodStart)} –{' '}
                {day(preview.invoice.periodEnd)}. Usage so far counts; it may still grow.
              </p>
              <Table
                caption="Preview lines"
                rows={preview.lines}
                empty="No lines."
                columns={[
                  { label: 'Line', cell: (l) => l.description },
                  { label: 'Quantity', num: true, cell: (l) => String(l.quantity) },
                  { label: 'Amount', num: true, cell: (l) => money(l.amount, l.currency) },
                ]}
              />
            </>
          ) : (
            <p class="muted" id="preview-none">
              No invoice at the end of this period (
              {s.status === 'canceled' ? 'canceled' : s.status === 'paused' ? 'paused' : s.status === 'unpaid' ? 'unpaid: billing stopped' : 'nothing to bill'}).
            </p>
          )}
        </Panel>
        <Panel title="Invoices" id="subscription-invoices">
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
    sendPage(ctx, d, {
      title: 'Subscriptions',
      active: '/dashboard/subscriptions',
      body: (
        <Panel title="Subscriptions" id="subscriptions">
          <form method="get" action="/dashboard/subscriptions" class="filters">
            <div class="field">
              <label for="f-status">Status</label>
              <select id="f-status" name="status">
                <option value="">Every status</option>
                {STATUSES.map((s) => (
                  <option value={s} selected={s === filter.status}>
                    {s.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </div>
            {filter.customer ? <input type="hidden" name="customer" value={filter.customer} /> : null}
            <button type="submit" class="secondary">
              Filter
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
